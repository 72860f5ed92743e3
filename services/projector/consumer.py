"""Read partition feeds through the ``projector`` consumer group.

The feed is written by the event store's append script in the store's own
format, so the projector reads it with plain XREADGROUP (batched) rather than
through FastStream's message envelope. On start it first re-reads its own
pending entries, and it periodically claims entries other projectors left
unacknowledged.
"""

from __future__ import annotations

import asyncio
from typing import Any

import structlog
from redis.exceptions import ResponseError

from services.projector.handlers import GROUP, Projector
from shared.eventstore.keys import partition_feed
from shared.observability import metrics

log = structlog.get_logger()


async def ensure_group(redis: Any, partition: int) -> None:
    try:
        await redis.xgroup_create(partition_feed(partition), GROUP, id="0", mkstream=True)
    except ResponseError as exc:
        if "BUSYGROUP" not in str(exc):
            raise


async def consume_partition(
    projector: Projector,
    redis: Any,
    partition: int,
    node: str,
    batch: int,
    reclaim_idle_ms: int,
    stopping: asyncio.Event,
) -> None:
    stream = partition_feed(partition)
    await ensure_group(redis, partition)
    cursor = "0"  # first our own pending entries, then new ones
    last_claim = 0.0
    loop = asyncio.get_running_loop()
    while not stopping.is_set():
        try:
            if loop.time() - last_claim > reclaim_idle_ms / 2000:
                last_claim = loop.time()
                await _reclaim(projector, redis, partition, node, batch, reclaim_idle_ms)
            reply = await redis.xreadgroup(GROUP, node, {stream: cursor}, count=batch, block=500)
            entries = reply[0][1] if reply else []
            if cursor == "0" and not entries:
                cursor = ">"
                continue
            if entries:
                await projector.handle(partition, entries)
        except asyncio.CancelledError:
            raise
        except Exception:
            metrics.ERRORS.labels("projector", "batch").inc()
            log.exception("projection_failed", partition=partition)
            await asyncio.sleep(1)  # entries stay pending and are retried


async def _reclaim(
    projector: Projector, redis: Any, partition: int, node: str, batch: int, idle_ms: int
) -> None:
    start = "0-0"
    while True:
        next_id, entries, *_ = await redis.xautoclaim(
            partition_feed(partition), GROUP, node, min_idle_time=idle_ms, start_id=start, count=batch
        )
        if entries:
            await projector.handle(partition, entries)
        if next_id in (b"0-0", "0-0") or not entries:
            return
        start = next_id
