"""The services' hot path on Redis Streams: one reader loop per consumer.

Every pipeline stage (validator, reducer, projector, tournament manager)
reads its partition streams through a consumer group. A reader asks for all
of its streams in one ``XREADGROUP`` (on a cluster, where one call cannot span
slots, one loop per stream) and hands the handler a :class:`Batch`. The
handler acknowledges the batch inside the pipeline that writes its results,
so a batch costs its read plus one or two writes, whatever its size.

Nothing delivered is lost: a reader first re-reads its own pending entries
(left by a crash or a failed batch), then new ones; and it periodically
claims entries that any consumer of the group left unacknowledged for longer
than ``reclaim_idle_ms``.

Messages between services are one field, ``m``, holding the JSON body.
(FastStream still carries the control plane; on the hot path its
per-message envelope and one-stream-per-subscriber reads cost several times
what a batch of commands costs here: see docs/performance.md.)
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

import structlog
from redis.exceptions import ResponseError

from shared.infra.coalesce import Coalescer
from shared.infra.lua import is_cluster
from shared.observability import metrics

log = structlog.get_logger()
Fields = dict[bytes, bytes]
#: Transport streams keep about this many entries (they are not the source of
#: truth: the game streams are). Far more than any consumer lags behind.
TRANSPORT_MAXLEN = 1_000_000


def add(pipe: Any, stream: str, body: bytes) -> Any:
    """Queue one message for a transport stream."""
    return pipe.xadd(stream, {"m": body}, maxlen=TRANSPORT_MAXLEN, approximate=True)


async def send(coalescer: Coalescer, stream: str, body: bytes) -> None:
    """Add one message, in the next pipeline of concurrent requests."""
    await coalescer.run(lambda pipe: add(pipe, stream, body))


@dataclass
class Batch:
    """Entries read together, by stream, in the order they were read."""

    entries: list[tuple[str, bytes, Fields]] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.entries)

    def bodies(self) -> list[bytes]:
        return [fields[b"m"] for _, _, fields in self.entries]

    def ack(self, pipe: Any, group: str, only: Iterable[tuple[str, bytes]] | None = None) -> None:
        """Queue the XACKs for the whole batch (or just ``only``: (stream, id) pairs) in ``pipe``."""
        pairs = only if only is not None else ((stream, entry_id) for stream, entry_id, _ in self.entries)
        by_stream: dict[str, list[bytes]] = {}
        for stream, entry_id in pairs:
            by_stream.setdefault(stream, []).append(entry_id)
        for stream, ids in by_stream.items():
            pipe.xack(stream, group, *ids)


class BatchHandler(Protocol):
    async def handle(self, batch: Batch) -> Any: ...


@dataclass(frozen=True)
class StreamReader:
    redis: Any
    group: str
    node: str
    streams: tuple[str, ...]
    batch: int = 200
    reclaim_idle_ms: int = 5_000
    #: Where a new group starts: "0" for all history, "$" for what comes next.
    start_id: str = "0"
    block_ms: int = 500
    #: Reads at least this far apart (ms): a consumer that need not react
    #: within milliseconds lets entries gather into bigger, cheaper batches.
    pace_ms: int = 0

    async def ensure_groups(self) -> None:
        for stream in self.streams:
            try:
                await self.redis.xgroup_create(stream, self.group, id=self.start_id, mkstream=True)
            except ResponseError as exc:
                if "BUSYGROUP" not in str(exc):
                    raise

    async def run(self, handler: BatchHandler, stopping: asyncio.Event) -> None:
        await self.ensure_groups()
        if is_cluster(self.redis):
            await asyncio.gather(*(self._loop(handler, (s,), stopping) for s in self.streams))
        else:
            await self._loop(handler, self.streams, stopping)

    async def _loop(self, handler: BatchHandler, streams: tuple[str, ...], stopping: asyncio.Event) -> None:
        own_pending = True  # our own unacknowledged entries first, then new ones
        loop = asyncio.get_running_loop()
        last_claim = loop.time()
        while not stopping.is_set():
            try:
                if loop.time() - last_claim > self.reclaim_idle_ms / 2000:
                    last_claim = loop.time()
                    await self._reclaim(handler, streams)
                cursor = "0" if own_pending else ">"
                reply = await self.redis.xreadgroup(
                    self.group,
                    self.node,
                    dict.fromkeys(streams, cursor),
                    count=self.batch,
                    block=None if own_pending else self.block_ms,
                )
                batch = _batch(reply)
                if own_pending and not batch:
                    own_pending = False
                    continue
                if batch:
                    metrics.BATCH_SIZE.labels(self.group).observe(len(batch))
                    await handler.handle(batch)
                    if self.pace_ms:
                        await asyncio.sleep(self.pace_ms / 1000)
            except asyncio.CancelledError:
                raise
            except Exception:
                # The entries stay pending: re-read our own after a pause.
                metrics.ERRORS.labels(self.group, "batch").inc()
                log.exception("batch_failed", group=self.group, streams=list(streams))
                own_pending = True
                await asyncio.sleep(1)

    async def _reclaim(self, handler: BatchHandler, streams: tuple[str, ...]) -> None:
        for stream in streams:
            start: bytes | str = "0-0"
            while True:
                next_id, entries, *_ = await self.redis.xautoclaim(
                    stream,
                    self.group,
                    self.node,
                    min_idle_time=self.reclaim_idle_ms,
                    start_id=start,
                    count=self.batch,
                )
                if entries:
                    metrics.RECLAIMED.labels(self.group).inc(len(entries))
                    await handler.handle(Batch([(stream, entry_id, fields) for entry_id, fields in entries]))
                if next_id in (b"0-0", "0-0") or not entries:
                    break
                start = next_id


def _batch(reply: Any) -> Batch:
    batch = Batch()
    if not reply:
        return batch
    # redis-py answers a list of [stream, entries] under RESP2 and a dict under RESP3.
    pairs = reply.items() if isinstance(reply, dict) else reply
    for stream, entries in pairs:
        name = stream.decode() if isinstance(stream, bytes) else stream
        for entry_id, fields in entries:
            if fields:  # an entry trimmed away while pending comes back empty
                batch.entries.append((name, entry_id, fields))
    return batch
