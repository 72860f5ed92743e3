"""Read a partition feed through a consumer group: the one loop the projector
and the tournament process manager share.

The feed is written by the event store's append script in the store's own
format, so it is read with plain XREADGROUP (batched) rather than through
FastStream's message envelope. A reader first re-reads its own pending
entries, then new ones, and periodically claims entries that any consumer of
the group (itself before a crash included) left unacknowledged.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Protocol

import structlog
from redis.exceptions import ResponseError

from shared.eventstore.keys import partition_feed
from shared.observability import metrics

log = structlog.get_logger()
Entries = list[tuple[bytes, dict[bytes, bytes]]]


class FeedHandler(Protocol):
    async def handle(self, partition: int, entries: Entries) -> Any: ...


@dataclass(frozen=True)
class FeedReader:
    redis: Any
    group: str
    node: str
    batch: int
    reclaim_idle_ms: int
    #: Where a new group starts: "0" for all history, "$" for what comes next.
    start_id: str = "0"

    async def ensure_group(self, partition: int) -> None:
        try:
            await self.redis.xgroup_create(
                partition_feed(partition), self.group, id=self.start_id, mkstream=True
            )
        except ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise

    async def run(self, handler: FeedHandler, partition: int, stopping: asyncio.Event) -> None:
        await self.ensure_group(partition)
        stream = partition_feed(partition)
        cursor = "0"  # our own pending entries first, then new ones
        last_claim = 0.0
        loop = asyncio.get_running_loop()
        while not stopping.is_set():
            try:
                if loop.time() - last_claim > self.reclaim_idle_ms / 2000:
                    last_claim = loop.time()
                    await self._reclaim(handler, partition)
                reply = await self.redis.xreadgroup(
                    self.group, self.node, {stream: cursor}, count=self.batch, block=500
                )
                entries = reply[0][1] if reply else []
                if cursor == "0" and not entries:
                    cursor = ">"
                    continue
                if entries:
                    await handler.handle(partition, entries)
            except asyncio.CancelledError:
                raise
            except Exception:
                # The entries stay pending: re-read our own after a pause.
                metrics.ERRORS.labels(self.group, "batch").inc()
                log.exception("feed_batch_failed", group=self.group, partition=partition)
                cursor = "0"
                await asyncio.sleep(1)

    async def _reclaim(self, handler: FeedHandler, partition: int) -> None:
        start = "0-0"
        while True:
            next_id, entries, *_ = await self.redis.xautoclaim(
                partition_feed(partition),
                self.group,
                self.node,
                min_idle_time=self.reclaim_idle_ms,
                start_id=start,
                count=self.batch,
            )
            if entries:
                await handler.handle(partition, entries)
            if next_id in (b"0-0", "0-0") or not entries:
                return
            start = next_id
