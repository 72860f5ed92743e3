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
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

import structlog

from shared.eventstore.keys import (
    REDUCERS,
    GameKeys,
    fencing_token,
    partition_of,
    reducer_lease,
    validated_stream,
)
from shared.eventstore.tables import TableCache
from shared.infra.lua import LuaScript, is_cluster
from shared.infra.settings import Settings
from shared.messaging import leases
from shared.messaging.streams import TRANSIENT, BatchHandler, StreamReader
from shared.observability import metrics

log = structlog.get_logger()
SERVICE = GROUP = "reducer"
_LEASE = LuaScript(files("services.reducer").joinpath("lease.lua").read_text())
_HEARTBEAT = LuaScript(files("services.reducer").joinpath("heartbeat.lua").read_text())
#: The share of the TTL a lease counts as held locally after the request that
#: took or renewed it was sent. The rest is a margin for the time between the
#: handler's last look and its answer leaving the process.
HELD_FOR = 0.8
#: The holder of a lease that could not be read: neither free, nor this reducer's.
_UNREAD = "?"
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
        #: The node serving each partition held, as this process's client last saw it.
        self._serving: dict[int, str] = {}
        #: Lost (not given up) since the last look: their tables are checked, then forgotten.
        self._dropped: set[int] = set()
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
        """One look at the leases: renew, take, and note what to give up (:meth:`follow` does).

        Each partition's lease is read and written on its own, so a node of the
        store that fails (or fails over) costs only the leases it serves: those
        are neither renewed nor taken meanwhile, and one held lapses by this
        reducer's own clock if its node stays away. The renewals go out at once,
        with the heartbeat and the reads, not after them: a silent node holds
        every request to it for the whole ``patience``, and renewals queued
        behind those waits would reach the live nodes too late, so the leases
        they serve would lapse with the silent node's (every partition stalled
        while one node fails over). Without the heartbeats (their node down),
        what is held is renewed and nothing is taken or given up: how many
        reducers share the partitions is not known.
        """
        sent = self.clock()  # before any request: the store's TTLs start later than this
        patience = self.settings.lease_ttl_s / 3  # a node slower than this (paused) holds nothing up
        asked = [(p, lease.token) for p, lease in sorted(self._held.items())]
        alive, seen, renewed = await asyncio.gather(
            self._beat(patience),
            _each((self.redis.get(reducer_lease(p)) for p in range(self.partitions)), patience),
            _each((_LEASE.call(self.redis, *self._call(p, "renew", token)) for p, token in asked), patience),
        )
        for (p, token), result in zip(asked, renewed, strict=True):
            lease = self._held.get(p)
            if lease is None or lease.token != token or isinstance(result, BaseException):
                continue  # fenced while the renewal was on its way, or its node did not answer
            if result[0]:
                lease.until = sent + HELD_FOR * self.settings.lease_ttl_s
            else:
                self._drop(p, "lost")
        owners: dict[int, str | None] = {}
        for p, raw in enumerate(seen):
            if isinstance(raw, BaseException):  # unread: neither free nor lost
                owners[p] = self.node if p in self._held else _UNREAD
            else:
                owners[p] = _holder(raw)
        moves = leases.decide(
            self.node, self.partitions, owners, alive if alive is not None else [self.node], self._held.keys()
        )
        for p in moves.lost:
            self._drop(p, "lost")
        taking = list(moves.acquire) if alive is not None else []
        taken = await _each((_LEASE.call(self.redis, *self._call(p, "take", 0)) for p in taking), patience)
        for p, result in zip(taking, taken, strict=True):
            if not isinstance(result, BaseException) and result[0]:
                self._take(p, int(result[1]), _text(result[2]), sent)
        self._releasing = set(moves.release) if alive is not None else set()

    async def _beat(self, patience: float) -> list[str] | None:
        """This reducer's heartbeat; the reducers alive, or None if their node did not answer."""
        (alive,) = await _each([_HEARTBEAT.call(self.redis, [REDUCERS], [self.node, self.ttl_ms])], patience)
        if isinstance(alive, BaseException):
            log.warning("heartbeat_failed", error=repr(alive))
            return None
        return [_text(n) for n in alive]

    async def follow(self, handler: BatchHandler) -> None:
        """The reader reads what is held, less what is given up, which goes after it
        stopped; the tables of a partition whose node changed are checked."""
        await self._read(handler, frozenset(self._held) - self._releasing)
        for p in sorted(self._releasing):
            await self._give_up(p)
        self._releasing.clear()
        for p in self._failed_over():
            try:
                await asyncio.wait_for(self._check_cached(p), self.settings.lease_ttl_s)
            except TRANSIENT:
                self._serving.pop(p, None)  # checked again at the next look
                log.warning("check_after_failover_failed", partition=p, exc_info=True)
        for p in sorted(self._dropped - self._held.keys()):
            # This reducer may be the only one that knows what it wrote there (the
            # lease lost in a failover that lost writes too): checked before forgotten.
            try:
                await asyncio.wait_for(self._check_cached(p), self.settings.lease_ttl_s)
            except TRANSIENT:
                log.warning("check_after_loss_failed", partition=p, exc_info=True)
                continue
            self._forget(p)
            self._dropped.discard(p)
        self._dropped -= self._held.keys()  # taken again meanwhile: checked as it was taken

    def _failed_over(self) -> list[int]:
        """Held partitions now served by another node than at the last look (a
        failover): under a level that does not wait for replicas the new node may
        lack this reducer's last writes, on tables nobody moves again (a game whose
        end was lost), which only a check of what it holds can find."""
        if not is_cluster(self.redis):
            return []
        moved = []
        for p in sorted(self._held):
            try:
                node = self.redis.get_node_from_key(validated_stream(p)).name
            except Exception:  # the slot map has no node for it yet: look again later
                continue
            if self._serving.setdefault(p, node) != node:
                moved.append(p)
            self._serving[p] = node
        return moved

    def _call(self, partition: int, mode: str, token: int) -> tuple[list[str], list[Any]]:
        keys = [reducer_lease(partition), fencing_token(partition)]
        return keys, [mode, self.node, self.ttl_ms, token]

    def _take(self, partition: int, token: int, before: str, sent: float) -> None:
        # What this process may hold of the partition's tables predates the
        # writes of whoever held it since: checked against the store before the
        # reader starts (:meth:`_read`).
        self._held[partition] = _Lease(token, sent + HELD_FOR * self.settings.lease_ttl_s)
        self._taken.add(partition)
        if before and before != self.node:
            metrics.LEASE_TAKEOVERS.inc()
        log.info("partition_taken", partition=partition, token=token, previous=before or None)

    def _drop(self, partition: int, why: str) -> None:
        # Its tables stay cached until checked against the store (at the next look,
        # or as it is taken again): versions this reducer wrote and the store lost
        # (the lease lost in the same failover) are noticed and marked, not forgotten.
        self._held.pop(partition, None)
        self._dropped.add(partition)
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
        """Run one reader over exactly ``wanted``, restarting it when that changed.

        A partition just taken is read once its previous holder's pending
        entries are claimed; claiming comes first, while the reader in hand
        goes on with the others, and one whose node does not answer waits for
        the next look (the others are not held up for it).
        """
        self._taken &= wanted
        claimed = False
        for p in sorted(self._taken):
            try:
                await asyncio.wait_for(self._claimed(p), self.settings.lease_ttl_s)
            except TRANSIENT:
                log.warning("claim_failed", partition=p, exc_info=True)
                continue
            self._taken.discard(p)
            claimed = True  # the reader starts again, to read the claimed entries first
        wanted = frozenset(p for p in wanted if p in self._held and p not in self._taken)
        reading = self._reading
        if reading is not None and reading.partitions == wanted and not claimed:
            if not reading.task.done():
                return
            if (error := _failure(reading.task)) is not None:
                log.error("reader_ended", error=repr(error))
        await self.stop_reading()
        wanted = frozenset(p for p in wanted if p in self._held)  # less any fenced meanwhile
        if wanted:
            stop = asyncio.Event()
            streams = (validated_stream(p) for p in sorted(wanted))
            reader = StreamReader.configured(self.redis, GROUP, self.settings, streams)
            task = asyncio.create_task(reader.run(handler, stop))
            self._reading = _Reading(wanted, stop, task)
            log.info("reading", partitions=sorted(wanted))

    async def _claimed(self, partition: int) -> None:
        await self._claim(partition)
        await self._check_cached(partition)

    async def _check_cached(self, partition: int) -> None:
        """The partition's tables this process still holds, brought up to the store:
        read on from their versions if the store holds what they folded (others
        wrote after them), else marked as the store having gone back
        (shared/eventstore/rewinds.py) and read afresh."""
        held = self.cache.ids_where(lambda game_id: partition_of(game_id, self.partitions) == partition)
        for i in range(0, len(held), _PAGE):
            await self.cache.refresh(GameKeys(g, partition) for g in held[i : i + _PAGE])

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
        for p in sorted(self._held):
            try:
                await self._give_up(p)
            except Exception:
                log.warning("lease_left_to_expire", partition=p, exc_info=True)
        try:
            await _HEARTBEAT.call(self.redis, [REDUCERS], [self.node, 0])
        except Exception:
            log.warning("heartbeat_left_to_expire", exc_info=True)


