"""The projector decodes each event once, for the fold and the feeds together,
and falls back to the store's events whenever a batch does not hold them all:
whatever the batches, the read models are byte for byte the same.
"""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
import pytest

from services.projector.handlers import GROUP, Projector
from shared.eventstore.keys import GameKeys, partition_feed
from shared.eventstore.store import EventStore
from shared.eventstore.tables import TableCache
from shared.infra.redis_client import connect
from shared.infra.valkey_cluster import ValkeyCluster
from shared.messaging.streams import Batch
from shared.observability import metrics
from tests.support.played_table import KEYS, forget_read_models, play, read_models

pytestmark = pytest.mark.integration


async def project(
    redis: Any, store: EventStore, entries: list[Any], order: list[list[int]]
) -> dict[str, Any]:
    """One fresh projector, handed the feed's entries in the batches ``order`` names."""
    projector = Projector(TableCache(store), redis)
    for indices in order:
        await projector.handle(Batch([entries[i] for i in indices]))
    return await read_models(redis)


async def test_batches_in_order_with_gaps_and_repeats_give_the_same_read_models(redis: Any) -> None:
    store = EventStore(redis)
    await play(store, 30)
    feed = partition_feed(0)
    await redis.xgroup_create(feed, GROUP, id="0")
    reply = await redis.xreadgroup(GROUP, "p", {feed: ">"})
    entries = [(feed, entry_id, fields) for entry_id, fields in reply[0][1]]
    n = len(entries)
    assert n > 40

    whole = await project(redis, store, entries, [list(range(n))])
    await forget_read_models(redis)
    small = await project(redis, store, entries, [list(range(i, min(i + 3, n))) for i in range(0, n, 3)])
    assert small == whole
    await forget_read_models(redis)
    # A gap (the middle read from the store), then the entries it skipped, then
    # the rest with some of them again.
    gaps = [list(range(10)), list(range(20, 30)), list(range(10, 20)), list(range(25, n))]
    assert await project(redis, store, entries, gaps) == whole
    await forget_read_models(redis)
    # A cold projector whose first batch starts mid-stream.
    assert await project(redis, store, entries, [list(range(15, n)), list(range(15))]) == whole
    views = msgspec.json.decode(whole["view:spectator"])
    assert views["version"] == n


async def test_read_models_a_failover_lost_are_written_again_when_their_entries_come_back(
    redis: Any,
) -> None:
    """A failover loses the read models the projector wrote for its last batch
    (the write reached a primary that stopped before its replica had it) but not
    the entries' delivery: they come back, at versions the projector's fold
    already holds. They must not pass for repeats: the models are checked and
    written again, or the views stay a version behind the store for good."""
    store = EventStore(redis)
    await play(store, 12)
    feed = partition_feed(0)
    await redis.xgroup_create(feed, GROUP, id="0")
    reply = await redis.xreadgroup(GROUP, "p", {feed: ">"})
    entries = [(feed, entry_id, fields) for entry_id, fields in reply[0][1]]
    projector = Projector(TableCache(store), redis)
    await projector.handle(Batch(entries))
    whole = await read_models(redis)
    last = msgspec.json.decode(whole["view:spectator"])["version"]
    # The last move's models as the successor holds them: one version behind.
    await forget_read_models(redis)
    await project(redis, store, entries, [list(range(len(entries) - 1))])
    assert msgspec.json.decode((await read_models(redis))["view:spectator"])["version"] == last - 1
    # The retry's entry reaches the projector that had folded (and written) it.
    await projector.handle(Batch(entries[-1:]))
    assert await read_models(redis) == whole, "the views show what the store holds"
    assert int(await redis.get(KEYS.checkpoint)) == last


async def test_read_models_a_failover_lost_are_written_again_when_the_next_entry_follows(
    redis: Any,
) -> None:
    """A failover loses the read models (and the acknowledgement) of the
    projector's last batch, and the next move's entry arrives first: it follows
    the projector's fold, so it is no repeat. Written over the stored models as
    they are, the views would be right and every feed would lack the lost
    versions for good. The write finds the models behind and writes them from
    the log instead."""
    await _lost_then_followed(redis)


async def test_on_a_cluster_read_models_found_behind_are_written_again(one_shard: ValkeyCluster) -> None:
    """The same on a cluster, where each game's script is a call of its own."""
    client = connect(one_shard.url, cluster=True)
    try:
        await _lost_then_followed(client)
    finally:
        await client.aclose()


async def _lost_then_followed(redis: Any) -> None:
    store = EventStore(redis)
    await play(store, 12)
    entries = await feed_entries(redis)
    projector = Projector(TableCache(store), redis)
    await projector.handle(Batch(entries[:-1]))
    # The successor holds the models as they were one batch earlier.
    await forget_read_models(redis)
    await project(redis, store, entries, [list(range(len(entries) - 2))])
    behind = metrics.READ_MODELS_BEHIND._value.get()
    await projector.handle(Batch(entries[-1:]))
    assert metrics.READ_MODELS_BEHIND._value.get() == behind + 1
    got = await read_models(redis)
    await forget_read_models(redis)
    assert got == await project(redis, store, entries, [list(range(len(entries)))]), (
        "every feed holds every version the store holds"
    )
    pending = (await redis.xpending(partition_feed(0), GROUP))["pending"]
    assert pending == 0, "the entry is acknowledged once its models are written"


async def feed_entries(redis: Any, partition: int = 0) -> list[Any]:
    """The partition feed's entries, read through the projector's group."""
    feed = partition_feed(partition)
    await redis.xgroup_create(feed, GROUP, id="0")
    reply = await redis.xreadgroup(GROUP, "p", {feed: ">"})
    return [(feed, entry_id, fields) for entry_id, fields in reply[0][1]]


async def test_two_partitions_write_again_at_once_each_its_own_games(redis: Any) -> None:
    """On a cluster the projector reads each partition's feed in a loop of its own,
    all at once. A failover loses the models of a game in each of two partitions,
    and both loops find theirs behind at the same moment: each writes its own
    game again, neither fails on the other's (a shared list of games to write
    again made one loop's batch fail until it was dead-lettered, and its game's
    views stopped for good: a stalled partition in the chaos test)."""
    store = EventStore(redis)
    games = [KEYS, GameKeys("h", 1)]
    for keys in games:
        await play(store, 12, keys=keys)
    entries = [await feed_entries(redis, keys.partition) for keys in games]
    projector = Projector(TableCache(store), redis)
    for each in entries:
        await projector.handle(Batch(each[:-1]))
    for keys, each in zip(games, entries, strict=True):  # the successor's models: one batch earlier
        await forget_read_models(redis, keys)
        await project(redis, store, each, [list(range(len(each) - 2))])
    behind = metrics.READ_MODELS_BEHIND._value.get()
    await asyncio.gather(*(projector.handle(Batch(each[-1:])) for each in entries))
    assert metrics.READ_MODELS_BEHIND._value.get() == behind + 2
    got = [await read_models(redis, keys) for keys in games]
    for keys in games:
        await forget_read_models(redis, keys)
    for keys, each, models in zip(games, entries, got, strict=True):
        await project(redis, store, each, [list(range(len(each)))])
        assert models == await read_models(redis, keys), f"{keys.game_id}: every feed holds every version"
        pending = (await redis.xpending(partition_feed(keys.partition), GROUP))["pending"]
        assert pending == 0, f"{keys.game_id}: the entry is acknowledged once its models are written"
