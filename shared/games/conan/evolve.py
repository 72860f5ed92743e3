"""Fold one event into the state: recorded facts only, no rule is re-checked.

Provinces are stored in the content pack's order and events name them by id,
so the fold needs the pack: :class:`Evolve` is ``evolve`` bound to one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, assert_never

from msgspec.structs import replace

from shared.games.conan import events as ev
from shared.games.conan.content import Pack
from shared.games.conan.state import Bid, ProvinceState, SeatState, State, TableCard

BoardEvent = ev.UnitsChanged | ev.EmissariesChanged | ev.MarkerSet | ev.RaidersChanged | ev.CampaignSet
TokenEvent = (
    ev.TokenTaken | ev.TokenKept | ev.TokenExchanged | ev.TokenDiscarded | ev.TrackFilled | ev.TokensShuffled
)
PhaseEvent = ev.PhasePushed | ev.PhaseReplaced | ev.PhasePopped
SealedEvent = (
    ev.BidSealed | ev.BidsRevealed | ev.ContestCardCommitted | ev.ContestCardsRevealed | ev.CategoryChosen
    | ev.TokensRevealed
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Evolve:
    """``evolve`` over one content pack, as the fold of a decision calls it."""

    pack: Pack

    def __call__(self, state: State | None, event: ev.AnyEvent) -> State:
        return evolve(self.pack, state, event)


def evolve(pack: Pack, state: State | None, e: ev.AnyEvent) -> State:
    if state is None:
        assert isinstance(e, ev.Started), "the first event of a table is Started"
        return _started(pack, e)
    return _fold(pack, state, e)


def _seat(state: State, seat: int, **changes: Any) -> State:
    seats = list(state.seats)
    seats[seat] = replace(seats[seat], **changes)
    return replace(state, seats=tuple(seats))


def _prov(pack: Pack, state: State, pid: str, **changes: Any) -> State:
    i = pack.index[pid]
    provs = list(state.provinces)
    provs[i] = replace(provs[i], **changes)
    return replace(state, provinces=tuple(provs))


def _bump(values: tuple[int, ...], i: int, delta: int) -> tuple[int, ...]:
    out = list(values)
    out[i] += delta
    return tuple(out)


def _without(items: tuple[str, ...], gone: tuple[str, ...]) -> tuple[str, ...]:
    out = list(items)
    for card in gone:
        out.remove(card)
    return tuple(out)


def _started(pack: Pack, e: ev.Started) -> State:
    empty = (0,) * e.seats
    return State(
        options=e.options,
        seats=tuple(SeatState(kingdom=k) for k in e.kingdoms),
        provinces=tuple(ProvinceState(units=empty, emissaries=empty) for _ in pack.provinces),
        zones=e.zones,
        conan_at=next(p.id for p in pack.provinces if p.conan_start),
    )


def _shuffled(state: State, e: ev.DeckShuffled) -> State:
    match e.deck:
        case "strategy":
            return replace(state, strategy_deck=e.order, strategy_discard=())
        case "kingdom":
            return _seat(state, e.seat, kingdom_deck=e.order, kingdom_discard=())
        case "adventure":
            return replace(state, adventure_deck=e.order)
        case _:
            return replace(state, objective_deck=e.order)


def _drawn(state: State, e: ev.CardsDrawn) -> State:
    s = state.seats[e.seat]
    n = len(e.cards)
    if e.deck == "strategy":
        state = replace(state, strategy_deck=state.strategy_deck[n:])
        return _seat(state, e.seat, strategy_hand=tuple(sorted(s.strategy_hand + e.cards)))
    return _seat(
        state, e.seat, kingdom_deck=s.kingdom_deck[n:], kingdom_hand=tuple(sorted(s.kingdom_hand + e.cards))
    )


def _discarded(state: State, e: ev.CardsDiscarded) -> State:
    s = state.seats[e.seat]
    if e.deck == "strategy":
        state = replace(state, strategy_discard=state.strategy_discard + e.cards)
        return _seat(state, e.seat, strategy_hand=_without(s.strategy_hand, e.cards))
    if e.deck == "table":
        table = tuple(t for t in s.table if t.card not in e.cards)
        return _seat(state, e.seat, table=table, kingdom_discard=s.kingdom_discard + e.cards)
    return _seat(
        state,
        e.seat,
        kingdom_hand=_without(s.kingdom_hand, e.cards),
        kingdom_discard=s.kingdom_discard + e.cards,
    )


def _table(state: State, e: ev.TableCardPlayed | ev.TableCardTurned) -> State:
    s = state.seats[e.seat]
    if isinstance(e, ev.TableCardPlayed):
        table = tuple(sorted((*s.table, TableCard(card=e.card)), key=lambda t: t.card))
        return _seat(state, e.seat, kingdom_hand=_without(s.kingdom_hand, (e.card,)), table=table)
    table = tuple(replace(t, exhausted=e.exhausted) if t.card == e.card else t for t in s.table)
    return _seat(state, e.seat, table=table)


def _resources(state: State, e: ev.ResourcesChanged) -> State:
    s = state.seats[e.seat]
    return _seat(
        state,
        e.seat,
        gold=s.gold + e.gold,
        sorcery=s.sorcery + e.sorcery,
        ep=s.ep + e.ep,
        crom=s.crom + e.crom,
    )


def _board(pack: Pack, state: State, e: BoardEvent) -> State:
    p = state.provinces[pack.index[e.province]]
    match e:
        case ev.UnitsChanged():
            return _prov(pack, state, e.province, units=_bump(p.units, e.seat, e.delta))
        case ev.EmissariesChanged():
            return _prov(pack, state, e.province, emissaries=_bump(p.emissaries, e.seat, e.delta))
        case ev.MarkerSet():
            return _prov(pack, state, e.province, owner=e.owner, marker=e.marker)
        case ev.RaidersChanged():
            return _prov(pack, state, e.province, raiders=p.raiders + e.delta)
        case ev.CampaignSet():
            return _prov(pack, state, e.province, campaign_owner=e.owner, campaign_pos=e.pos)
        case _:
            assert_never(e)


def _token(state: State, e: TokenEvent) -> State:
    match e:
        case ev.TokenTaken(source="track"):
            state = replace(state, track=state.track[1:])
            return _seat(state, e.seat, pending_token=e.token)
        case ev.TokenTaken():
            state = replace(state, container=state.container[1:])
            return _seat(state, e.seat, pending_token=e.token)
        case ev.TokenKept():
            s = state.seats[e.seat]
            return _seat(state, e.seat, tokens=tuple(sorted((*s.tokens, s.pending_token))), pending_token=-1)
        case ev.TokenExchanged():
            state = replace(state, exchanged=(*state.exchanged, e.token))
            return _seat(state, e.seat, pending_token=-1)
        case ev.TokenDiscarded():
            return replace(
                state, track=state.track[1:], discarded_tokens=(*state.discarded_tokens, state.track[0])
            )
        case ev.TrackFilled():
            return replace(state, track=state.container[: e.count], container=state.container[e.count :])
        case ev.TokensShuffled():
            return replace(state, container=e.order, exchanged=())
        case _:
            assert_never(e)


def _phase(state: State, e: PhaseEvent) -> State:
    match e:
        case ev.PhasePushed():
            return replace(state, phases=(*state.phases, e.phase))
        case ev.PhaseReplaced():
            return replace(state, phases=(*state.phases[:-1], e.phase))
        case ev.PhasePopped():
            return replace(state, phases=state.phases[:-1])
        case _:
            assert_never(e)


def _sealed(state: State, e: SealedEvent) -> State:
    match e:
        case ev.BidSealed():
            return _seat(state, e.seat, sealed_bid=Bid(token=e.token, card=e.card))
        case ev.BidsRevealed():
            return replace(state, seats=tuple(replace(s, sealed_bid=None) for s in state.seats))
        case ev.ContestCardCommitted():
            return _seat(state, e.seat, sealed_cards=e.cards, committed=True)
        case ev.ContestCardsRevealed():
            for seat in e.seats:
                state = _seat(state, seat, sealed_cards=(), committed=False)
            return state
        case ev.CategoryChosen():
            return _seat(state, e.seat, sealed_category=e.category)
        case ev.TokensRevealed():
            return _seat(state, e.seat, sealed_category="")
        case _:
            assert_never(e)


def matched_fold(pack: Pack, state: State, e: ev.AnyEvent) -> State:
    """Every event's step (exhaustive: mypy checks each class is handled);
    :func:`_fold` takes the cases that hand the event to one step from
    :data:`STEPS_BY_TYPE`."""
    match e:
        case ev.Started():
            return _started(pack, e)
        case ev.DeckShuffled():
            return _shuffled(state, e)
        case ev.CardsDrawn():
            return _drawn(state, e)
        case ev.CardsDiscarded():
            return _discarded(state, e)
        case ev.TableCardPlayed() | ev.TableCardTurned():
            return _table(state, e)
        case ev.ResourcesChanged():
            return _resources(state, e)
        case (
            ev.UnitsChanged()
            | ev.EmissariesChanged()
            | ev.MarkerSet()
            | ev.RaidersChanged()
            | ev.CampaignSet()
        ):
            return _board(pack, state, e)
        case (
            ev.TokenTaken() | ev.TokenKept() | ev.TokenExchanged() | ev.TokenDiscarded() | ev.TrackFilled()
            | ev.TokensShuffled()
        ):  # fmt: skip
            return _token(state, e)
        case ev.PhasePushed() | ev.PhaseReplaced() | ev.PhasePopped():
            return _phase(state, e)
        case (
            ev.BidSealed() | ev.BidsRevealed() | ev.ContestCardCommitted() | ev.ContestCardsRevealed()
            | ev.CategoryChosen() | ev.TokensRevealed()
        ):  # fmt: skip
            return _sealed(state, e)
        case ev.ConanMoved():
            return replace(state, conan_at=e.to)
        case ev.ConanPlayerSet():
            return replace(state, conan_player=e.seat)
        case ev.FirstPlayerSet():
            return replace(state, first_player=e.seat)
        case ev.FatePoolRolled():
            return replace(state, fate_pool=e.faces)
        case ev.FateDieTaken():
            pool = list(state.fate_pool)
            pool.remove(e.face)
            return replace(state, fate_pool=tuple(pool))
        case ev.AdventureRevealed():
            used = (*state.adventures_used, state.adventure) if state.adventure else state.adventures_used
            deck = state.adventure_deck[1:] if e.card else state.adventure_deck
            return replace(
                state, adventure=e.card, destination=e.destination, adventure_deck=deck, adventures_used=used
            )
        case ev.BidTokensSet():
            return _seat(state, e.seat, bid_available=e.available, bid_spent=e.spent)
        case ev.ArtifactsSet():
            return _seat(state, e.seat, artifacts=e.artifacts, bonus=e.bonus)
        case ev.ObjectiveDrawn():
            return replace(
                state, objectives=(*state.objectives, e.objective), objective_deck=state.objective_deck[1:]
            )
        case ev.ObjectiveMet():
            return replace(state, objectives=tuple(o for o in state.objectives if o != e.objective))
        case ev.AgeStarted():
            return replace(state, age=e.age, age_over=False)
        case ev.AgeEnding():
            return replace(state, age_over=True)
        case ev.Crowned():
            if e.success:
                return replace(state, crowned=e.seat)
            return _seat(state, e.seat, dead=True)
        case ev.GameEnded():
            return replace(state, standings=e.standings, end_reason=e.reason)
        # Public shadows of private facts, and rolls whose outcome the next
        # phase already carries: nothing to fold.
        case (
            ev.CardsDrawnCount() | ev.TokenTakenCount() | ev.BidPlaced() | ev.CategoryChoiceMade()
            | ev.ContestCardDeclared() | ev.ContestRolled() | ev.ContestResolved()
        ):  # fmt: skip
            return state
        case _:
            assert_never(e)


Step = Callable[[Pack, State, Any], State]


def _of_state(step: Callable[[State, Any], State]) -> Step:
    return lambda pack, state, e: step(state, e)


def _unchanged(pack: Pack, state: State, e: Any) -> State:
    return state


#: ``matched_fold``'s cases that hand the event to one step (or leave the
#: state as it is), by the event's exact type: a look-up where the ``match``
#: tried each class pattern in turn (20 failed ones an event on average,
#: about 0.2 µs each against a struct class; docs/performance.md, "Round 3:
#: projection rebuild"). tests/games/test_evolve_by_type.py holds it to the match.
STEPS_BY_TYPE: dict[type, Step] = {
    ev.DeckShuffled: _of_state(_shuffled),
    ev.CardsDrawn: _of_state(_drawn),
    ev.CardsDiscarded: _of_state(_discarded),
    **dict.fromkeys((ev.TableCardPlayed, ev.TableCardTurned), _of_state(_table)),
    ev.ResourcesChanged: _of_state(_resources),
    **dict.fromkeys(
        (ev.UnitsChanged, ev.EmissariesChanged, ev.MarkerSet, ev.RaidersChanged, ev.CampaignSet), _board
    ),
    **dict.fromkeys(
        (
            ev.TokenTaken,
            ev.TokenKept,
            ev.TokenExchanged,
            ev.TokenDiscarded,
            ev.TrackFilled,
            ev.TokensShuffled,
        ),
        _of_state(_token),
    ),
    **dict.fromkeys((ev.PhasePushed, ev.PhaseReplaced, ev.PhasePopped), _of_state(_phase)),
    **dict.fromkeys(
        (
            ev.BidSealed,
            ev.BidsRevealed,
            ev.ContestCardCommitted,
            ev.ContestCardsRevealed,
            ev.CategoryChosen,
            ev.TokensRevealed,
        ),
        _of_state(_sealed),
    ),
    **dict.fromkeys(
        (
            ev.CardsDrawnCount,
            ev.TokenTakenCount,
            ev.BidPlaced,
            ev.CategoryChoiceMade,
            ev.ContestCardDeclared,
            ev.ContestRolled,
            ev.ContestResolved,
        ),
        _unchanged,
    ),
}


def _fold(pack: Pack, state: State, e: ev.AnyEvent) -> State:
    step = STEPS_BY_TYPE.get(type(e))
    return matched_fold(pack, state, e) if step is None else step(pack, state, e)
