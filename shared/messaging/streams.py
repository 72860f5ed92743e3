"""The services' hot path on Redis Streams: one reader loop per consumer.

Every pipeline stage (validator, reducer, projector, tournament manager)
reads its partition streams through a consumer group. A reader asks for all
of its streams in one ``XREADGROUP`` (on a cluster, where one call cannot span
slots, one loop per stream) and hands the handler a :class:`Batch`. The
handler acknowledges the batch inside the pipeline that writes its results,
so a batch costs its read plus one or two writes, whatever its size.

That last write rides with the next read. A handler hands its final pipeline
(results, answers, acknowledgements) to :meth:`Batch.write`; in the reader's
own loop it is sent at once, in one request ahead of the next
``XREADGROUP``, so the server runs the writes first and then blocks for new
entries, and a batch costs one round trip fewer. Nothing that depends on
those writes is done before they are sent: whatever must be durable before
an answer (the reducer's append) is awaited earlier, on its own, and the
answers and acknowledgements are in this pipeline, after it. When a write
of that pipeline fails, the batch is not lost: its entries are still pending
(the acknowledgements ride in the same pipeline and a failed request leaves
them unsent or unanswered), the handler's ``failed`` hook undoes what it had
assumed done, and the batch is handled again with every write awaited (then
entry by entry if it fails again, as any batch that fails in its handler).

Nothing delivered is lost: a reader first re-reads its own pending entries
(left by a crash or a failed batch), then new ones; and it periodically
claims entries that any consumer of the group left unacknowledged for longer
than ``reclaim_idle_ms``.

No message can hold a stream up. When a batch fails, the reader handles its
entries one by one: the good ones go through, and the one that fails stays
pending and is tried again shortly; after ``max_deliveries`` failures it is
parked in the dead-letter stream (``shared.messaging.deadletters``) and the
handler's ``dead`` hook answers whoever waits for it. A failure to reach
Redis is not the message's fault: nothing is counted against it, and the
reader waits for the store to come back.

Messages between services are one field, ``m``, holding the JSON body.
(FastStream still carries the control plane; on the hot path its
per-message envelope and one-stream-per-subscriber reads cost several times
what a batch of commands costs here: see docs/performance.md.)
"""

from __future__ import annotations

import asyncio
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

import structlog
from redis.exceptions import ResponseError

from shared.infra.coalesce import Coalescer
from shared.infra.lua import is_cluster
from shared.infra.redis_client import UNREACHED
from shared.infra.settings import Settings
from shared.messaging import deadletters
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
class Tail:
    """A batch's last pipeline, left for the reader to send ahead of its next read."""

    pipe: Any
    #: Undoes what the handler assumed the writes did (e.g. a cache moved on), if they fail.
    failed: Callable[[], None] | None = None
    #: Reads the writes' answers: why they must be done again (after ``failed``,
    #: by handling the batch again, its writes awaited), or None if they stand.
    redo: Callable[[list[Any]], str | None] | None = None


@dataclass
class Batch:
    """Entries read together, by stream, in the order they were read."""

    entries: list[tuple[str, bytes, Fields]] = field(default_factory=list)
    #: Set by the reader's loop: the last write may go out with the next read.
    defer: bool = False
    tail: Tail | None = None

    def __len__(self) -> int:
        return len(self.entries)

    async def write(
        self,
        pipe: Any,
        failed: Callable[[], None] | None = None,
        redo: Callable[[list[Any]], str | None] | None = None,
    ) -> None:
        """Send the batch's last pipeline, which holds its acknowledgements.

        In the reader's own loop the pipeline goes out with the next read
        (one round trip for both), and ``failed`` runs if any of its writes
        fails or ``redo`` finds a reason in their answers (the batch is then
        handled again); elsewhere (a retry, a reclaim, a test) it is executed
        now and raises as usual, and ``redo`` is the caller's to apply. Call
        it last: nothing after it may rely on the writes.
        """
        if self.defer:
            self.tail = Tail(pipe, failed, redo)
            return
        await pipe.execute()

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


Entry = tuple[str, bytes, Fields]  # (stream, entry id, fields)


class BatchHandler(Protocol):
    async def handle(self, batch: Batch) -> Any: ...


class DeadHook(Protocol):
    async def dead(self, entries: list[Entry]) -> None:
        """Answer whoever waits for these parked entries (optional on a handler)."""


