"""The load the chaos tests put on a whole system, and what they read back.

Bots that play game after game until told to stop (so every fault lands under
load), the settings that make the stages reclaim a failed consumer's entries
quickly, and the count of entries still pending in the pipeline's groups.
"""

from __future__ import annotations

import asyncio
import random

import httpx

from shared.cli import botclient
from shared.eventstore.keys import command_stream, partition_feed, validated_stream
from shared.infra.settings import UNTHROTTLED

#: Entries a failed consumer left pending are reclaimed after 1 s; replies awaited 3 s.
FAST_RECLAIM = {
    "ZIGGURAT_RECLAIM_IDLE_MS": "1000",
    "ZIGGURAT_REPLY_TIMEOUT_S": "3",
    **UNTHROTTLED,
}


async def keep_playing(
    api: httpx.AsyncClient,
    tables: list[botclient.Table],
    stats: botclient.Stats,
    stop: asyncio.Event,
    worker: int,
) -> None:
    """Play game after game until told to stop, so every fault lands under load."""
    rng = random.Random(worker)
    while not stop.is_set():
        table = await botclient.open_table(api, "highcard", 3, {"deck_size": 60, "hand_size": 20})
        tables.append(table)
        final = await botclient.play(api, table, rng, stats, pace_s=0.01)
        assert final["over"]


async def pending_entries(redis: object, partitions: int) -> int:
    """Entries left unacknowledged in the validators', reducers' and projectors' groups."""
    total = 0
    for p in range(partitions):
        for stream, group in (
            (command_stream(p), "validator"),
            (validated_stream(p), "reducer"),
            (partition_feed(p), "projector"),
        ):
            info = await redis.xpending(stream, group)  # type: ignore[attr-defined]
            total += int(info["pending"])
    return total
