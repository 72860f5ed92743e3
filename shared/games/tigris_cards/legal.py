"""Every command a seat may issue now; ``decide`` accepts exactly these."""

from __future__ import annotations

from typing import assert_never

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
    State,
    Support,
    Token,
    TreasureOffer,
    VpOffer,
)
from shared.games.tigris_common.colours import COLOURS, LEADERS, Colour


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
            actions = actions_of(state, seat)
            if state.options.allow_pass or not actions:
                actions.append(Pass())
            return actions
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


def actions_of(state: State, seat: int) -> list[TigrisCardsCommand]:
    """The real actions of the active seat (passing aside)."""
    hosts = [spot for spot, slot in tb.slots(state.table) if can_host(state, spot, slot)]
    out: list[TigrisCardsCommand] = [PlaceLeader(leader=ld, spot=s) for ld in LEADERS for s in hosts]
    if state.options.allow_withdrawal:
        out += [
            WithdrawLeader(leader=ld)
            for ld in LEADERS
            if tb.find_leader(state.table, Token(seat=seat, leader=ld)) is not None
        ]
    held = [c for c in COLOURS if count(state.players[seat].hand, c)]
    rooms = [k for k in range(COLUMNS) if has_room(state, k)]
    out += [PlayCard(colour=c, column=k) for c in held for k in rooms]
    gaps = [g for g in range(GAPS) if can_connect(state, g)]
    out += [PlayConnector(colour=c, gap=g) for c in held for g in gaps]
    if state.players[seat].catastrophe:
        out += [PlayCatastrophe(spot=s) for s, _ in tb.slots(state.table) if can_strike(state, s)]
    return out
