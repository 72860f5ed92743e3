"""Action 1: place a leader from the supply or move it onto another card (docs/rules/tigris-cards.md §7).

A leader may stand on any civilisation card without a leader, whatever its
colour: heads, column cards and (by option) connectors, never a ship. A
same-coloured rival in the target kingdom starts an internal conflict.
"""

from __future__ import annotations

from shared.games.tigris_cards import table as tb
from shared.games.tigris_cards.cards import is_ship
from shared.games.tigris_cards.commands import PlaceLeader, WithdrawLeader
from shared.games.tigris_cards.events import (
    ActionTaken,
    Awaiting,
    ConflictBegun,
    LeaderPlaced,
    LeaderReturned,
)
from shared.games.tigris_cards.rejections import LEADER_NOT_ON_TABLE, SPOT_UNAVAILABLE, WITHDRAWAL_NOT_ALLOWED
from shared.games.tigris_cards.rules import CardsFold
from shared.games.tigris_cards.rules.kingdoms import kingdom, leaders_in, stands_on_red
from shared.games.tigris_cards.rules.turns import end_action
from shared.games.tigris_cards.state import GAP, Conflict, Slot, Spot, State, Support, Token
from shared.games.tigris_common.colours import Colour
from shared.kernel.rejection import require


def can_host(state: State, spot: Spot, slot: Slot | None = None) -> bool:
    slot = slot or tb.slot_at(state.table, spot)
    if slot is None or slot.leader is not None or is_ship(slot.card):
        return False
    return spot.row != GAP or state.options.leaders_on_connectors


def place_leader(f: CardsFold, seat: int, command: PlaceLeader) -> None:
    require(
        can_host(f.state, command.spot),
        SPOT_UNAVAILABLE,
        "A leader needs a civilisation card without a leader (no ships).",
        spot=command.spot,
    )
    token = Token(seat=seat, leader=command.leader)
    origin = tb.find_leader(f.state.table, token)
    f.emit(
        ActionTaken(seat=seat, left=f.state.actions_left - 1),
        LeaderPlaced(token=token, spot=command.spot, origin=origin),
    )
    for rival_spot, rival in leaders_in(f.state.table, kingdom(f.state.table, command.spot.column)):
        if rival.leader is command.leader and rival.seat != seat:
            begin_internal(f, token, command.spot, rival, rival_spot)
            return
    end_action(f)


def begin_internal(f: CardsFold, token: Token, spot: Spot, rival: Token, rival_spot: Spot) -> None:
    conflict = Conflict(
        kind="internal",
        colour=token.leader.colour,
        support=Colour.RED,
        attacker=token.seat,
        defender=rival.seat,
        attacker_base=int(stands_on_red(f.state.table, spot)),
        defender_base=int(stands_on_red(f.state.table, rival_spot)),
    )
    f.emit(ConflictBegun(conflict=conflict), Awaiting(phase=Support(seat=token.seat)))


def withdraw_leader(f: CardsFold, seat: int, command: WithdrawLeader) -> None:
    require(f.state.options.allow_withdrawal, WITHDRAWAL_NOT_ALLOWED, "Leaders cannot be withdrawn.")
    token = Token(seat=seat, leader=command.leader)
    spot = tb.find_leader(f.state.table, token)
    require(spot is not None, LEADER_NOT_ON_TABLE, "That leader is already in your supply.")
    assert spot is not None
    f.emit(ActionTaken(seat=seat, left=f.state.actions_left - 1), LeaderReturned(token=token, spot=spot))
    end_action(f)
