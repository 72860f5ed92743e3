"""The games index (shared/eventstore/game_index.py): one sorted set per partition,
merged newest first for the lobby's listings; a store's single index of old is
spread over them; and indexing a table needs only its own partition's node."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from redis.crc import key_slot

from shared.eventstore import game_index
from shared.eventstore.keys import LEGACY_GAMES_INDEX, GameKeys, games_index, partition_of
from shared.infra.redis_client import connect
from shared.infra.valkey_cluster import start_cluster

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]
PARTITIONS = 4


async def _indexed(redis: Any, n: int, rng: random.Random) -> list[tuple[GameKeys, float]]:
    games = []
    for i in range(n):
        keys = GameKeys(f"g{i}", partition_of(f"g{i}", PARTITIONS))
        at = rng.randrange(1_000_000)
        await game_index.index(redis, keys, at)
        games.append((keys, float(at)))
    return games


async def test_listing_merges_the_partitions_newest_first_page_by_page(redis: Any) -> None:
    games = await _indexed(redis, 60, random.Random(7))
    pages = [page async for page in game_index.newest(redis, PARTITIONS, 7)]
    listed = [(k.game_id, k.partition, at) for page in pages for k, at in page]
    expected = sorted(((k.game_id, k.partition, at) for k, at in games), key=lambda g: -g[2])
    assert [at for *_, at in listed] == [at for *_, at in expected]
    assert sorted(listed) == sorted(expected), "every game once, with its own partition"
    assert [len(p) for p in pages] == [7] * 8 + [4]
    assert await game_index.count(redis, PARTITIONS) == 60
    assert sorted(k.game_id for k in await game_index.every_game(redis, PARTITIONS)) == sorted(
        k.game_id for k, _ in games
    )
    some = [games[3][0], GameKeys("never-opened", 1)]
    assert await game_index.opened_at(redis, some) == [games[3][1], None]


async def test_a_listing_that_stops_reads_no_further(redis: Any) -> None:
    await _indexed(redis, 40, random.Random(1))
    listing = game_index.newest(redis, PARTITIONS, 5)
    first = await anext(listing)
    await listing.aclose()
    assert len(first) == 5
    newest = max([await redis.zrevrange(games_index(p), 0, 0, withscores=True) for p in range(PARTITIONS)])
    assert first[0][1] == newest[0][1]


async def test_the_single_index_of_old_is_spread_over_the_partitions(redis: Any) -> None:
    # Old members are "<partition>:<game id>" under whatever partition count was then.
    await redis.zadd(LEGACY_GAMES_INDEX, {"0:a": 5, "1:b": 9, "0:c": 1})
    assert await game_index.adopt_legacy(redis, PARTITIONS) == 3
    assert not await redis.exists(LEGACY_GAMES_INDEX)
    listed = [
        (k.game_id, k.partition, at)
        async for page in game_index.newest(redis, PARTITIONS, 10)
        for k, at in page
    ]
    assert listed == [(g, partition_of(g, PARTITIONS), at) for g, at in [("b", 9.0), ("a", 5.0), ("c", 1.0)]]
    assert await game_index.adopt_legacy(redis, PARTITIONS) == 0


async def test_indexing_a_table_needs_only_its_own_partitions_node(tmp_path: Path) -> None:
    """With one node of three gone (no replica to take over), every partition on the
    live nodes still indexes its tables: one index for all once stopped every opening."""
    store = start_cluster(tmp_path, masters=3, replicas=0)
    redis = connect(store.url, cluster=True)
    try:
        victim = store.primaries()[1]
        (shard,) = [s for s in store.shards() if s.primary.port == victim.port]
        store.kill(victim)
        live = [p for p in range(PARTITIONS * 4) if not shard.owns(key_slot(games_index(p).encode()))]
        assert live, "some partition lives on another node"
        for p in live:
            await game_index.index(redis, GameKeys(f"t{p}", p), p)
        for p in live:
            assert await redis.zscore(games_index(p), f"t{p}") == p
    finally:
        await redis.aclose()
        store.stop()
