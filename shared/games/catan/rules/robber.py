"""Sevens: simultaneous discards, then the robber's move and theft (docs/rules/catan.md §8)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from shared.games.catan import board
from shared.games.catan import events as ev
from shared.games.catan.cards import KINDS, Hand, one, total
from shared.games.catan.rules.building import walls_of
from shared.games.catan.rules.flow import CatanFold, open_task
from shared.games.catan.rules.victory import public_points
from shared.games.catan.state import State


def discard_limit(state: State, seat: int) -> int:
    return 7 + (2 * walls_of(state, seat) if state.options.ck else 0)


def open_discards(f: CatanFold) -> None:
    s = f.state
    due = [(seat, total(s.players[seat].hand) // 2) for seat in range(s.seats)]
    due = [(seat, n) for seat, n in due if total(s.players[seat].hand) > discard_limit(s, seat)]
    if due:
        open_task(f, "discard", tuple(d[0] for d in due), amounts=tuple(d[1] for d in due))


def robber_active(state: State) -> bool:
    return not state.options.ck or state.attacks > 0


def open_robber(f: CatanFold) -> None:
    if robber_active(f.state):
        open_task(f, "robber", (f.state.active,), owner=f.state.active)


def adjacent_opponents(state: State, seat: int, hex_: int) -> list[int]:
    owner = state.owner
    seats = {owner[c] for c in board.HEX_CORNERS[hex_]}
    seats.discard(-1)
    seats.discard(seat)
    return sorted(seats)


def target_hexes(state: State, seat: int, chase: bool = False) -> list[int]:
    hexes = [h for h in range(19) if h != state.robber]
    if chase and not state.options.chased_robber_may_go_to_desert:
        hexes = [h for h in hexes if state.terrain[h] != board.DESERT]
    if state.options.friendly_robber:
        kind = [
            h for h in hexes if all(public_points(state, o) > 2 for o in adjacent_opponents(state, seat, h))
        ]
        hexes = kind or hexes
    return hexes


def moves(state: State, seat: int, chase: bool = False) -> list[tuple[int, int]]:
    return list(_moves(state.owner, seat, tuple(target_hexes(state, seat, chase))))


# Pure functions of the buildings (and the hexes), remembered: the buildings change far less often
# than the robber moves.
@lru_cache(maxsize=2048)
def _moves(owner: tuple[int, ...], seat: int, hexes: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """Each hex with each opponent of ``seat`` there, ascending, or with -1 (none)."""
    near = _opponents_by_hex(owner, seat)
    out: list[tuple[int, int]] = []
    for h in hexes:
        if h in near:
            out.extend((h, v) for v in near[h])
        else:
            out.append((h, -1))
    return tuple(out)


@lru_cache(maxsize=1024)
def _opponents_by_hex(owner: tuple[int, ...], seat: int) -> Mapping[int, tuple[int, ...]]:
    """Each hex's opponents of ``seat``, ascending, from the few occupied spots rather than every
    hex's six corners (read-only: the mapping is shared)."""
    near: dict[int, set[int]] = {}
    for spot, o in enumerate(owner):
        if o != -1 and o != seat:
            for h in board.SPOT_HEXES[spot]:
                near.setdefault(h, set()).add(o)
    return {h: tuple(sorted(seats)) for h, seats in near.items()}


def random_card(f: CatanFold, hand: Hand) -> int:
    pick = f.rng.below(total(hand))
    for k in KINDS:
        if pick < hand[k]:
            return k
        pick -= hand[k]
    raise AssertionError("unreachable")


def steal(f: CatanFold, thief: int, victim: int) -> None:
    hand = f.state.players[victim].hand
    if total(hand) == 0:
        return
    card = one(random_card(f, hand))
    f.emit(
        ev.CardsTaken(src=victim, dst=thief, cards=card), ev.CardsTakenShadow(src=victim, dst=thief, count=1)
    )


def move(f: CatanFold, seat: int, hex_: int, victim: int) -> None:
    f.emit(ev.RobberMoved(hex=hex_))
    if victim >= 0:
        steal(f, seat, victim)
