"""Production on a non-7 roll, the bank shortage rule (docs/rules/catan.md §5), and
the Aqueduct (docs/rules/catan.md §11.1)."""

from __future__ import annotations

import operator
from collections.abc import Mapping
from functools import lru_cache

from shared.games.catan import board
from shared.games.catan import events as ev
from shared.games.catan.cards import CLOTH, COIN, KINDS, PAPER, RESOURCES, SCIENCE, Hand
from shared.games.catan.rules.flow import CatanFold, clockwise, open_task
from shared.games.catan.state import State

TERRAIN_COMMODITY = {board.FOREST: PAPER, board.PASTURE: CLOTH, board.MOUNTAINS: COIN}


def owed(state: State, total: int) -> list[Hand]:
    due = [[0] * len(KINDS) for _ in range(state.seats)]
    owner, level, ck = state.owner, state.level, state.options.ck
    for h in hexes_numbered(state.numbers).get(total, ()):
        if h == state.robber:
            continue
        terrain = state.terrain[h]
        kind = board.TERRAIN_RESOURCE[terrain]
        commodity = TERRAIN_COMMODITY.get(terrain, -1) if ck else -1
        for spot in board.HEX_CORNERS[h]:
            seat = owner[spot]
            if seat < 0:
                continue
            cards = due[seat]
            if level[spot] == 1:
                cards[kind] += 1
            elif commodity >= 0:
                cards[kind] += 1
                cards[commodity] += 1
            else:
                cards[kind] += 2
    return list(map(tuple, due))


# A pure function of the number tokens (laid once; swapped by the Inventor), remembered: every roll
# asks which two hexes carry its number, not all nineteen.
@lru_cache(maxsize=64)
def hexes_numbered(numbers: tuple[int, ...]) -> Mapping[int, tuple[int, ...]]:
    """The hexes carrying each number, ascending (read-only: the mapping is shared)."""
    out: dict[int, list[int]] = {}
    for h, number in enumerate(numbers):
        out.setdefault(number, []).append(h)
    return {number: tuple(hexes) for number, hexes in out.items()}


def settle(state: State, due: list[Hand]) -> list[Hand]:
    """Per card kind: everybody is paid, or (short bank) nobody, unless one lone recipient takes the rest."""
    demands = list(map(sum, zip(*due, strict=True)))
    if all(map(operator.le, demands, state.bank)):
        return list(due)
    paid = [list(h) for h in due]
    for k in KINDS:
        demand = demands[k]
        if demand <= state.bank[k]:
            continue
        takers = [s for s, h in enumerate(due) if h[k]]
        lone = len(takers) == 1 and state.options.bank_shortage == "nobody_unless_single"
        for s in range(state.seats):
            paid[s][k] = state.bank[k] if lone and s in takers else 0
    return [tuple(h) for h in paid]


def produce(f: CatanFold) -> None:
    s = f.state
    yellow, red, _ = s.dice
    paid = settle(s, owed(s, yellow + red))
    for seat, hand in enumerate(paid):
        if any(hand):
            f.emit(ev.CardsGained(seat=seat, cards=hand))
    if s.options.ck:
        _aqueduct(f, paid)


def _aqueduct(f: CatanFold, paid: list[Hand]) -> None:
    s = f.state
    seats = tuple(
        seat
        for seat in clockwise(s, s.active)
        if s.players[seat].levels[SCIENCE] >= 3 and not any(paid[seat])
    )
    aqueducts(f, seats)


def aqueducts(f: CatanFold, seats: tuple[int, ...]) -> None:
    """Ask the next eligible seat (clockwise from the roller), one at a time: each chooses
    among the resources the bank holds once the seats before it have taken theirs."""
    if seats and aqueduct_choices(f.state):
        open_task(f, "aqueduct", seats[:1], data=seats[1:])


def aqueduct_choices(state: State) -> list[int]:
    return [k for k in RESOURCES if state.bank[k] > 0]
