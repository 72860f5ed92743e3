"""``legal`` and ``decide`` keep their exact behaviour while they are made faster.

Two locks. The digests were recorded from the engine before its legal-move
generation was optimised: each covers a seeded self-play game (every event,
the exact legal list of every seat at every state, order included, since the
bots pick by index) and what ``decide`` answers to a sample of the listed
commands. The oracle test compares ``legal`` with the slow reference in
``reference_legal`` on states of those games.

Re-record (only for an intended change of the rules) with
``python -m tests.games.tigris.test_legal_equivalence``.
"""

from __future__ import annotations

import hashlib
from functools import cache
from typing import Any

import msgspec
import pytest

from shared.games.tigris import GAME
from shared.games.tigris.state import Acting, State
from shared.kernel.playout import Playout, play
from shared.kernel.rejection import RuleViolation
from shared.kernel.rng import Rng
from tests.games.tigris.reference_legal import reference_actions

_enc = msgspec.msgpack.Encoder()

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
        "monument_new_square_new_chance": False,
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

#: Recorded before the optimisation; see the module docstring.
DIGESTS: dict[str, str] = {
    "2-default-20-random": "24a380c8d2aed17d223733610861f59dc4ec4fde4840a00db4b84c8516c2407d",
    "2-no_pass-21-random": "6006ff33947db431478114e2d47fbdb4c4c8864206e83fdadfdf8637ef6d47d4",
    "2-stay_unlifted-22-random": "32dd220004ac8b7064e2c2cd92c94e88993e05be942a10d080ccd214beac586b",
    "2-stay_lifted-23-random": "cbce03385aa827cf7aec1994154cbee736edc63358a9a0223b139777db2b7c00",
    "2-orders-24-random": "3c219b7c74729a38acd9d348b8b575277c1f9e1b7a5e58d9304ade77b136a6c0",
    "3-default-30-random": "53073b47f6afdcd87a975422d827250cbac9ee2e0a3cadbd652eedadb950c63b",
    "3-no_pass-31-random": "d7d5e732c08da53c8367cd5f85c515b62f7796f62e32fb966c5e139bcbc87e29",
    "3-stay_unlifted-32-random": "70ad3f0f2882a7bb4a6c8371f2e1aa2b6ce970390b00126f485c50c169c9d473",
    "3-stay_lifted-33-random": "3bd9993c634844c3f691e883af3510b91050a3ec46248a6441a4c66c887b1933",
    "3-orders-34-random": "39943d8cbaa503e13e013cca590b555f1ac201dcb1234d064d5dd28ca02bd081",
    "4-default-40-random": "8799c82222333e34c84f94a50050b30009884c65143d5b7405746415c005022a",
    "4-no_pass-41-random": "786e4f8afb4489dc203883473e3013823e9148377beabb117265be36c46fbd99",
    "4-stay_unlifted-42-random": "054ba90220d593ac6c0868b10382330fa87bf0d20d53097185447de07b29535b",
    "4-stay_lifted-43-random": "792e607ac3fe33a09b0ac9303e01fac3379a5768806a0cf17a61636e76bbc2db",
    "4-orders-44-random": "9e803ec0f6388415339e1b1db2e206f6ba89fb2e302075677ab639eb4c3166f8",
    "2-default-2-greedy": "6a5fae1ac0da16a3a244aa89e1056869a0cd39b3b91bc29ca4de7016ebbc3999",
    "3-no_pass-3-greedy": "350e81daefdadd53969259b95bc6994959724cb7be7883fdfc16f8e00e142241",
    "4-stay_unlifted-4-greedy": "f205d6afce55ae87c33c492d37b3d79d3c38ba9a4bd310a3978cc77c5296706c",
}


def case_id(case: Case) -> str:
    seats, name, seed, bot = case
    return f"{seats}-{name}-{seed}-{bot}"


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


def digest(case: Case) -> str:
    p = playout(case)
    h = hashlib.sha256(_enc.encode(p.opening))
    for step in p.steps:
        h.update(_enc.encode(step.events))
    for i, (version, state) in enumerate(states(p)):
        for seat in range(state.seats):
            listed = GAME.legal(state, seat)
            h.update(_enc.encode(listed))
            if i % 20 == 7:
                for command in listed[::3]:
                    h.update(_decided(state, seat, command, version))
    return h.hexdigest()


def _decided(state: State, seat: int, command: Any, version: int) -> bytes:
    try:
        return _enc.encode(GAME.decide(state, seat, command, Rng(b"\x07" * 32, version)))
    except RuleViolation as exc:
        return exc.code.encode()


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_games_legal_lists_and_decisions_are_unchanged(case: Case) -> None:
    assert digest(case) == DIGESTS[case_id(case)]


@pytest.mark.parametrize("case", CASES[: 3 * len(OPTION_SETS)], ids=case_id)
def test_legal_matches_the_reference_oracle(case: Case) -> None:
    for i, (_, state) in enumerate(states(playout(case))):
        if i % 4:
            continue
        for seat in range(state.seats):
            listed = GAME.legal(state, seat)
            if isinstance(state.phase, Acting) and seat == state.active:
                assert listed == reference_actions(state, seat), f"state {i}, seat {seat}"
            elif seat not in GAME.actors(state):
                assert listed == []


if __name__ == "__main__":
    for c in CASES:
        print(f"    {case_id(c)!r}: {digest(c)!r},")
