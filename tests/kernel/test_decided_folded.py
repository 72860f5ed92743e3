"""``table.decided`` takes the table its events lead to from the fold ``decide`` wrote
them through: it must be exactly the table folding them again makes, and only the very
objects may be taken (anything else is folded)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from shared.games import registry
from shared.kernel import fold as folds
from shared.kernel import table as tables
from shared.kernel.rng import Rng
from tests.support.highcard import GAME as HIGHCARD

#: Games whose ``decide`` folds through ``GameModule.evolve`` itself, so the table is taken
#: from the fold; Catan and Conan fold through their own step functions and are folded again.
TAKEN = {"tigris", "tigris-cards", "highcard"}


def _game(key: str) -> Any:
    return HIGHCARD if key == "highcard" else registry.get(key)


@pytest.mark.parametrize("key", [*registry.available(), "highcard"])
def test_the_table_taken_from_decides_fold_is_the_one_folding_makes(key: str) -> None:
    game = _game(key)
    seats = max(game.min_seats, 2)
    hashes = tuple(f"t{s}" for s in range(seats))
    options = {"hand_size": 30, "deck_size": 80} if key == "highcard" else {}
    table = tables.fold(game, tables.open_table(game, seats, options, bytes(32), hashes, 0))
    taken = 0
    for _ in range(40):
        if table.over:
            break
        seat = min(game.actors(table.state))
        command = game.bots["random"](table.state, seat, Rng(bytes(32), table.version))
        emitted = game.decide(table.state, seat, command, Rng(bytes.fromhex(table.seed), table.version))
        fast = tables._folded(game, table, emitted)
        slow = tables.fold(game, list(emitted), table)
        if fast is not None:
            taken += 1
            assert fast == slow
            assert msgspec.msgpack.encode(fast) == msgspec.msgpack.encode(slow)
        events, after = tables.decided(game, table, seat, command)
        assert after == tables.fold(game, events, table)
        table = after
    assert (taken > 0) == (key in TAKEN)


def test_only_the_very_list_state_and_evolve_are_taken() -> None:
    table = tables.fold(HIGHCARD, tables.open_table(HIGHCARD, 2, {}, bytes(32), ("a", "b"), 0))
    seat = min(HIGHCARD.actors(table.state))
    command = HIGHCARD.bots["random"](table.state, seat, Rng(bytes(32), table.version))
    emitted = HIGHCARD.decide(table.state, seat, command, Rng(bytes.fromhex(table.seed), table.version))
    last = folds.last()
    assert last is not None and last.folded(emitted, table.state, HIGHCARD.evolve) is not None
    # A copy of the events, another (equal) state, another evolve: folded instead.
    assert tables._folded(HIGHCARD, table, list(emitted)) is None
    other = msgspec.structs.replace(table, state=msgspec.structs.replace(table.state))
    assert other.state == table.state and tables._folded(HIGHCARD, other, emitted) is None
    assert last.folded(emitted, table.state, lambda state, event: state) is None
    # A fold made since (another decision) is not this one's.
    HIGHCARD.decide(table.state, seat, command, Rng(bytes.fromhex(table.seed), table.version))
    assert tables._folded(HIGHCARD, table, emitted) is None
