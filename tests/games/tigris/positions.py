"""Tigris positions the rule tests share, each computed once per test process.

Random self-play games (``playouts``, checked against the invariants as they
are played) and states sampled from them; the seeded games the legal-move
locks recorded (``CASES``, ``playout``, ``states``), whose digests are in
test_legal_equivalence.py; the rulebook's example B1 (docs/rules/tigris.md).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from shared.games.tigris import GAME
from shared.games.tigris.state import State
from shared.kernel.playout import Playout, play
from tests.games.contract_checks import check_playouts
from tests.games.tigris.boards import build
from tests.games.tigris.invariants import check

# ------------------------------------------------------------ random self-play

_cache: dict[int, list[Playout]] = {}


def playouts(seats: int) -> list[Playout]:
    # 30 games by default: 10 for each table size, shared by the tests that use them.
    if seats not in _cache:
        _cache[seats] = check_playouts(GAME, seats, 10, invariant=check)
    return _cache[seats]


def sampled_states() -> list[State]:
    out = []
    for p in playouts(2)[:2] + playouts(4)[:1]:
        state = None
        for i, event in enumerate(p.events):
            state = GAME.evolve(state, event)
            if i % 23 == 0:
                out.append(state)
    return out


# ------------------------------------------------- the recorded seeded games

#: Option sets that change which commands are legal or how actions unfold.
OPTION_SETS: dict[str, dict[str, Any]] = {
    "default": {},
    "no_pass": {"allow_pass": False, "empty_swap_is_pass": False},
    "stay_unlifted": {"allow_move_in_place": True, "judge_move_with_leader_lifted": False},
    "stay_lifted": {"allow_move_in_place": True, "treasure_timing": "turn", "support_variant": "english"},
    "orders": {
        "treasures_before_monument": True,
        "treasure_end_check": "end_of_action",
        "choose_monument_square": False,
        "monument_new_square_new_chance": True,
        "refill_order": "table_order",
        "end_when_bag_emptied": True,
        "shared_full_ties": False,
    },
}

Case = tuple[int, str, int, str]  # seats, option set, seed, bot
CASES: list[Case] = [
    (seats, name, 10 * seats + i, "random") for seats in (2, 3, 4) for i, name in enumerate(OPTION_SETS)
]
CASES += [(2, "default", 2, "greedy"), (3, "no_pass", 3, "greedy"), (4, "stay_unlifted", 4, "greedy")]


@cache
def playout(case: Case) -> Playout:
    seats, name, seed, bot = case
    bots = {s: GAME.bots[bot] for s in range(seats)}
    return play(GAME, seats, seed.to_bytes(32, "big"), bots=bots, options=OPTION_SETS[name])


def states(p: Playout) -> list[tuple[int, State]]:
    """(version, state) at every decision of the game, and the final state."""
    state: Any = GAME.fold(p.opening)
    out = [(len(p.opening), state)]
    for step in p.steps:
        state = GAME.fold(step.events, state)
        out.append((step.version + len(step.events), state))
    return out


# ------------------------------------------------------ the rulebook's examples

B1_BOARD = """
K1 r .
.  . r
"""


def b1_state() -> State:
    # Pot (seat 0) attacks with a king next to 2 temples; Bull's king has 1.
    return build(B1_BOARD, origin="E4", hands={0: "rrkkkk", 1: "rrrkkk"})
