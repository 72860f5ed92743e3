"""Everything that happened, with every decision and random outcome recorded,
so that ``evolve`` only applies facts."""

from __future__ import annotations

from shared.games.tigris_cards.cards import Card
from shared.games.tigris_cards.options import Options
from shared.games.tigris_cards.state import AnyPhase, Conflict, Spot, Token
from shared.games.tigris_common.colours import Colour
from shared.kernel.messages import Event


class GameStarted(Event, tag="tigris-cards.game_started"):
    seats: int
    options: Options


class DeckShuffled(Event, tag="tigris-cards.deck_shuffled"):
    order: tuple[Colour, ...]  # top first; server only


class CardsDrawn(Event, tag="tigris-cards.cards_drawn"):
    seat: int
    cards: tuple[Colour, ...]  # that seat only


class CardsDrawnCount(Event, tag="tigris-cards.cards_drawn_count"):
    seat: int
    count: int


class CardsSetAside(Event, tag="tigris-cards.cards_set_aside"):
    """The next ``count`` cards of the draw pile leave the game unseen."""

    count: int


class TurnStarted(Event, tag="tigris-cards.turn_started"):
    seat: int
    actions: int
    quiet: int = 0  # turns in a row so far in which no hand lost a card


class ActionTaken(Event, tag="tigris-cards.action_taken"):
    seat: int
    left: int


class Passed(Event, tag="tigris-cards.passed"):
    seat: int


class LeaderPlaced(Event, tag="tigris-cards.leader_placed"):
    token: Token
    spot: Spot
    origin: Spot | None = None


class LeaderReturned(Event, tag="tigris-cards.leader_returned"):
    token: Token
    spot: Spot


class CardPlayed(Event, tag="tigris-cards.card_played"):
    seat: int
    colour: Colour
    column: int


class ConnectorLaid(Event, tag="tigris-cards.connector_laid"):
    """Face down: the public learns the gap, not the colour."""

    seat: int
    gap: int


class ConnectorChosen(Event, tag="tigris-cards.connector_chosen"):
    seat: int
    gap: int
    colour: Colour  # the laying seat only, until revealed


class ConnectorRevealed(Event, tag="tigris-cards.connector_revealed"):
    gap: int
    colour: Colour


class CatastropheStruck(Event, tag="tigris-cards.catastrophe_struck"):
    seat: int
    spot: Spot
    card: Card


class VpCardLaid(Event, tag="tigris-cards.vp_card_laid"):
    """A card from ``seat``'s hand goes face up on its VP pile."""

    seat: int
    colour: Colour


class OfferDeclined(Event, tag="tigris-cards.offer_declined"):
    seat: int


class ShipBuilt(Event, tag="tigris-cards.ship_built"):
    """The bottom ``cards`` cards of ``column`` (all ``colour``) are discarded
    and the ship takes their place (fewer than four only when a head helped)."""

    seat: int
    column: int
    colour: Colour
    ship: Card
    cards: int = 4


class ConflictBegun(Event, tag="tigris-cards.conflict_begun"):
    conflict: Conflict


class SupportCommitted(Event, tag="tigris-cards.support_committed"):
    seat: int
    colour: Colour
    count: int


class ConflictResolved(Event, tag="tigris-cards.conflict_resolved"):
    """One committed card goes to the winner's VP pile if ``reward``; the other
    ``discarded`` committed cards leave the game."""

    winner: int
    loser: int
    colour: Colour
    reward: bool
    discarded: int


class SpoilsTaken(Event, tag="tigris-cards.spoils_taken"):
    """These table cards go, in this order, onto ``seat``'s VP pile."""

    seat: int
    spots: tuple[Spot, ...]


class TreasureExchanged(Event, tag="tigris-cards.treasure_exchanged"):
    seat: int
    column: int


class Awaiting(Event, tag="tigris-cards.awaiting"):
    phase: AnyPhase


TigrisCardsEvent = (
    GameStarted
    | DeckShuffled
    | CardsDrawn
    | CardsDrawnCount
    | CardsSetAside
    | TurnStarted
    | ActionTaken
    | Passed
    | LeaderPlaced
    | LeaderReturned
    | CardPlayed
    | ConnectorLaid
    | ConnectorChosen
    | ConnectorRevealed
    | CatastropheStruck
    | VpCardLaid
    | OfferDeclined
    | ShipBuilt
    | ConflictBegun
    | SupportCommitted
    | ConflictResolved
    | SpoilsTaken
    | TreasureExchanged
    | Awaiting
)
