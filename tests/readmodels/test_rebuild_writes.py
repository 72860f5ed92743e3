"""`ziggurat rebuild --write` as plain commands over the thin client (one
MULTI ... EXEC per group, checkpoints watched; the feeds staged ahead of it or
appended in it) leaves, key for key, what the projector's script leaves, and
no staging key; a projector's write between the read and the write makes the
group try again; a staged feed gone before EXEC makes it try again, never
moving a short feed over; a pool of processes writes the same; a command the
server refuses is an error, not a silent success."""

from __future__ import annotations

import gc
from typing import Any

import pytest
import redis.asyncio as aioredis
from redis.exceptions import ResponseError

from shared.eventstore.envelope import EventEnvelope
from shared.eventstore.keys import GameKeys, live_tables, partition_of
from shared.eventstore.store import AppendRequest, EventStore
from shared.infra.valkey_server import ValkeyServer
from shared.kernel import table as tables
from shared.kernel.codec import codec_for
from shared.kernel.playout import play
from shared.readmodels import rebuilder
from shared.readmodels.build import HISTORY, audience_name
from shared.readmodels.rebuild import models_from_log
from tests.support.highcard import GAME

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]
PARTITIONS = 4
SEATS = 3
LONG = {"deck_size": 60, "hand_size": 15}


async def _write_game(store: EventStore, keys: GameKeys, seed: bytes, cut: int | None) -> None:
    """A game of the fixture game, finished, or cut after ``cut`` events (still live)."""
    events = tables.open_table(GAME, SEATS, LONG, seed, ("a", "b", "c"), 0)
    events += play(GAME, SEATS, seed, options=LONG).events[len(events) - 2 :]
    codec = codec_for(GAME)
    envelopes = [
        EventEnvelope(
            game_id=keys.game_id,
            partition=keys.partition,
            version=version,
            event_id=f"{keys.game_id}:{version}",
            command_id=f"c{version // 2}",  # two events per command: moves are counted
            correlation_id="corr",
            server_time=1_000 + version,
            seat=0,
            payload=codec.pack(event),
        )
        for version, event in enumerate(events[:cut], start=1)
    ]
    request = AppendRequest(keys=keys, expected=0, command_id="", command=None, envelopes=envelopes)
    assert (await store.append(request)).status == "appended"


async def _games(redis: Any, n: int = 12) -> list[GameKeys]:
    store = EventStore(redis)
    keys = [GameKeys(f"game-{i}", partition_of(f"game-{i}", PARTITIONS)) for i in range(n)]
    for i, k in enumerate(keys):
        await _write_game(store, k, bytes([i + 1]) * 32, cut=None if i % 3 else 9 + i)
    return keys


async def _stored(redis: Any, keys: list[GameKeys]) -> dict[str, Any]:
    """Every key a rebuild writes, as stored: views, feeds with their ids,
    checkpoints, the live sets; and the history feed, which it leaves alone."""
    out: dict[str, Any] = {}
    for k in keys:
        out[f"{k.game_id}:checkpoint"] = await redis.get(k.checkpoint)
        for name in [*(audience_name(a) for a in [None, *range(SEATS)]), HISTORY]:
            out[f"{k.game_id}:view:{name}"] = await redis.get(k.view(name))
            out[f"{k.game_id}:feed:{name}"] = await redis.xrange(k.audience_feed(name))
    for p in range(PARTITIONS):
        out[f"live:{p}"] = sorted(await redis.smembers(live_tables(p, GAME.key)))
    return out


def _script_client(valkey: ValkeyServer) -> Any:
    """redis-py without the thin client: the rebuild writes through the projector's script."""
    return aioredis.Redis.from_url(valkey.url)


async def _by_script(valkey: ValkeyServer, keys: list[GameKeys]) -> dict[str, Any]:
    client = _script_client(valkey)
    try:
        assert await rebuilder.rebuild_games(client, keys, True) == []
        return await _stored(client, keys)
    finally:
        await client.aclose()


async def _leftovers(redis: Any, keys: list[GameKeys]) -> list[Any]:
    """Staging keys still there, and feeds that kept a staging's expiry."""
    names = [*(audience_name(a) for a in [None, *range(SEATS)]), HISTORY]
    feeds = [k.audience_feed(n) for k in keys for n in names]
    return [*await redis.keys("*rebuild:*"), *[f for f in feeds if await redis.pttl(f) >= 0]]


@pytest.mark.parametrize(
    ("staged", "least"),
    [(True, rebuilder.STAGED_LEAST), (True, 0), (False, 0)],
    ids=["long-feeds-staged", "all-staged", "appended-in-multi"],
)
async def test_plain_writes_store_what_the_script_stores(
    redis: Any, valkey: ValkeyServer, monkeypatch: pytest.MonkeyPatch, staged: bool, least: int
) -> None:
    keys = await _games(redis)
    assert rebuilder._Rebuilder(redis, models_from_log).wire is not None
    # Several groups per partition, and the script's chunks inside every game.
    monkeypatch.setattr(rebuilder, "GROUP_EVENTS", 40)
    monkeypatch.setattr(rebuilder, "CHUNK_VERSIONS", 7)
    monkeypatch.setattr(rebuilder, "STAGED_LEAST", least)
    expected = await _by_script(valkey, keys)
    assert sum(1 for v in expected.values() if v) > 5 * len(keys)
    assert expected["live:0"] or expected["live:1"] or expected["live:2"] or expected["live:3"]
    for k in keys:  # drift of every kind, and one stale live entry
        await redis.xadd(k.audience_feed("seat1"), {"e": b"stale"}, id="0-999999")
        await redis.set(k.view("spectator"), b"{}")
        await redis.set(k.checkpoint, 1)
    await redis.sadd(live_tables(keys[1].partition, GAME.key), keys[1].game_id)
    assert await rebuilder.rebuild_games(redis, keys, False) != []
    assert await rebuilder.rebuild_games(redis, keys, True, staged=staged) == []
    assert await _stored(redis, keys) == expected
    assert await rebuilder.rebuild_games(redis, keys, False) == []
    assert await _leftovers(redis, keys) == []