#: Errors that say the store (or the node serving a stream) is unreachable or
#: failing over, not that a message is bad.
TRANSIENT = UNREACHED


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
    #: A message that fails this many times is parked as a dead letter.
    max_deliveries: int = 3
    #: The pause before failed entries are tried again (and after an outage).
    retry_pause_s: float = 0.2
    outage_pause_s: float = 1.0
    _failures: dict[tuple[str, bytes], int] = field(default_factory=dict)

    @classmethod
    def configured(
        cls, redis: Any, group: str, settings: Settings, streams: Iterable[str], **tuning: Any
    ) -> StreamReader:
        """A reader with the deployment's batch size, reclaim idle time and delivery limit."""
        return cls(
            redis,
            group,
            settings.node,
            tuple(streams),
            settings.batch,
            settings.reclaim_idle_ms,
            max_deliveries=settings.max_deliveries,
            **tuning,
        )

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
            # One loop per stream, ended together: a loop that failed ends the
            # run (its service starts it again) rather than leave its stream
            # unread behind loops that go on.
            async with asyncio.TaskGroup() as loops:
                for stream in self.streams:
                    loops.create_task(self._loop(handler, (stream,), stopping))
        else:
            await self._loop(handler, self.streams, stopping)

    async def _loop(self, handler: BatchHandler, streams: tuple[str, ...], stopping: asyncio.Event) -> None:
        own_pending = True  # our own unacknowledged entries first, then new ones
        loop = asyncio.get_running_loop()
        last_claim = loop.time()
        # A cluster cannot pipeline keys of different slots with the read.
        defer = not is_cluster(self.redis)
        held: Batch | None = None  # the batch whose last write goes out with the next read
        batch_size = metrics.BATCH_SIZE.labels(self.group)
        while not stopping.is_set():
            try:
                if loop.time() - last_claim > self.reclaim_idle_ms / 2000:
                    if held is not None:
                        await self._settle(handler, held, await self._send(held))
                        held = None
                    last_claim = loop.time()
                    await self._reclaim(handler, streams)
                cursor = "0" if own_pending else ">"
                pipe = held.tail.pipe if held is not None and held.tail is not None else None
                if pipe is None:
                    pipe = self.redis.pipeline(transaction=False)
                pipe.xreadgroup(
                    self.group,
                    self.node,
                    dict.fromkeys(streams, cursor),
                    count=self.batch,
                    block=None if own_pending else self.block_ms,
                )
                replies = await pipe.execute(raise_on_error=False)
                if held is not None:
                    writes_ok = await self._settle(handler, held, replies[:-1])
                    held = None
                    if not writes_ok:
                        own_pending = True  # failed entries are still ours, pending
                        await asyncio.sleep(self.retry_pause_s)
                reply = replies[-1]
                if isinstance(reply, Exception):
                    raise reply
                batch, trimmed = _batch(reply)
                if trimmed:
                    await self._ack(trimmed)
                if cursor == "0" and not batch:
                    # Our own pending entries are all re-read. (Not merely "own_pending":
                    # a held write that failed just now set it, for entries this read of
                    # new ones cannot have brought.)
                    own_pending = False
                    continue
                if batch:
                    batch_size.observe(len(batch))
                    batch.defer = defer
                    if not await self._deliver(handler, batch):
                        own_pending = True  # failed entries are still ours, pending
                        await asyncio.sleep(self.retry_pause_s)
                    elif self.pace_ms:  # a paced reader's writes must not wait for its pause
                        if batch.tail is not None:
                            await self._settle(handler, batch, await self._send(batch))
                        await asyncio.sleep(self.pace_ms / 1000)
                    elif batch.tail is not None:
                        held = batch
            except asyncio.CancelledError:
                raise
            except Exception:
                # Redis unreachable (or the read itself failed): entries stay
                # pending, nothing is counted against them; re-read our own.
                # A held write whose request failed is in the same state: its
                # acknowledgements may not have landed, and the entries they
                # cover come back with our own pending ones. Its writes may not
                # have landed either, so what the handler assumed of them is
                # undone (a projector that kept its fold would take the
                # redelivered events for repeats and never write their models).
                if held is not None:
                    _undo(held)
                held = None
                metrics.ERRORS.labels(self.group, "read").inc()
                log.exception("read_failed", group=self.group, streams=list(streams))
                own_pending = True
                await asyncio.sleep(self.outage_pause_s)
        if held is not None:  # stopping: the last batch's write goes out on its own
            await self._settle(handler, held, await self._send(held))

    async def _send(self, held: Batch) -> list[Any]:
        assert held.tail is not None
        result: list[Any] = await held.tail.pipe.execute(raise_on_error=False)
        return result

    async def _settle(self, handler: BatchHandler, held: Batch, replies: list[Any]) -> bool:
        """Check a held batch's writes; if one failed, handle the batch again, its writes awaited."""
        # A transaction's EXEC answers with its commands' replies: an error may be inside.
        flat = (r for reply in replies for r in (reply if isinstance(reply, list) else (reply,)))
        failure = next((r for r in flat if isinstance(r, Exception)), None)
        redo = held.tail.redo if failure is None and held.tail is not None else None
        reason = redo(replies) if redo is not None else None
        if failure is None and reason is None:
            held.tail, held.defer = None, False
            return True
        _undo(held)
        if isinstance(failure, TRANSIENT):
            raise failure
        if reason is not None:
            log.warning("batch_redone", group=self.group, size=len(held), reason=reason)
        else:
            metrics.ERRORS.labels(self.group, "batch").inc()
            log.warning("batch_write_failed", group=self.group, size=len(held), error=str(failure))
        # Whole first (a script the server lost is loaded again on the way, and
        # the batch's games move in one step as before), then entry by entry.
        return await self._deliver(handler, held)

    async def _deliver(self, handler: BatchHandler, batch: Batch) -> bool:
        """Handle a batch, isolating any entry that fails; True if all went through."""
        try:
            await handler.handle(batch)
            self._forget(batch.entries)
            return True
        except asyncio.CancelledError:
            raise
        except TRANSIENT:
            raise
        except Exception:
            _undo(batch)  # a write it may have held is not sent: what it assumed is undone
            if len(batch) == 1:
                await self._failed(handler, batch.entries[0])
                return False
            metrics.ERRORS.labels(self.group, "batch").inc()
            log.warning("batch_failed_isolating", group=self.group, size=len(batch), exc_info=True)
        return await self._isolate(handler, batch)

    async def _isolate(self, handler: BatchHandler, batch: Batch) -> bool:
        """Handle each entry alone, its writes awaited; True if all went through."""
        ok = True
        for entry in batch.entries:
            try:
                await handler.handle(Batch([entry]))
                self._forget([entry])
            except asyncio.CancelledError:
                raise
            except TRANSIENT:
                raise
            except Exception:
                await self._failed(handler, entry)
                ok = False
        return ok

    async def _failed(self, handler: BatchHandler, entry: Entry) -> None:
        """Count a failure against one entry; park it once it has failed enough."""
        stream, entry_id, fields = entry
        metrics.ERRORS.labels(self.group, "message").inc()
        key = (stream, entry_id)
        failures = self._failures.get(key, 0) + 1
        # After a restart our own count starts again; the server's delivery
        # count remembers earlier attempts.
        failures = max(failures, await self._delivered(stream, entry_id))
        self._failures[key] = failures
        log.exception(
            "message_failed", group=self.group, stream=stream, entry=entry_id.decode(), failures=failures
        )
        if failures < self.max_deliveries:
            return
        error = traceback.format_exc(limit=8)
        parked = await deadletters.park(self.redis, self.group, stream, self.group, entry_id, fields, error)
        self._failures.pop(key, None)
        if not parked:
            return  # another consumer of the group parked it first
        log.error("dead_lettered", group=self.group, stream=stream, entry=entry_id.decode())
        hook = getattr(handler, "dead", None)
        if hook is not None:
            try:
                await hook([entry])
            except Exception:
                log.exception("dead_letter_hook_failed", group=self.group)

    async def _delivered(self, stream: str, entry_id: bytes) -> int:
        rows = await self.redis.xpending_range(stream, self.group, min=entry_id, max=entry_id, count=1)
        return int(rows[0]["times_delivered"]) if rows else 0

    def _forget(self, entries: list[Entry]) -> None:
        if self._failures:
            for stream, entry_id, _ in entries:
                self._failures.pop((stream, entry_id), None)

    async def _ack(self, pairs: list[tuple[str, bytes]]) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            Batch().ack(pipe, self.group, only=pairs)
            await pipe.execute()

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
                live = [(stream, entry_id, fields) for entry_id, fields in entries if fields]
                if live:
                    metrics.RECLAIMED.labels(self.group).inc(len(live))
                    await self._deliver(handler, Batch(live))
                if next_id in (b"0-0", "0-0") or not entries:
                    break
                start = next_id


def _undo(held: Batch) -> None:
    """Drop a held batch's write, running its handler's hook for a write that may not have landed."""
    tail = held.tail
    held.tail, held.defer = None, False
    if tail is not None and tail.failed is not None:
        tail.failed()


def _batch(reply: Any) -> tuple[Batch, list[tuple[str, bytes]]]:
    """The entries read, and those trimmed away while pending (to acknowledge)."""
    batch = Batch()
    trimmed: list[tuple[str, bytes]] = []
    if not reply:
        return batch, trimmed
    # redis-py answers a list of [stream, entries] under RESP2 and a dict under RESP3.
    pairs = reply.items() if isinstance(reply, dict) else reply
    for stream, entries in pairs:
        name = stream.decode() if isinstance(stream, bytes) else stream
        for entry_id, fields in entries:
            if fields:
                batch.entries.append((name, entry_id, fields))
            else:  # trimmed away while pending: nothing left to handle
                trimmed.append((name, entry_id))
    return batch, trimmed
