"""The validator's table cache adopts the table its own dry run folded when the
log's next events are exactly the ones it decided, and folds what it reads in
every other case. An adopted table must be the very table a fold of the log
gives, in every game: the validator judges the next command against it."""

from __future__ import annotations

from typing import Any, cast

import msgspec
import pytest

from services.validator.checks import judge
from shared.eventstore.envelope import EventEnvelope
from shared.eventstore.tables import Foreseen, TableCache, fold_envelope
from shared.games import registry
from shared.kernel import table as tables
from shared.kernel.auth import token_hash
from shared.kernel.clocks import ClockSettings
from shared.kernel.rng import Rng
from shared.kernel.table import Table
from shared.messaging.messages import MoveMsg
from tests.support.messages import move_msg

TOKENS = ("t0", "t1", "t2", "t3", "t4", "t5")
COMMANDS = 40  # per game: enough to reach every game's main phase and a few of its events


def _opened(key: str, clock: ClockSettings | None = None) -> Table:
    game = registry.get(key)
    seats = max(2, game.min_seats)
    hashes = tuple(token_hash(t) for t in TOKENS[:seats])
    return tables.fold(game, tables.open_table(game, seats, {}, b"\x07" * 32, hashes, 0, clock))


def _envelopes(table: Table, command_id: str, payloads: tuple[bytes, ...]) -> list[EventEnvelope]:
    return [
        EventEnvelope(
            game_id="g",
            partition=0,
            version=table.version + 1 + k,
            event_id="",
            command_id=command_id,
            correlation_id="",
            server_time=0,
            seat=None,
            payload=raw,
        )
        for k, raw in enumerate(payloads)
    ]


def _move(table: Table, n: int) -> MoveMsg:
    game = registry.get(table.game)
    seat = min(game.actors(table.state))
    command = game.bots["random"](table.state, seat, Rng(b"\x01" * 32, table.version))
    return move_msg(TOKENS[seat], msgspec.to_builtins(command), command_id=f"c{n}")


def _judged(table: Table, msg: MoveMsg) -> tuple[tuple[bytes, ...], Table]:
    verdict, after = judge(msg, table, False)
    assert isinstance(verdict, MoveMsg) and verdict.decided is not None and after is not None, verdict
    return verdict.decided.events, after


def _cache(table: Table) -> TableCache:
    cache = TableCache(cast(Any, None))  # only its memory: nothing here reads the store
    cache.put("g", table)
    return cache


def _folded(table: Table, envelopes: list[EventEnvelope]) -> Table:
    for env in envelopes:
        table = fold_envelope(table, env)
    return table


@pytest.mark.parametrize("key", registry.available())
def test_an_adopted_table_is_the_table_the_log_folds_to(key: str) -> None:
    table = _opened(key)
    for n in range(COMMANDS):
        if table.over:
            break
        msg = _move(table, n)
        payloads, after = _judged(table, msg)
        log = _envelopes(table, msg.command_id, payloads)
        cache = _cache(table)
        cache.foresee("g", Foreseen(table, msg.command_id, payloads, after))
        adopted = cache.apply("g", log)
        assert adopted is after  # adopted, not folded again
        folded = _folded(table, log)
        assert adopted == folded
        assert msgspec.msgpack.encode(adopted) == msgspec.msgpack.encode(folded)
        table = folded


def _other_decision(table: Table, msg: MoveMsg) -> tuple[bytes, ...]:
    """Another command's events at the same version (what the reducer appends when it
    decided again, under the same command id, on a table the validator did not see)."""
    game = registry.get(table.game)
    seat = min(game.actors(table.state))
    for draw in range(100):
        command = game.bots["random"](table.state, seat, Rng(bytes([draw]) * 32, table.version))
        other = move_msg(TOKENS[seat], msgspec.to_builtins(command), command_id=msg.command_id)
        payloads = _judged(table, other)[0]
        if payloads != _judged(table, msg)[0]:
            return payloads
    raise AssertionError("no other legal command")


def test_what_the_log_holds_otherwise_is_folded_as_read() -> None:
    table = _opened("tigris")
    msg = _move(table, 0)
    payloads, after = _judged(table, msg)
    log = _envelopes(table, msg.command_id, payloads)
    reads = {
        "another command's events": _envelopes(table, "another", payloads),
        "other events under this command id": _envelopes(table, msg.command_id, _other_decision(table, msg)),
        "part of the events": log[:-1],
    }
    for what, read in reads.items():
        cache = _cache(table)
        cache.foresee("g", Foreseen(table, msg.command_id, payloads, after))
        got = cache.apply("g", read)
        assert got is not after, what
        assert got == _folded(table, read), what
    # A decision made against another table than the one held is not kept.
    cache = _cache(table)
    cache.foresee("g", Foreseen(msgspec.structs.replace(table), msg.command_id, payloads, after))
    assert cache.apply("g", log) is not after


def test_a_clocked_table_foresees_nothing() -> None:
    """Its events depend on the reducer's moment, so nothing is decided ahead for it."""
    table = _opened("tigris", ClockSettings(initial_ms=60_000))
    verdict, after = judge(_move(table, 0), table, False)
    assert isinstance(verdict, MoveMsg) and verdict.decided is None and after is None


def test_a_decision_waits_for_the_read_that_finds_its_events() -> None:
    """The validator may read the table again before the reducer appended the move
    (another command for the table in between): nothing new, nothing dropped."""
    table = _opened("tigris")
    msg = _move(table, 0)
    payloads, after = _judged(table, msg)
    cache = _cache(table)
    cache.foresee("g", Foreseen(table, msg.command_id, payloads, after))
    assert cache.apply("g", []) is table
    assert cache.apply("g", _envelopes(table, msg.command_id, payloads)) is after
