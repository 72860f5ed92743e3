"""Which games there are, by opening time: one sorted set per partition.

A table's entry lives on its partition's node, beside its streams, so opening a
table asks only that node: a failover elsewhere in the cluster stops no opening.
Listings merge the partitions' sets, newest first.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import AsyncIterator, Sequence
from typing import Any

from shared.eventstore.keys import LEGACY_GAMES_INDEX, GameKeys, games_index, partition_of


async def index(redis: Any, keys: GameKeys, opened_at_ms: int) -> None:
    await redis.zadd(games_index(keys.partition), {keys.game_id: opened_at_ms})


async def opened_at(redis: Any, games: Sequence[GameKeys]) -> list[float | None]:
    """Each game's opening time (ms), None for one not indexed."""
    if not games:
        return []
    async with redis.pipeline(transaction=False) as pipe:
        for keys in games:
            pipe.zscore(games_index(keys.partition), keys.game_id)
        return [None if score is None else float(score) for score in await pipe.execute()]


async def every_game(redis: Any, partitions: int) -> list[GameKeys]:
    async with redis.pipeline(transaction=False) as pipe:
        for p in range(partitions):
            pipe.zrange(games_index(p), 0, -1)
        members = await pipe.execute()
    return [GameKeys(m.decode(), p) for p, rows in enumerate(members) for m in rows]


async def count(redis: Any, partitions: int) -> int:
    async with redis.pipeline(transaction=False) as pipe:
        for p in range(partitions):
            pipe.zcard(games_index(p))
        return sum(int(n) for n in await pipe.execute())


async def newest(redis: Any, partitions: int, page: int) -> AsyncIterator[list[tuple[GameKeys, float]]]:
    """Every game, newest first, ``page`` at a time: each partition is read a page
    past what it has given so far, and the merge keeps only the overall newest, so
    no partition is read further than the listing goes."""
    given = [0] * partitions
    while True:
        async with redis.pipeline(transaction=False) as pipe:
            for p in range(partitions):
                pipe.zrevrange(games_index(p), given[p], given[p] + page - 1, withscores=True)
            rows = await pipe.execute()
        merged = heapq.merge(*(_newest_first(p, part) for p, part in enumerate(rows)))
        taken = [(GameKeys(game_id, p), -negated) for negated, p, game_id in itertools.islice(merged, page)]
        if not taken:
            return
        for keys, _ in taken:
            given[keys.partition] += 1
        yield taken


def _newest_first(partition: int, rows: list[tuple[bytes, float]]) -> list[tuple[float, int, str]]:
    """A partition's page in the merge's order (ties by partition, then id)."""
    return [(-score, partition, member.decode()) for member, score in rows]


async def adopt_legacy(redis: Any, partitions: int) -> int:
    """Spread a store's single index of old (``partition:game_id`` members) over the
    partitions' sets, then drop it; how many games it held (0 once done: cheap)."""
    rows = await redis.zrange(LEGACY_GAMES_INDEX, 0, -1, withscores=True)
    for member, score in rows:
        _, game_id = member.decode().split(":", 1)
        # The partition is recomputed: the old member's would be wrong if the count changed.
        await redis.zadd(games_index(partition_of(game_id, partitions)), {game_id: score}, nx=True)
    if rows:
        await redis.delete(LEGACY_GAMES_INDEX)
    return len(rows)
