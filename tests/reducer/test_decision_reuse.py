"""The rules run once per move: the reducer appends the validator's decision
while its table is still at the version it was decided at, and decides
afresh otherwise, against a real Valkey.

A decision made against a state the game has left is never appended: the
table moved between validation and reduce (another writer's append, or an
earlier command of the same batch), and the reducer decides again, which the
events in the store (equal to a fresh ``decide`` at the version they follow)
and the reuse counter both show.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from services.reducer.handlers import Reducer
from services.validator.checks import _decided, check_move
from services.validator.handlers import Validator
from shared.eventstore.keys import GameKeys, command_stream, validated_stream
from shared.eventstore.store import EventStore
from shared.eventstore.tables import TableCache, decode_all
from shared.games import registry
from shared.kernel import table as tables
from shared.kernel.auth import token_hash
from shared.kernel.clocks import ClockSettings
from shared.kernel.codec import codec_for
from shared.messaging.messages import (
    MAX_DECIDED_BYTES,
    MAX_DECIDED_EVENTS,
    CommandMsg,
    decode_command,
    encode,
)
from shared.messaging.streams import Batch
from shared.observability import metrics
from shared.readmodels.audit import AuditLog, verify_log
from tests.support.messages import move_msg, open_msg

pytestmark = pytest.mark.integration
TOKENS = ("seat-0", "seat-1")
KEYS = GameKeys("g", 0)


def reused() -> float:
    return float(metrics.DECISIONS_REUSED._value.get())


async def validate(redis: Any, msgs: list[CommandMsg]) -> list[CommandMsg]:
    """The validator's handler over one batch; what it put on the ``validated`` stream."""
    stream = validated_stream(0)
    last = (await redis.xrevrange(stream, count=1) or [(b"0-0", {})])[0][0]
    batch = Batch([(command_stream(0), f"1-{i}".encode(), {b"m": encode(m)}) for i, m in enumerate(msgs)])
    await Validator(TableCache(EventStore(redis)), redis).handle(batch)
    return [decode_command(fields[b"m"]) for _, fields in await redis.xrange(stream, min=f"({last.decode()}")]


async def current(store: EventStore) -> tables.Table:
    table = (await TableCache(store).refresh([KEYS]))["g"]
    assert table is not None
    return table


async def stored_since(store: EventStore, version: int) -> list[Any]:
    return decode_all("tigris", await store.read(KEYS, version))


async def test_a_whole_game_is_decided_once_and_its_log_verifies(redis: Any) -> None:
    """Every move passes with its decision and is appended as decided; re-deciding
    every recorded command from the revealed seed reproduces the log exactly."""
    store = EventStore(redis)
    reducer = Reducer(store, TableCache(store))
    await reducer.process([open_msg("highcard", TOKENS)])
    game = registry.get("highcard")
    rng = random.Random(7)
    before = reused()
    moves = 0
    while not (table := await current(store)).over:
        seat = rng.choice(sorted(game.actors(table.state)))
        (passed,) = await validate(
            redis, [move_msg(TOKENS[seat], rng.choice(game.legal(table.state, seat)), f"m{moves}")]
        )
        assert passed.decided is not None and passed.decided.version == table.version
        (outcome,) = await reducer.process([passed])
        assert outcome.status == "accepted" and outcome.first == table.version + 1
        moves += 1
    assert reused() - before == moves
    _, verdict = verify_log(AuditLog(events=await store.read(KEYS), commands=await store.commands(KEYS)))
    assert verdict.fair, verdict.problems


def two_actions(table: tables.Table, rng: random.Random) -> tuple[int, Any, Any]:
    """A seat's two commands at this version, the second still legal after the first."""
    game = registry.get(table.game)
    (seat,) = game.actors(table.state)
    options = game.legal(table.state, seat)
    for _ in range(200):
        first, second = rng.sample(options, 2)
        after = tables.fold(game, tables.decide(game, table, seat, first), table)
        if not after.over and seat in game.actors(after.state) and second in game.legal(after.state, seat):
            return seat, first, second
    raise AssertionError("no pair of commands found")


