"""The event store's contract, against a real Valkey server."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import msgspec
import pytest

from shared.eventstore.envelope import CommandRecord, EventEnvelope
from shared.eventstore.keys import GameKeys, partition_of
from shared.eventstore.store import AppendRequest, EventStore
from shared.eventstore.tables import TableCache, fold_all
from shared.infra.redis_client import connect
from shared.infra.valkey_server import ValkeyServer, free_port
from shared.kernel import table as tables
from shared.kernel.codec import codec_for
from shared.kernel.playout import play
from tests.support.highcard import GAME

pytestmark = pytest.mark.integration


def envelope(game_id: str, version: int, payload: bytes = b"x", command_id: str = "c") -> EventEnvelope:
    return EventEnvelope(
        game_id=game_id,
        partition=0,
        version=version,
        event_id=f"{game_id}:{version}",
        command_id=command_id,
        correlation_id="corr",
        server_time=version,
        seat=0,
        payload=payload,
    )


def request(game_id: str, expected: int, command_id: str, n: int = 1) -> AppendRequest:
    return AppendRequest(
        keys=GameKeys(game_id, 0),
        expected=expected,
        command_id=command_id,
        command=CommandRecord(command_id=command_id, seat=0, version=expected, payload=b"cmd"),
        envelopes=[
            envelope(game_id, expected + i, f"{command_id}/{i}".encode(), command_id) for i in range(1, n + 1)
        ],
    )


async def test_appends_read_back_in_order_from_any_version(redis: Any) -> None:
    store = EventStore(redis)
    for v in range(0, 30, 3):
        outcome = await store.append(request("g", v, f"c{v}", n=3))
        assert (outcome.status, outcome.first, outcome.last) == ("appended", v + 1, v + 3)
    events = await store.read(GameKeys("g", 0))
    assert [e.version for e in events] == list(range(1, 31))
    assert [e.version for e in await store.read(GameKeys("g", 0), after=17)] == list(range(18, 31))
    assert await store.version(GameKeys("g", 0)) == 30
    feed = await redis.xrange(GameKeys("g", 0).feed)
    assert [int(f[b"v"]) for _, f in feed] == list(range(1, 31))
    assert [c.version for c in await store.commands(GameKeys("g", 0))] == list(range(0, 30, 3))


async def test_a_duplicate_command_id_returns_the_first_outcome_and_appends_nothing(redis: Any) -> None:
    store = EventStore(redis)
    first = await store.append(request("g", 0, "same", n=2))
    again = await store.append(request("g", 0, "same", n=2))
    later = await store.append(request("g", 2, "same", n=5))
    assert first.status == "appended" and (again.status, again.first, again.last) == ("duplicate", 1, 2)
    assert (later.status, later.first, later.last) == ("duplicate", 1, 2)
    assert len(await store.read(GameKeys("g", 0))) == 2
    assert await redis.xlen(GameKeys("g", 0).feed) == 2


async def test_a_stale_expected_version_is_a_conflict_and_appends_nothing(redis: Any) -> None:
    store = EventStore(redis)
    await store.append(request("g", 0, "a", n=2))
    outcome = await store.append(request("g", 1, "b"))
    assert (outcome.status, outcome.last) == ("conflict", 2)
    assert len(await store.read(GameKeys("g", 0))) == 2


async def test_of_concurrent_appenders_at_one_version_exactly_one_wins(
    redis: Any, valkey: ValkeyServer
) -> None:
    clients = [connect(valkey.url) for _ in range(8)]
    try:
        for round_ in range(10):
            outcomes = await asyncio.gather(
                *(
                    EventStore(c).append(request("race", round_, f"r{round_}-w{i}"))
                    for i, c in enumerate(clients)
                )
            )
            assert sorted(o.status for o in outcomes) == ["appended"] + ["conflict"] * 7
        assert [e.version for e in await EventStore(redis).read(GameKeys("race", 0))] == list(range(1, 11))
    finally:
        for c in clients:
            await c.aclose()


async def test_batched_appends_to_many_games_are_independent(redis: Any) -> None:
    store = EventStore(redis)
    outcomes = await store.append_many(
        [request(f"g{i}", 0, "c") for i in range(20)] + [request("g0", 0, "d")]
    )
    assert [o.status for o in outcomes] == ["appended"] * 20 + ["conflict"]
    assert [await store.version(GameKeys(f"g{i}", 0)) for i in range(20)] == [1] * 20


async def test_a_snapshot_equals_a_replay(redis: Any) -> None:
    store = EventStore(redis)
    game_id = "snap"
    events = tables.open_table(GAME, 3, {}, b"\x05" * 32, ("a", "b", "c"), 0)
    events += play(GAME, 3, b"\x05" * 32).events[len(events) - 2 :]
    codec = codec_for(GAME)
    table = None
    for version, event in enumerate(events, start=1):
        env = msgspec.structs.replace(envelope(game_id, version), payload=codec.pack(event))
        table = tables.count_move(tables.evolve(GAME, table, event), env.command_id)
        assert (
            await store.append(
                AppendRequest(
                    keys=GameKeys(game_id, 0),
                    expected=version - 1,
                    command_id="",
                    command=None,
                    envelopes=[env],
                )
            )
        ).status == "appended"
        if version == 12:
            await store.save_snapshot(GameKeys(game_id, 0), version, msgspec.msgpack.encode(table))
    snap_version, raw = await store.load_snapshot(GameKeys(game_id, 0))
    replayed = fold_all((await store.read(GameKeys(game_id, 0)))[:snap_version])
    assert msgspec.msgpack.encode(replayed) == raw
    cache = TableCache(store)
    assert (await cache.refresh([GameKeys(game_id, 0)]))[game_id] == table


def test_partitions_are_stable_and_spread() -> None:
    assert partition_of("abc", 8) == partition_of("abc", 8)
    spread = {partition_of(f"game-{i}", 8) for i in range(200)}
    assert spread == set(range(8))
    keys = GameKeys("abc", 3)
    assert all("{p3}" in k for k in (keys.events, keys.commands, keys.dedup, keys.meta, keys.feed, keys.auth))


@pytest.mark.timeout(120)
async def test_acknowledged_appends_survive_kill_9_with_appendfsync_always(tmp_path: Path) -> None:
    server = ValkeyServer(tmp_path / "crash", port=free_port(), fsync="always").start()
    acknowledged: list[tuple[str, int]] = []
    try:
        client = connect(server.url)
        store = EventStore(client)
        for batch in range(20):
            outcomes = await store.append_many([request(f"c{g}", batch, f"b{batch}") for g in range(10)])
            acknowledged += [(f"c{g}", o.last) for g, o in enumerate(outcomes) if o.status == "appended"]
        await client.aclose()
        server.kill()  # right after the last acknowledged batch
        server.start()
        client = connect(server.url)
        store = EventStore(client)
        for game_id, last in acknowledged:
            assert await store.version(GameKeys(game_id, 0)) >= last
        for g in range(10):
            assert [e.version for e in await store.read(GameKeys(f"c{g}", 0))] == list(range(1, 21))
        await client.aclose()
    finally:
        server.stop()
    assert len(acknowledged) == 200
