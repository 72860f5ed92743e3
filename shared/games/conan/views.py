"""Views per audience and the visibility of every event.

Canonical: sorted tuples, no sets, so equal information encodes to identical
bytes. A seat sees its own hand, tokens and sealed choices; everyone sees the
board, counts, and that a sealed choice was made, never its content.
"""

from __future__ import annotations

from shared.games.conan import events as ev
from shared.games.conan.loader import get_pack
from shared.games.conan.state import AnyPhase, Bid, ProvinceState, SeatState, State, TableCard
from shared.kernel.messages import Record
from shared.kernel.visibility import PUBLIC, SERVER_ONLY, Audience, Visibility, seat_only


class SeatPublic(Record, frozen=True):
    kingdom: str
    gold: int
    sorcery: int
    ep: int
    crom: int
    strategy_cards: int
    kingdom_cards: int
    kingdom_deck: int
    kingdom_discard: tuple[str, ...]
    table: tuple[TableCard, ...]
    bid_available: tuple[int, ...]
    bid_spent: tuple[int, ...]
    adventure_tokens: int
    token_pending: bool
    artifacts: tuple[str, ...]
    bonus: bool
    dead: bool
    bid_placed: bool
    contest_card_committed: bool
    category_chosen: bool


class Private(Record, frozen=True):
    strategy_hand: tuple[str, ...]
    kingdom_hand: tuple[str, ...]
    tokens: tuple[tuple[str, int], ...]
    pending_token: tuple[str, int] | None
    sealed_bid: Bid | None
    sealed_cards: tuple[str, ...]
    sealed_category: str


class ProvinceView(Record, frozen=True):
    id: str
    state: ProvinceState


class View(Record, frozen=True):
    pack: str
    seats: tuple[SeatPublic, ...]
    provinces: tuple[ProvinceView, ...]
    zones: tuple[str, ...]
    phases: tuple[AnyPhase, ...]
    fate_pool: tuple[str, ...]
    conan_at: str
    conan_player: int
    first_player: int
    age: int
    adventure: str
    destination: str
    adventures_left_in_age: int
    track: int
    container: int
    strategy_deck: int
    strategy_discard: tuple[str, ...]
    objectives: tuple[str, ...]
    crowned: int
    me: Private | None = None


def _public(s: SeatState) -> SeatPublic:
    return SeatPublic(
        kingdom=s.kingdom, gold=s.gold, sorcery=s.sorcery, ep=s.ep, crom=s.crom,
        strategy_cards=len(s.strategy_hand), kingdom_cards=len(s.kingdom_hand),
        kingdom_deck=len(s.kingdom_deck),
        kingdom_discard=tuple(sorted(s.kingdom_discard)), table=s.table, bid_available=s.bid_available,
        bid_spent=s.bid_spent, adventure_tokens=len(s.tokens), token_pending=s.pending_token >= 0,
        artifacts=s.artifacts, bonus=s.bonus, dead=s.dead, bid_placed=s.sealed_bid is not None,
        contest_card_committed=s.committed, category_chosen=bool(s.sealed_category),
    )  # fmt: skip


def _private(state: State, s: SeatState) -> Private:
    tokens = get_pack(state.options.pack).tokens
    return Private(
        strategy_hand=s.strategy_hand,
        kingdom_hand=s.kingdom_hand,
        tokens=tuple(sorted(tokens[t] for t in s.tokens)),
        pending_token=tokens[s.pending_token] if s.pending_token >= 0 else None,
        sealed_bid=s.sealed_bid,
        sealed_cards=s.sealed_cards,
        sealed_category=s.sealed_category,
    )


def view(state: State, audience: Audience) -> View:
    from shared.games.conan.rules.adventure import age_deck_left

    pack = get_pack(state.options.pack)
    return View(
        pack=state.options.pack,
        seats=tuple(_public(s) for s in state.seats),
        provinces=tuple(
            ProvinceView(id=p.id, state=state.provinces[i]) for i, p in enumerate(pack.provinces)
        ),
        zones=state.zones,
        phases=state.phases,
        fate_pool=tuple(sorted(state.fate_pool)),
        conan_at=state.conan_at,
        conan_player=state.conan_player,
        first_player=state.first_player,
        age=state.age,
        adventure=state.adventure,
        destination=state.destination,
        adventures_left_in_age=max(0, age_deck_left(state)),
        track=len(state.track),
        container=len(state.container),
        strategy_deck=len(state.strategy_deck),
        strategy_discard=tuple(sorted(state.strategy_discard)),
        objectives=state.objectives,
        crowned=state.crowned,
        me=_private(state, state.seats[audience]) if audience is not None else None,
    )


def visibility(event: ev.AnyEvent) -> Visibility:
    match event:
        case ev.CardsDrawn(seat=seat) | ev.BidSealed(seat=seat) | ev.ContestCardCommitted(seat=seat):
            return seat_only(seat)
        case ev.TokenTaken(seat=seat) | ev.CategoryChosen(seat=seat):
            return seat_only(seat)
        case ev.DeckShuffled() | ev.TokensShuffled() | ev.TrackFilled():
            return SERVER_ONLY
        case (
            ev.Started()
            | ev.CardsDrawnCount()
            | ev.CardsDiscarded()
            | ev.TableCardPlayed()
            | ev.TableCardTurned()
        ):
            return PUBLIC
        case ev.ResourcesChanged() | ev.UnitsChanged() | ev.EmissariesChanged() | ev.MarkerSet():
            return PUBLIC
        case (
            ev.RaidersChanged()
            | ev.CampaignSet()
            | ev.ConanMoved()
            | ev.ConanPlayerSet()
            | ev.FirstPlayerSet()
        ):
            return PUBLIC
        case ev.FatePoolRolled() | ev.FateDieTaken() | ev.AdventureRevealed() | ev.TokenTakenCount():
            return PUBLIC
        case ev.TokenKept() | ev.TokenExchanged() | ev.TokenDiscarded() | ev.BidPlaced() | ev.BidsRevealed():
            return PUBLIC
        case ev.BidTokensSet() | ev.ContestCardDeclared() | ev.ContestCardsRevealed() | ev.ContestRolled():
            return PUBLIC
        case (
            ev.ContestResolved()
            | ev.PhasePushed()
            | ev.PhaseReplaced()
            | ev.PhasePopped()
            | ev.ArtifactsSet()
        ):
            return PUBLIC
        case ev.CategoryChoiceMade() | ev.TokensRevealed() | ev.ObjectiveDrawn() | ev.ObjectiveMet():
            return PUBLIC
        case ev.AgeStarted() | ev.AgeEnding() | ev.Crowned() | ev.GameEnded():
            return PUBLIC
