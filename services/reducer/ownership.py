"""The reducer's partition leases, kept: the shell around ``shared/messaging/leases.py``.

Every third of ``lease_ttl_s`` the loop beats this reducer's heartbeat, reads
every partition's lease, and does what :func:`leases.decide` asks: renews the
leases it holds, takes free ones up to its fair share (each taking hands out a
new fencing token), and gives up the surplus. The stream reader reads exactly
the partitions held; when that set changes it is replaced: the old one
finishes its batch in hand, the entries its partitions' previous holder left
pending are claimed for this reducer, and the new reader starts by re-reading
this reducer's own pending entries, theirs among them.

The token rides with every append (:meth:`Ownership.token`); the store
refuses one that is not the partition's latest (a later taking superseded
it), and the handler gives the partition up here (:meth:`fenced`). So a reducer paused past its lease that
resumes with a batch in hand writes nothing: the store says no. Its own
judgements (rejections) it answers only while the lease is current
(:meth:`current`): until ``HELD_FOR`` of the TTL after the request that last
took or renewed it was sent (the store's TTL started later), so it never
answers from a cache that may miss a later holder's writes.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

import structlog

from shared.eventstore.keys import REDUCERS, fencing_token, partition_of, reducer_lease, validated_stream
from shared.eventstore.tables import TableCache
from shared.infra.lua import LuaScript
from shared.infra.settings import Settings
from shared.messaging import leases
from shared.messaging.streams import BatchHandler, StreamReader
from shared.observability import metrics

log = structlog.get_logger()
SERVICE = GROUP = "reducer"
_LEASE = LuaScript(files("services.reducer").joinpath("lease.lua").read_text())
_HEARTBEAT = LuaScript(files("services.reducer").joinpath("heartbeat.lua").read_text())
#: The share of the TTL a lease counts as held locally after the request that
#: took or renewed it was sent. The rest is a margin for the time between the
#: handler's last look and its answer leaving the process.
HELD_FOR = 0.8
_PAGE = 1000


@dataclass
class _Lease:
    token: int
    until: float  # monotonic seconds


@dataclass
class _Reading:
    partitions: frozenset[int]
    stop: asyncio.Event
    task: asyncio.Task[None]


class Ownership:
    """Which partitions this reducer holds, with their tokens; runs their reader."""

    def __init__(
        self,
        redis: Any,
        settings: Settings,
        cache: TableCache,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.redis = redis
        self.settings = settings
        self.node = settings.node
        self.partitions = settings.partitions
        self.cache = cache
        self.clock = clock
        self.ttl_ms = round(settings.lease_ttl_s * 1000)
        self._held: dict[int, _Lease] = {}
        #: Taken since the reader last started: their previous holder's entries to claim.
        self._taken: set[int] = set()
        #: Beyond the fair share at the last look: to give up once no reader reads them.
        self._releasing: set[int] = set()
        self._reading: _Reading | None = None
        self._changed = asyncio.Event()
        metrics.PARTITIONS.set(self.partitions)
        # Counted when scraped: a lease that lapsed (the store unreachable) stops counting by itself.
        metrics.PARTITIONS_OWNED.set_function(lambda: len(self.owned()))

    # ---------------------------------------------------------- what the handler asks

    def token(self, partition: int) -> int | None:
        lease = self._held.get(partition)
        return None if lease is None else lease.token

    def current(self, partition: int) -> bool:
        lease = self._held.get(partition)
        return lease is not None and self.clock() < lease.until

    def fenced(self, partition: int) -> None:
        if partition in self._held:
            self._drop(partition, "fenced")
            self._changed.set()  # read it no more, now rather than at the next look

    def owned(self) -> list[int]:
        """The partitions held now (the clock watch's)."""
        return [p for p in sorted(self._held) if self.current(p)]

    # ---------------------------------------------------------------------- the loop

    async def run(self, handler: BatchHandler, stopping: asyncio.Event) -> None:
        interval = self.settings.lease_ttl_s / 3
        try:
            while not stopping.is_set():
                self._changed.clear()  # a partition fenced from here on asks for another look
                try:
                    await self.look()
                    await self.follow(handler)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    metrics.ERRORS.labels(SERVICE, "lease").inc()
                    log.exception("lease_look_failed")
                waits = [asyncio.ensure_future(e.wait()) for e in (stopping, self._changed)]
                try:
                    await asyncio.wait(waits, timeout=interval, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    for w in waits:
                        w.cancel()
        finally:
            await self.leave()

    async def look(self) -> None:
        """One look at the leases: renew, take, and note what to give up (:meth:`follow` does)."""
        sent = self.clock()  # before any request: the store's TTLs start later than this
        live = await _HEARTBEAT.call(self.redis, [REDUCERS], [self.node, self.ttl_ms])
        async with self.redis.pipeline(transaction=False) as pipe:
            for p in range(self.partitions):
                pipe.get(reducer_lease(p))
            seen = await pipe.execute()
        moves = leases.decide(
            self.node,
            self.partitions,
            {p: _holder(raw) for p, raw in enumerate(seen)},
            [_text(n) for n in live],
            self._held.keys(),
        )
        for p in moves.lost:
            self._drop(p, "lost")
        asked = [(p, self._held[p].token) for p in moves.renew if p in self._held]
        calls = [self._call(p, "renew", token) for p, token in asked]
        calls += [self._call(p, "take", 0) for p in moves.acquire]
        results = await _LEASE.run(self.redis, calls) if calls else []
        for (p, token), (ok, _, _) in zip(asked, results[: len(asked)], strict=True):
            lease = self._held.get(p)
            if lease is None or lease.token != token:
                continue  # fenced while the renewal was on its way
            if ok:
                lease.until = sent + HELD_FOR * self.settings.lease_ttl_s
            else:
                self._drop(p, "lost")
        for p, (ok, token, before) in zip(moves.acquire, results[len(asked) :], strict=True):
            if ok:
                self._take(p, int(token), _text(before), sent)
        self._releasing = set(moves.release)

    async def follow(self, handler: BatchHandler) -> None:
        """The reader reads what is held, less what is given up, which goes after it stopped."""
        await self._read(handler, frozenset(self._held) - self._releasing)
        for p in sorted(self._releasing):
            await self._give_up(p)
        self._releasing.clear()

    def _call(self, partition: int, mode: str, token: int) -> tuple[list[str], list[Any]]:
        keys = [reducer_lease(partition), fencing_token(partition)]
        return keys, [mode, self.node, self.ttl_ms, token]

    def _take(self, partition: int, token: int, before: str, sent: float) -> None:
        # What this process may hold of the partition's tables predates the
        # writes of whoever held it since: they are read again from the store.
        self._forget(partition)
        self._held[partition] = _Lease(token, sent + HELD_FOR * self.settings.lease_ttl_s)
        self._taken.add(partition)
        if before and before != self.node:
            metrics.LEASE_TAKEOVERS.inc()
        log.info("partition_taken", partition=partition, token=token, previous=before or None)

    def _drop(self, partition: int, why: str) -> None:
        self._held.pop(partition, None)
        self._forget(partition)
        metrics.LEASES_LOST.inc()
        log.warning("partition_lost", partition=partition, why=why)

    def _forget(self, partition: int) -> None:
        self.cache.forget_where(lambda game_id: partition_of(game_id, self.partitions) == partition)

    async def _give_up(self, partition: int) -> None:
        lease = self._held.pop(partition, None)
        self._forget(partition)
        if lease is not None:
            ok, _, holder = await _LEASE.call(self.redis, *self._call(partition, "give", lease.token))
            if ok:
                log.info("partition_given_up", partition=partition)
            else:
                log.warning("partition_lost", partition=partition, why="taken", holder=_text(holder) or None)

    # ---------------------------------------------------------------- the reader

    async def _read(self, handler: BatchHandler, wanted: frozenset[int]) -> None:
        """Run one reader over exactly ``wanted``, restarting it when that changed."""
        reading = self._reading
        if reading is not None and reading.partitions == wanted and not self._taken:
            if not reading.task.done():
                return
            if (error := _failure(reading.task)) is not None:
                log.error("reader_ended", error=repr(error))
        await self.stop_reading()
        wanted = frozenset(p for p in wanted if p in self._held)  # less any fenced meanwhile
        for p in sorted(self._taken):
            if p in wanted:
                await self._claim(p)
        self._taken.clear()
        if wanted:
            stop = asyncio.Event()
            streams = (validated_stream(p) for p in sorted(wanted))
            reader = StreamReader.configured(self.redis, GROUP, self.settings, streams)
            task = asyncio.create_task(reader.run(handler, stop))
            self._reading = _Reading(wanted, stop, task)
            log.info("reading", partitions=sorted(wanted))

    async def stop_reading(self) -> None:
        """The reader finishes its batch in hand (and sends its last write), then ends."""
        reading, self._reading = self._reading, None
        if reading is not None:
            reading.stop.set()
            await asyncio.gather(reading.task, return_exceptions=True)

    async def _claim(self, partition: int) -> None:
        """Every entry pending in the partition's stream becomes this reducer's.

        At once, whatever its idle time: a previous holder that still runs can
        no longer append (its token is fenced) nor judge a command (its lease
        has lapsed by its own clock). Ids only, so delivery counts stay as
        they were; the new reader re-reads its own pending entries first.
        """
        stream = validated_stream(partition)
        await StreamReader.configured(self.redis, GROUP, self.settings, [stream]).ensure_groups()
        start = "0-0"
        claimed = 0
        while True:
            ids = await self.redis.xautoclaim(
                stream, GROUP, self.node, min_idle_time=0, start_id=start, count=_PAGE, justid=True
            )
            claimed += len(ids)
            if len(ids) < _PAGE:
                break
            # (redis-py keeps only the ids of a JUSTID reply: the next page starts after the last.)
            ms, seq = _text(ids[-1]).split("-")
            start = f"{ms}-{int(seq) + 1}"
        if claimed:
            metrics.RECLAIMED.labels(SERVICE).inc(claimed)
            log.info("pending_claimed", partition=partition, entries=claimed)

    async def leave(self) -> None:
        """On a clean stop: the batch in hand finishes, then the leases and the
        heartbeat go at once, so the others take over without waiting them out."""
        await self.stop_reading()
        try:
            for p in sorted(self._held):
                await self._give_up(p)
            await _HEARTBEAT.call(self.redis, [REDUCERS], [self.node, 0])
        except Exception:
            log.warning("leases_left_to_expire", exc_info=True)


def _text(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


def _holder(raw: bytes | str | None) -> str | None:
    """The node of a lease's ``<node>:<token>``."""
    return _text(raw).rpartition(":")[0] if raw else None


def _failure(task: asyncio.Task[None]) -> BaseException | None:
    return None if task.cancelled() else task.exception()
