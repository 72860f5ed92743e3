"""Events: recorded facts, past tense, tagged ``conan.<snake_name>``.

Most are small board or resource deltas so that ``evolve`` stays a dumb fold;
phase changes carry the whole next phase as decided by the rules.
"""

from __future__ import annotations

from shared.games.conan.options import Options
from shared.games.conan.state import AnyPhase, RevealedBid
from shared.kernel.contract import Standing
from shared.kernel.messages import Event


class Started(Event, tag="conan.started"):
    seats: int
    options: Options
    kingdoms: tuple[str, ...]
    zones: tuple[str, ...]


class DeckShuffled(Event, tag="conan.deck_shuffled"):
    deck: str  # strategy | kingdom | adventure | objectives
    order: tuple[str, ...]
    seat: int = -1  # kingdom decks only


class TokensShuffled(Event, tag="conan.tokens_shuffled"):
    order: tuple[int, ...]


class CardsDrawn(Event, tag="conan.cards_drawn"):
    seat: int
    deck: str
    cards: tuple[str, ...]


class CardsDrawnCount(Event, tag="conan.cards_drawn_count"):
    seat: int
    deck: str
    count: int


class CardsDiscarded(Event, tag="conan.cards_discarded"):
    seat: int
    deck: str
    cards: tuple[str, ...]


class TableCardPlayed(Event, tag="conan.table_card_played"):
    seat: int
    card: str


class TableCardTurned(Event, tag="conan.table_card_turned"):
    seat: int
    card: str
    exhausted: bool


class ResourcesChanged(Event, tag="conan.resources_changed"):
    seat: int
    reason: str
    gold: int = 0
    sorcery: int = 0
    ep: int = 0
    crom: int = 0


class UnitsChanged(Event, tag="conan.units_changed"):
    seat: int
    province: str
    delta: int


class EmissariesChanged(Event, tag="conan.emissaries_changed"):
    seat: int
    province: str
    delta: int


class MarkerSet(Event, tag="conan.marker_set"):
    province: str
    owner: int
    marker: str


class RaidersChanged(Event, tag="conan.raiders_changed"):
    province: str
    delta: int


class CampaignSet(Event, tag="conan.campaign_set"):
    province: str
    owner: int
    pos: int


class ConanMoved(Event, tag="conan.conan_moved"):
    to: str


class ConanPlayerSet(Event, tag="conan.conan_player_set"):
    seat: int


class FirstPlayerSet(Event, tag="conan.first_player_set"):
    seat: int


class FatePoolRolled(Event, tag="conan.fate_pool_rolled"):
    faces: tuple[str, ...]


class FateDieTaken(Event, tag="conan.fate_die_taken"):
    seat: int
    face: str
    action: str


class AdventureRevealed(Event, tag="conan.adventure_revealed"):
    card: str
    destination: str


class TrackFilled(Event, tag="conan.track_filled"):
    count: int


class TokenTaken(Event, tag="conan.token_taken"):
    seat: int
    token: int
    source: str  # track | container


class TokenTakenCount(Event, tag="conan.token_taken_count"):
    seat: int
    source: str


class TokenKept(Event, tag="conan.token_kept"):
    seat: int


class TokenExchanged(Event, tag="conan.token_exchanged"):
    seat: int
    token: int
    resource: str
    amount: int


class TokenDiscarded(Event, tag="conan.token_discarded"):
    pass


class BidSealed(Event, tag="conan.bid_sealed"):
    seat: int
    token: int
    card: str | None


class BidPlaced(Event, tag="conan.bid_placed"):
    seat: int


class BidsRevealed(Event, tag="conan.bids_revealed"):
    bids: tuple[RevealedBid, ...]


class BidTokensSet(Event, tag="conan.bid_tokens_set"):
    seat: int
    available: tuple[int, ...]
    spent: tuple[int, ...]


class ContestCardCommitted(Event, tag="conan.contest_card_committed"):
    seat: int
    cards: tuple[str, ...]


class ContestCardDeclared(Event, tag="conan.contest_card_declared"):
    seat: int
    count: int  # how many face-down strategy cards (public; their faces are not)


class ContestCardsRevealed(Event, tag="conan.contest_cards_revealed"):
    seats: tuple[int, ...]
    cards: tuple[tuple[str, ...], ...]  # per seat, () where a side plays none


class ContestRolled(Event, tag="conan.contest_rolled"):
    seat: int
    faces: tuple[str, ...]
    reroll: bool = False


class ContestResolved(Event, tag="conan.contest_resolved"):
    province: str
    kind: str
    attacker_successes: int
    defender_successes: int
    attacker_won: bool


class PhasePushed(Event, tag="conan.phase_pushed"):
    phase: AnyPhase


class PhaseReplaced(Event, tag="conan.phase_replaced"):
    phase: AnyPhase


class PhasePopped(Event, tag="conan.phase_popped"):
    pass


class ArtifactsSet(Event, tag="conan.artifacts_set"):
    seat: int
    artifacts: tuple[str, ...]
    bonus: bool


class CategoryChosen(Event, tag="conan.category_chosen"):
    seat: int
    category: str


class CategoryChoiceMade(Event, tag="conan.category_choice_made"):
    seat: int


class TokensRevealed(Event, tag="conan.tokens_revealed"):
    seat: int
    category: str
    values: tuple[int, ...]


class ObjectiveDrawn(Event, tag="conan.objective_drawn"):
    objective: str


class ObjectiveMet(Event, tag="conan.objective_met"):
    objective: str
    seats: tuple[int, ...]


class AgeStarted(Event, tag="conan.age_started"):
    age: int


class AgeEnding(Event, tag="conan.age_ending"):
    pass


class Crowned(Event, tag="conan.crowned"):
    seat: int
    category: str
    success: bool


class GameEnded(Event, tag="conan.game_ended"):
    standings: tuple[Standing, ...]
    reason: str


AnyEvent = (
    Started | DeckShuffled | TokensShuffled | CardsDrawn | CardsDrawnCount | CardsDiscarded
    | TableCardPlayed | TableCardTurned | ResourcesChanged | UnitsChanged | EmissariesChanged
    | MarkerSet | RaidersChanged | CampaignSet | ConanMoved | ConanPlayerSet | FirstPlayerSet
    | FatePoolRolled | FateDieTaken | AdventureRevealed | TrackFilled | TokenTaken | TokenTakenCount
    | TokenKept | TokenExchanged | TokenDiscarded | BidSealed | BidPlaced | BidsRevealed | BidTokensSet
    | ContestCardCommitted | ContestCardDeclared | ContestCardsRevealed | ContestRolled | ContestResolved
    | PhasePushed | PhaseReplaced | PhasePopped | ArtifactsSet | CategoryChosen | CategoryChoiceMade
    | TokensRevealed | ObjectiveDrawn | ObjectiveMet | AgeStarted | AgeEnding | Crowned | GameEnded
)  # fmt: skip