async def test_a_table_moved_by_another_writer_is_decided_again(redis: Any) -> None:
    """The reducer's cache still shows the version the validator decided at, but
    another reducer appended meanwhile: the reused decision's append is refused
    by the expected version, and the retry decides afresh at the new version."""
    store = EventStore(redis)
    reducer, other = Reducer(store, TableCache(store)), Reducer(store, TableCache(store))
    await reducer.process([open_msg("tigris", TOKENS)])
    game = registry.get("tigris")
    table = await current(store)
    seat, first, second = two_actions(table, random.Random(1))
    await reducer.cache.refresh([KEYS])  # the reducer holds version V
    (stale,) = await validate(redis, [move_msg(TOKENS[seat], second, "late")])
    assert stale.decided is not None and stale.decided.version == table.version

    (taken,) = await other.process([move_msg(TOKENS[seat], first, "early")])  # the table moves to V'
    assert taken.status == "accepted"
    moved = await current(store)
    expected = tables.decide(game, moved, seat, second)  # decide afresh at V'
    conflicts, before = metrics.APPEND_CONFLICTS._value.get(), reused()

    (outcome,) = await reducer.process([stale])
    assert outcome.status == "accepted" and outcome.first == moved.version + 1
    assert metrics.APPEND_CONFLICTS._value.get() > conflicts, "the stale decision met the expected version"
    assert reused() == before, "and was not appended"
    assert await stored_since(store, moved.version) == expected


async def test_in_one_batch_only_the_first_command_of_a_table_reuses_its_decision(redis: Any) -> None:
    store = EventStore(redis)
    reducer = Reducer(store, TableCache(store))
    await reducer.process([open_msg("tigris", TOKENS)])
    game = registry.get("tigris")
    table = await current(store)
    seat, first, second = two_actions(table, random.Random(2))
    passed = await validate(redis, [move_msg(TOKENS[seat], first, "a"), move_msg(TOKENS[seat], second, "b")])
    assert [m.decided.version if m.decided else None for m in passed] == [table.version] * 2
    before = reused()

    outcomes = await reducer.process(passed)
    assert [o.status for o in outcomes] == ["accepted", "accepted"]
    assert reused() - before == 1, "the second met a table its first command moved on"
    after_first = tables.fold(game, tables.decide(game, table, seat, first), table)
    assert await stored_since(store, table.version) == [
        *tables.decide(game, table, seat, first),  # the random draws: the same stream either way
        *tables.decide(game, after_first, seat, second),
    ]


async def test_a_clocked_table_is_decided_by_the_reducer_at_its_own_moment(redis: Any) -> None:
    store = EventStore(redis)
    reducer = Reducer(store, TableCache(store))
    await reducer.process([open_msg("highcard", TOKENS, clock=ClockSettings(initial_ms=60_000))])
    game = registry.get("highcard")
    table = await current(store)
    (seat,) = game.actors(table.state)
    (passed,) = await validate(redis, [move_msg(TOKENS[seat], game.legal(table.state, seat)[0], "m")])
    assert passed.decided is None
    before = reused()
    (outcome,) = await reducer.process([passed])
    assert outcome.status == "accepted" and reused() == before


def test_a_forged_decision_on_the_commands_stream_is_replaced_by_the_validators() -> None:
    game = registry.get("highcard")
    hashes = tuple(token_hash(t) for t in TOKENS)
    table = tables.fold(game, tables.open_table(game, 2, {}, b"\x05" * 32, hashes, 0))
    (seat,) = game.actors(table.state)
    msg = move_msg(TOKENS[seat], game.legal(table.state, seat)[0], "m")
    honest = check_move(msg, table, False)
    assert isinstance(honest, CommandMsg) and honest.decided is not None
    # Whatever a message brings in ``decided`` is not the validator's: an empty decision here.
    forged = msgspec.structs.replace(msg, decided=msgspec.structs.replace(honest.decided, events=()))
    passed = check_move(forged, table, False)
    assert isinstance(passed, CommandMsg) and passed.decided is not None and passed.decided.events
    # Already applied: passed on without a decision (the store answers with the first outcome).
    again = check_move(forged, table, True)
    assert isinstance(again, CommandMsg) and again.decided is None


def test_a_decision_too_big_to_send_is_left_to_the_reducer() -> None:
    game = registry.get("highcard")
    codec = codec_for(game)
    hashes = tuple(token_hash(t) for t in TOKENS)
    opened = tables.open_table(game, 2, {}, b"\x05" * 32, hashes, 0)
    table = tables.fold(game, opened)
    small = _decided(table, codec, game.legal(table.state, 0)[0], opened[:1])
    assert small is not None
    many = opened * (MAX_DECIDED_BYTES // sum(len(codec.pack(e)) for e in opened) + 1)
    assert len(many) <= MAX_DECIDED_EVENTS, "too big in bytes, not in count"
    assert _decided(table, codec, game.legal(table.state, 0)[0], many) is None