async def _each(requests: Iterable[Awaitable[Any]], patience: float) -> list[Any]:
    """Every request at once, each answered or failed on its own (no answer within
    ``patience`` seconds is a failure): an outage of one node of the store is the
    failure of its requests, not of the others'.

    A request that missed the deadline is cancelled but not waited for: a
    client's cleanup of a connection to a silent node (closing it, re-reading
    the slot map) can take longer than the patience itself, and a look that
    waited for it would renew the live nodes' leases too late.
    """
    tasks = [asyncio.ensure_future(r) for r in requests]
    if not tasks:
        return []
    await asyncio.wait(tasks, timeout=patience)
    results: list[Any] = []
    for task in tasks:
        if not task.done():
            task.cancel()
            _ABANDONED.add(task)
            task.add_done_callback(_forget_abandoned)
            results.append(TimeoutError(f"no answer within {patience:g} s"))
        elif task.cancelled():
            results.append(TimeoutError("cancelled"))
        elif (error := task.exception()) is not None:
            if not isinstance(error, TRANSIENT):
                raise error
            results.append(error)
        else:
            results.append(task.result())
    return results


#: Requests cancelled and left to finish their cleanup (referenced until they do).
_ABANDONED: set[asyncio.Future[Any]] = set()


def _forget_abandoned(task: asyncio.Future[Any]) -> None:
    _ABANDONED.discard(task)
    if not task.cancelled():
        task.exception()  # retrieved: its failure is the timeout already counted


def _text(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


def _holder(raw: bytes | str | None) -> str | None:
    """The node of a lease's ``<node>:<token>``."""
    return _text(raw).rpartition(":")[0] if raw else None


def _failure(task: asyncio.Task[None]) -> BaseException | None:
    return None if task.cancelled() else task.exception()