async def test_a_projector_write_between_read_and_write_makes_the_group_try_again(
    redis: Any, valkey: ValkeyServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    keys = await _games(redis, 4)
    expected = await _by_script(valkey, keys)
    await redis.delete(*(k.checkpoint for k in keys))
    read = rebuilder._Rebuilder.read
    reads = 0

    async def projected_meanwhile(self: rebuilder._Rebuilder, group: Any) -> Any:
        nonlocal reads
        reads += 1
        out = await read(self, group)
        if reads == 1:
            # What the projector's write does first: the checkpoint moves.
            await redis.set(group[0].checkpoint, 10**6)
            await redis.set(group[0].view("seat0"), b"projected")
        return out

    monkeypatch.setattr(rebuilder._Rebuilder, "read", projected_meanwhile)
    assert await rebuilder.rebuild_games(redis, keys, True) == []
    assert reads >= 2  # the first attempt wrote nothing; the retry read afresh
    assert await _stored(redis, keys) == expected
    assert await _leftovers(redis, keys) == []  # the given-up attempt's staging too


async def test_a_staged_feed_gone_before_exec_moves_nothing_over(
    redis: Any, valkey: ValkeyServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    keys = await _games(redis, 4)
    expected = await _by_script(valkey, keys)
    for k in keys:
        await redis.set(k.view("spectator"), b"{}")
    before = await _stored(redis, keys)
    # Expired at once: as if evicted, or expired, between the staging and EXEC.
    monkeypatch.setattr(rebuilder, "STAGED_MS", 0)
    monkeypatch.setattr(rebuilder, "STAGED_LEAST", 0)  # every feed staged
    assert sorted(await rebuilder.rebuild_games(redis, keys, True)) == sorted(k.game_id for k in keys)
    assert await _stored(redis, keys) == before != expected  # nothing half-written
    assert await _leftovers(redis, keys) == []
    monkeypatch.setattr(rebuilder, "STAGED_MS", 600_000)
    assert await rebuilder.rebuild_games(redis, keys, True) == []
    assert await _stored(redis, keys) == expected


async def test_a_pool_of_processes_writes_the_same(
    redis: Any, valkey: ValkeyServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    keys = await _games(redis)
    expected = await _by_script(valkey, keys)
    await redis.delete(*(k.checkpoint for k in keys), *(k.audience_feed("spectator") for k in keys))
    monkeypatch.setattr(rebuilder, "GROUP_EVENTS", 40)
    monkeypatch.setattr(rebuilder, "POOL_EVENTS", 0)
    advanced: list[int] = []
    assert await rebuilder.rebuild_games(redis, keys, True, advanced.append, workers=2) == []
    assert sum(advanced) == len(keys) and len(advanced) > 2
    assert await _stored(redis, keys) == expected


async def test_a_refused_command_is_an_error(redis: Any) -> None:
    keys = await _games(redis, 3)
    await redis.set(live_tables(keys[1].partition, GAME.key), b"not a set")
    with pytest.raises(ResponseError, match="WRONGTYPE"):
        await rebuilder.rebuild_games(redis, keys, True)


async def test_the_cycle_collector_is_left_as_it_was(redis: Any) -> None:
    """The rebuild pauses the collector while it builds; the process's setting survives it."""
    keys = await _games(redis, 3)
    assert gc.isenabled()
    assert await rebuilder.rebuild_games(redis, keys, True) == []
    assert gc.isenabled()
    gc.disable()
    try:
        assert await rebuilder.rebuild_games(redis, keys, True) == []
        assert not gc.isenabled()
    finally:
        gc.enable()


async def test_a_staged_feed_short_of_entries_is_an_error(
    redis: Any, valkey: ValkeyServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Appends refused while staging (their answers are off) are found by the
    staged key's length, raised, and nothing is moved over a feed."""
    keys = await _games(redis, 3)
    await _by_script(valkey, keys)
    before = await _stored(redis, keys)
    add = rebuilder.Staging.add

    def one_refused(self: rebuilder.Staging, key: bytes, appends: bytes, count: int) -> None:
        # The feed's appends less the last: what the server leaves when it refuses one.
        add(self, key, appends[: appends.rindex(b"*5\r\n$4\r\nXADD\r\n")], count)

    monkeypatch.setattr(rebuilder.Staging, "add", one_refused)
    monkeypatch.setattr(rebuilder, "STAGED_LEAST", 0)  # every feed staged
    with pytest.raises(ResponseError, match="refused appends"):
        await rebuilder.rebuild_games(redis, keys, True)
    assert await _stored(redis, keys) == before
    assert await _leftovers(redis, keys) == []
