"""Garbage and near-miss commands into every game's rules, through the validator.

Whatever arrives, the validator answers with a verdict (never an exception),
every rejection carries a code and a message, and the table is unchanged.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.validator.checks import check_move
from shared.games import registry
from shared.kernel import table as tables
from shared.kernel.auth import token_hash
from shared.kernel.playout import play
from shared.messaging.messages import Outcome
from tests.support.messages import move_msg

GAMES = registry.available()
_pack = msgspec.msgpack.Encoder().encode

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def midgame(key: str) -> tables.Table:
    """A table some moves into a real game, so phases beyond the opening are hit."""
    game = registry.get(key)
    seats = game.min_seats
    hashes = tuple(token_hash(f"t{s}") for s in range(seats))
    p = play(game, seats, b"\x11" * 32, max_steps=25)
    opening = tables.open_table(game, seats, {}, b"\x11" * 32, hashes, 0)
    return tables.fold(game, [*opening, *p.events[len(opening) - 2 :]])


def verdict_for(table: tables.Table, seat: int, command: Any) -> object:
    msg = move_msg(f"t{seat}", command)
    return check_move(msg, table, False)


@pytest.mark.parametrize("key", GAMES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_garbage_and_mutated_commands_never_crash_or_change_state(key: str, data: st.DataObject) -> None:
    table = _tables.setdefault(key, midgame(key))
    before = _pack(table)
    game = registry.get(key)
    seat = data.draw(st.integers(0, table.seats - 1))
    legal = [msgspec.to_builtins(c) for s in range(table.seats) for c in game.legal(table.state, s)]
    if legal and data.draw(st.booleans()):
        command = dict(data.draw(st.sampled_from(legal)))
        field = data.draw(st.sampled_from(sorted(command)))
        command[field] = data.draw(json_values)
    else:
        command = data.draw(json_values)
    verdict = verdict_for(table, seat, command)
    if isinstance(verdict, Outcome):
        assert verdict.status == "rejected" and verdict.code and verdict.message
    assert _pack(table) == before, "a judged command changed the table"


_tables: dict[str, tables.Table] = {}
