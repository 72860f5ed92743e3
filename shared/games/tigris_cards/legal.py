"""Every command a seat may issue now; ``decide`` accepts exactly these."""

from __future__ import annotations

from typing import NamedTuple, TypeVar, assert_never

from shared.games.tigris_cards import table as tb
from shared.games.tigris_cards.cards import count
from shared.games.tigris_cards.commands import (
    BuildShip,
    ChooseConflictColour,
    CommitSupport,
    Decline,
    Pass,
    PlaceLeader,
    PlayCard,
    PlayCatastrophe,
    PlayConnector,
    ScoreCard,
    TakeTreasure,
    TigrisCardsCommand,
    WithdrawLeader,
)
from shared.games.tigris_cards.rules.catastrophes import can_strike
from shared.games.tigris_cards.rules.connecting import can_connect
from shared.games.tigris_cards.rules.leaders import can_host
from shared.games.tigris_cards.rules.playing import has_room
from shared.games.tigris_cards.state import (
    COLUMNS,
    GAPS,
    Act,
    ChooseConflict,
    Over,
    ShipOffer,
    Spot,
    State,
    Support,
    Token,
    TreasureOffer,
    VpOffer,
)
from shared.games.tigris_common.colours import COLOURS, LEADERS, Colour, Leader
from shared.kernel.legal_groups import LegalGroup, one_each, without


def actors(state: State) -> frozenset[int]:
    if isinstance(state.phase, Over):
        return frozenset()
    return frozenset((state.phase.seat,))


def legal(state: State, seat: int) -> list[TigrisCardsCommand]:
    if seat not in actors(state):
        return []
    phase = state.phase
    hand = state.players[seat].hand
    match phase:
        case Act():
            return _or_pass(state, actions_of(state, seat), Pass())
        case VpOffer(colour=colour):
            return [*([ScoreCard()] if count(hand, colour) else []), Decline()]
        case ShipOffer(ships=ships):
            return [*(BuildShip(ship=s) for s in ships), Decline()]
        case TreasureOffer(columns=columns):
            takes = [TakeTreasure(column=c) for c in columns] if count(hand, Colour.RED) else []
            return [*takes, Decline()]
        case Support():
            assert state.conflict is not None
            return [CommitSupport(count=n) for n in range(count(hand, state.conflict.support) + 1)]
        case ChooseConflict(colours=colours):
            return [ChooseConflictColour(colour=c) for c in colours]
        case Over():
            return []
        case _:
            assert_never(phase)


T = TypeVar("T")


def _or_pass(state: State, actions: list[T], passing: T) -> list[T]:
    """The acting seat's actions, and the pass if passing is allowed or nothing else is."""
    if state.options.allow_pass or not actions:
        actions.append(passing)
    return actions


class _Choices(NamedTuple):
    """What the acting seat's actions are made of, in the listed order."""

    hosts: list[Spot]  # where a leader may go
    withdrawals: list[Leader]  # leaders of the seat on the table
    held: list[Colour]  # colours in hand
    rooms: list[int]  # columns with room for a card
    gaps: list[int]  # gaps a connector may close
    strikes: list[Spot]  # where the seat's catastrophe may strike


def _choices(state: State, seat: int) -> _Choices:
    hosts = [spot for spot, slot in tb.slots(state.table) if can_host(state, spot, slot)]
    withdrawals = (
        [ld for ld in LEADERS if tb.find_leader(state.table, Token(seat=seat, leader=ld)) is not None]
        if state.options.allow_withdrawal
        else []
    )
    held = [c for c in COLOURS if count(state.players[seat].hand, c)]
    rooms = [k for k in range(COLUMNS) if has_room(state, k)]
    gaps = [g for g in range(GAPS) if can_connect(state, g)]
    strikes = (
        [s for s, _ in tb.slots(state.table) if can_strike(state, s)]
        if state.players[seat].catastrophe
        else []
    )
    return _Choices(hosts, withdrawals, held, rooms, gaps, strikes)


def actions_of(state: State, seat: int) -> list[TigrisCardsCommand]:
    """The real actions of the active seat (passing aside)."""
    c = _choices(state, seat)
    out: list[TigrisCardsCommand] = [PlaceLeader(leader=ld, spot=s) for ld in LEADERS for s in c.hosts]
    out += [WithdrawLeader(leader=ld) for ld in c.withdrawals]
    out += [PlayCard(colour=col, column=k) for col in c.held for k in c.rooms]
    out += [PlayConnector(colour=col, gap=g) for col in c.held for g in c.gaps]
    out += [PlayCatastrophe(spot=s) for s in c.strikes]
    return out


# Each command without its last field, encoded once: the groups' commands.
_ANY_SPOT = Spot(column=0, row=0)
_PLACE = {ld: without(PlaceLeader(leader=ld, spot=_ANY_SPOT), "spot") for ld in LEADERS}
_CARD = {col: without(PlayCard(colour=col, column=0), "column") for col in COLOURS}
_CONNECTOR = {col: without(PlayConnector(colour=col, gap=0), "gap") for col in COLOURS}
_CATASTROPHE = without(PlayCatastrophe(spot=_ANY_SPOT), "spot")
_PASS = LegalGroup(command=Pass())


def legal_groups(state: State, seat: int) -> list[LegalGroup]:
    """``legal`` in the view document's compact form: acting, the same list as
    :func:`actions_of` grouped over its last field (a leader over the spots
    that may host it, a colour over columns or gaps); else one per command."""
    if seat not in actors(state):
        return []
    if not isinstance(state.phase, Act):
        return one_each(legal(state, seat))
    c = _choices(state, seat)
    out: list[LegalGroup] = []
    if c.hosts:
        spots = tuple(c.hosts)
        out += [LegalGroup(command=_PLACE[ld], each="spot", values=spots) for ld in LEADERS]
    out += one_each(WithdrawLeader(leader=ld) for ld in c.withdrawals)
    if c.rooms:
        out += [LegalGroup(command=_CARD[col], each="column", values=tuple(c.rooms)) for col in c.held]
    if c.gaps:
        out += [LegalGroup(command=_CONNECTOR[col], each="gap", values=tuple(c.gaps)) for col in c.held]
    if c.strikes:
        out.append(LegalGroup(command=_CATASTROPHE, each="spot", values=tuple(c.strikes)))
    return _or_pass(state, out, _PASS)
