"""The reducer's batch handler: plan every command, append them all in one
pipeline, answer in another.

Commands for the same game in one batch chain their expected versions. If an
append loses to another writer (two reducers briefly owning a partition), that
game's later appends in the batch fail too; the game is re-read and its
commands are planned again, so each game stays linear.

A reducer writes only for the partitions whose lease it holds
(``services/reducer/ownership.py``): each append carries the lease's token,
which the store refuses once a later lease superseded it. A command of a
partition it does not hold is left pending, unanswered, for the holder to
claim; a rejection, judged against this reducer's own cache, is answered
only while its lease is current by its own clock.
"""

from __future__ import annotations

import asyncio
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgspec
import structlog
from redis.exceptions import ResponseError

from services.reducer.plan import Plan, Planned, accepted, plan, unconfirmed
from shared.eventstore import snapshots
from shared.eventstore.envelope import AppendOutcome
from shared.eventstore.keys import GameKeys, deadlines, partition_feed, validated_stream
from shared.eventstore.rewinds import Rewind
from shared.eventstore.store import AppendRequest, EventStore, encode_envelope
from shared.eventstore.tables import TableCache
from shared.games import registry
from shared.infra.durability import Confirmation, confirm_at, refused_for_replicas
from shared.infra.redis_client import Publisher
from shared.kernel import table as tables
from shared.kernel.clocks import DEFAULT_TAKEOVER, Takeover
from shared.kernel.codec import codec_for
from shared.kernel.rng import new_seed
from shared.kernel.table import Table
from shared.messaging import deadletters
from shared.messaging.messages import (
    CommandMsg,
    MoveMsg,
    Outcome,
    RejectedOutcome,
    TimeoutMsg,
    dead_letter_replies,
    decode_batch,
    encode,
    rejected,
    replies_by_node,
)
from shared.messaging.streams import TRANSIENT, Batch, Entry
from shared.observability import metrics

log = structlog.get_logger()
SERVICE = GROUP = "reducer"
MAX_ATTEMPTS = 5


class Leases(Protocol):
    """Which partitions this reducer may write and answer for now."""

    def token(self, partition: int) -> int | None:
        """The token of the partition's lease if this reducer holds it, else ``None``."""

    def current(self, partition: int) -> bool:
        """Held, and not lapsed by this reducer's clock: no other may hold it yet."""

    def fenced(self, partition: int) -> None:
        """The store refused an append with the partition's token: a later lease superseded it."""


@dataclass
class _Round:
    """One call of :meth:`Reducer.process` (on a cluster, batches of several
    partitions and the clock watch's run at once: none may see another's)."""

    #: A wait fell short (or the store refused the writes): no move is answered accepted.
    unconfirmed: bool = False
    #: Partitions with outcomes read back rather than appended (a retry's first outcome).
    reread: set[int] = field(default_factory=set)


class Reducer:
    def __init__(
        self,
        store: EventStore,
        cache: TableCache,
        snapshot_every: int = 250,
        seeds: Callable[[], bytes] = new_seed,
        clock_ns: Callable[[], int] = time.time_ns,
        max_deliveries: int = 3,
        leases: Leases | None = None,
        takeover: Takeover = DEFAULT_TAKEOVER,
    ) -> None:
        self.store = store
        #: The level of the bot that takes over a timed-out seat, for tables whose clock names none.
        self.takeover = takeover
        #: The store's replicated durability level: no move is answered accepted
        #: before R replicas hold it (None: the primary's own reply is enough).
        self.confirm: Confirmation | None = store.durable
        #: None: every partition is this reducer's, its appends unfenced (tests, tools).
        self.leases = leases
        self.cache = cache
        self.snapshot_every = snapshot_every
        self.seeds = seeds
        self.clock_ns = clock_ns
        self.publisher = Publisher(store.redis)
        #: (partition, game id) -> its next clock deadline (ms), None once no clock runs.
        self._deadlines: dict[tuple[int, str], int | None] = {}
        self.max_deliveries = max_deliveries
        #: Games whose timeout failed (how often), and those parked for an operator.
        self._clock_failures: dict[str, int] = {}
        self._clock_parked: set[str] = set()
        #: Snapshots taken in this batch, written with its replies.
        self._snapshots: list[tuple[GameKeys, int, bytes]] = []
        # Metric children looked up once (``labels()`` costs more than the count itself).
        self._appended = metrics.STAGE_LATENCY.labels("appended")
        self._accepted: dict[str, Any] = {}

    async def handle(self, batch: Batch) -> list[Outcome]:
        """A batch from the ``validated`` streams: append, answer, acknowledge."""
        return await self.process(decode_batch(batch.bodies()), batch)

    async def dead(self, entries: list[Entry]) -> None:
        """Parked commands: tell their requests at once rather than let them time out."""
        replies = dead_letter_replies(fields.get(b"m", b"") for _, _, fields in entries)
        async with self.store.redis.pipeline(transaction=False) as pipe:
            self.publisher.queue(pipe, replies)
            await pipe.execute()
        await self.publisher.after(replies)

    async def process(self, msgs: list[CommandMsg], batch: Batch | None = None) -> list[Outcome]:
        """Append and answer; returns the outcomes answered, in order.

        A command of a partition whose lease this reducer does not hold is
        neither answered nor acknowledged: it stays pending for the holder,
        who claims it. Nor is a rejection once the lease is not current (paused
        past it, this reducer's cache may miss the holder's writes); an
        accepted outcome is the store's own, and is answered.
        """
        replies: dict[int, Outcome] = {}
        pending = list(range(len(msgs)))
        round_ = _Round()
        try:
            for _ in range(MAX_ATTEMPTS):
                pending = [i for i in pending if self._holds(msgs[i].partition)]
                if not pending:
                    break
                pending = await self._attempt(msgs, pending, replies, round_)
        except ResponseError as exc:
            self._refused(exc, round_)
            # A primary without its replicas took none of these writes (or,
            # mid-batch, some): each is answered 503, as are those it took.
            pending = [i for i in range(len(msgs)) if i not in replies]
            for i in pending:
                replies[i] = unconfirmed(msgs[i])
                metrics.REJECTIONS.labels(SERVICE, "unavailable").inc()
                self.cache.forget(msgs[i].game_id)
            pending = []
        for i in pending:  # still conflicting after every attempt: the client retries
            replies[i] = rejected(
                msgs[i], "busy", "The game is changing too fast; retry with the same idempotency key."
            )
        await self._confirm(msgs, replies, round_)
        # Asked at the end: a reducer paused past its lease judges nothing.
        answered = [
            i for i in sorted(replies) if replies[i].status == "accepted" or self._current(msgs[i].partition)
        ]
        if len(answered) < len(msgs):
            kept = set(answered)
            for i in range(len(msgs)):
                if i not in kept:  # its table may hold what the store refused
                    self.cache.forget(msgs[i].game_id)
        await self._reply(msgs, answered, replies, batch)
        return [replies[i] for i in answered]

    def _holds(self, partition: int) -> bool:
        return self.leases is None or self.leases.token(partition) is not None

    def _current(self, partition: int) -> bool:
        return self.leases is None or self.leases.current(partition)

    async def _attempt(
        self, msgs: list[CommandMsg], indices: list[int], replies: dict[int, Outcome], round_: _Round
    ) -> list[int]:
        cold = [
            GameKeys(msgs[i].game_id, msgs[i].partition)
            for i in indices
            if not self.cache.get(msgs[i].game_id)
        ]
        await self.cache.refresh(cold)
        tokens: dict[int, int] | None = None
        if self.leases is not None:  # read after the last wait: the tokens as the appends leave
            tokens = {}
            for p in {msgs[i].partition for i in indices}:
                if (token := self.leases.token(p)) is not None:
                    tokens[p] = token
            indices = [i for i in indices if msgs[i].partition in tokens]
        working: dict[str, Table | None] = {}
        planned: list[tuple[int, Planned]] = []
        for i in indices:
            msg = msgs[i]
            table = working[msg.game_id] if msg.game_id in working else self.cache.get(msg.game_id)
            result = plan(msg, table, self.clock_ns() // 1_000_000, self.seeds, self.takeover)
            if isinstance(result, Plan):
                working[msg.game_id] = result.after
            planned.append((i, result))
        plans = [p for _, p in planned if isinstance(p, Plan)]
        outcomes = iter(await self._append([p.request for p in plans], tokens, round_))
        retry: list[int] = []
        conflicted: set[str] = set()
        rewinds: list[Rewind] = []
        for i, result in planned:
            outcome = next(outcomes) if isinstance(result, Plan) else None
            if msgs[i].game_id in conflicted:
                retry.append(i)
            elif isinstance(result, RejectedOutcome) and await self._behind_the_client(msgs[i], result):
                conflicted.add(msgs[i].game_id)  # read again (and marked): planned afresh
                retry.append(i)
            elif isinstance(result, RejectedOutcome):
                replies[i] = await self._rejection(msgs[i], result, round_)
            elif outcome is not None and outcome.status == "fenced":
                self._fenced(msgs[i], outcome.last)
            elif outcome is not None and outcome.status == "conflict":
                metrics.APPEND_CONFLICTS.inc()
                conflicted.add(msgs[i].game_id)
                retry.append(i)
                if (rewind := _behind(result, outcome, self.cache.get(msgs[i].game_id))) is not None:
                    rewinds.append(rewind)
            else:
                assert outcome is not None
                replies[i] = await self._settle(result, outcome)
        for game_id in conflicted:
            self.cache.forget(game_id)
        if rewinds and self.cache.noticed is not None:
            # Marked before the retry appends anything at the versions the store lost.
            await self.cache.noticed(rewinds)
        return retry

    async def _behind_the_client(self, msg: CommandMsg, rejection: RejectedOutcome) -> bool:
        """A client acting on a version below this reducer's table may have read a
        store that went back (a failover that lost writes nobody appended over yet):
        before refusing it as stale, the table is checked against the store (the
        cache's read marks and replaces one the store no longer holds)."""
        held = self.cache.get(msg.game_id)
        if (
            rejection.code != "stale_version"
            or held is None
            or not isinstance(msg, MoveMsg)
            or msg.expected_version is None
            or msg.expected_version >= held.version
        ):
            return False
        fresh = (await self.cache.refresh([GameKeys(msg.game_id, msg.partition)]))[msg.game_id]
        return fresh is None or fresh.version != held.version or fresh.last_command != held.last_command

    async def _append(
        self, requests: list[AppendRequest], tokens: dict[int, int] | None, round_: _Round
    ) -> list[AppendOutcome]:
        """The appends, in one round trip; under a replicated level each node's
        followed on the same connection by the wait for its replicas."""
        if self.confirm is None or not requests:
            return await self.store.append_many(requests, tokens)
        outcomes, confirmed = await self.store.append_confirmed(requests, self.confirm, tokens)
        self._waited(confirmed, round_)
        return outcomes

    def _waited(self, confirmed: bool, round_: _Round) -> None:
        metrics.DURABILITY_WAITS.labels("confirmed" if confirmed else "short").inc()
        round_.unconfirmed = round_.unconfirmed or not confirmed

    def _refused(self, exc: ResponseError, round_: _Round) -> None:
        """``min-replicas-to-write``: the batch is unconfirmed; any other error goes on up."""
        if not refused_for_replicas(exc):
            raise exc
        metrics.DURABILITY_WAITS.labels("refused").inc()
        round_.unconfirmed = True

    async def _confirm(self, msgs: list[CommandMsg], replies: dict[int, Outcome], round_: _Round) -> None:
        """Under a replicated level, once per batch before any answer: an accepted
        outcome stands only if the replicas hold it; otherwise (a wait fell short,
        the store refused) every accepted outcome of the batch is answered 503
        ``unavailable``, and a retry with the same idempotency key gets the real one.

        A retry's first outcome, read back from the dedup hash rather than
        appended, was confirmed by no append's wait: its partition's node is
        asked to confirm everything it holds now.
        """
        if self.confirm is None:
            return
        held = [i for i, outcome in replies.items() if outcome.status == "accepted"]
        if not held:
            return
        if round_.reread and not round_.unconfirmed:
            redis, confirm = self.store.redis, self.confirm
            waits = [confirm_at(redis, partition_feed(p), confirm) for p in sorted(round_.reread)]
            try:
                self._waited(all(await asyncio.gather(*waits)), round_)
            except ResponseError as exc:
                self._refused(exc, round_)
        if not round_.unconfirmed:
            return
        for i in held:
            replies[i] = unconfirmed(msgs[i])
            metrics.REJECTIONS.labels(SERVICE, "unavailable").inc()
            # Whatever the store keeps of it, the next command reads it afresh.
            self.cache.forget(msgs[i].game_id)
        log.warning("durability_unconfirmed", commands=len(held), level=self.confirm.level)

    def _fenced(self, msg: CommandMsg, latest: int) -> None:
        """The partition passed to a later lease: its commands are left to that holder."""
        metrics.FENCED_APPENDS.inc()
        log.warning("append_fenced", partition=msg.partition, game_id=msg.game_id, latest_token=latest)
        if self.leases is not None:
            self.leases.fenced(msg.partition)

    async def _settle(self, p: Plan, outcome: AppendOutcome) -> Outcome:
        game = registry.get(p.after.game)
        now = self.clock_ns()
        if outcome.status == "duplicate":
            metrics.DUPLICATES.inc()
            self.cache.forget(p.msg.game_id)
            return await self._first_outcome(p.msg, game, p.seat, outcome)
        self.cache.put(p.msg.game_id, p.after)
        if p.after.clock is not None:
            due = tables.deadline(game, p.after)
            self._deadlines[(p.msg.partition, p.msg.game_id)] = due[0] if due else None
        if p.msg.kind == "timeout":
            metrics.CLOCK_TIMEOUTS.labels(p.after.clock.policy if p.after.clock else "-").inc()
        accepted_count = self._accepted.get(game.key)
        if accepted_count is None:
            accepted_count = self._accepted[game.key] = metrics.COMMANDS.labels(SERVICE, game.key, "accepted")
        accepted_count.inc()
        if p.reused:
            metrics.DECISIONS_REUSED.inc()
        self._appended.observe((now - p.msg.received_ns) / 1e9)
        # At debug: the record of an accepted command is the game's command log and
        # event log (ids, correlation id, versions), not this line; at info it was a
        # structlog render and a write per command (8 % of the reducer's CPU).
        log.debug(
            "appended",
            game_id=p.msg.game_id,
            command_id=p.msg.command_id,
            correlation_id=p.msg.correlation_id,
            version=outcome.last,
            seat=p.seat,
        )
        if self._snapshot_due(outcome) and game.state_type is not None:
            raw = snapshots.encode(p.after, encode_envelope(p.request.envelopes[-1]))
            self._snapshots.append((p.request.keys, p.after.version, raw))
        return accepted(p.msg, game, p.seat, outcome.first, p.events, now)

    def _snapshot_due(self, outcome: AppendOutcome) -> bool:
        return outcome.last // self.snapshot_every > (outcome.first - 1) // self.snapshot_every

    async def _first_outcome(
        self, msg: CommandMsg, game: Any, seat: int | None, outcome: AppendOutcome
    ) -> Outcome:
        keys = GameKeys(msg.game_id, msg.partition)
        envelopes = await self.store.read_range(keys, outcome.first, outcome.last)
        codec = codec_for(game)
        events = [codec.event(e.payload) for e in envelopes]
        seat = envelopes[0].seat if envelopes else seat
        return accepted(msg, game, seat, outcome.first, events, self.clock_ns(), duplicate=True)

    async def _rejection(self, msg: CommandMsg, rejection: RejectedOutcome, round_: _Round) -> Outcome:
        """A rejected retry of a command already applied gets its first outcome."""
        keys = GameKeys(msg.game_id, msg.partition)
        seen = await self.store.redis.hget(keys.dedup, msg.command_id)
        table = self.cache.get(msg.game_id)
        if seen and table is not None:
            first, last = (int(x) for x in seen.decode().split(":"))
            outcome = AppendOutcome(status="duplicate", first=first, last=last)
            metrics.DUPLICATES.inc()
            round_.reread.add(msg.partition)
            return await self._first_outcome(msg, registry.get(table.game), None, outcome)
        metrics.REJECTIONS.labels(SERVICE, rejection.code).inc()
        return msgspec.structs.replace(
            rejection, decided_ns=self.clock_ns(), game=table.game if table is not None else ""
        )

    async def _reply(
        self, msgs: list[CommandMsg], answered: list[int], outcomes: dict[int, Outcome], batch: Batch | None
    ) -> None:
        """Answer the gateways, index the clocks, and acknowledge, in one round trip.

        Acknowledging after the appends: a crash in between redelivers the
        batch, and the store answers each repeated command id with its first
        outcome.
        """
        replies = replies_by_node((msgs[i].reply_to, outcomes[i]) for i in answered)
        pipe = self.store.redis.pipeline(transaction=False)
        self.publisher.queue(pipe, replies)
        # A batch writes the clocks and snapshots of its own partitions (on a
        # cluster, another partition's may be on a node that is down); the clock
        # watch's round writes every one it found.
        mine = {m.partition for m in msgs}
        ours = [k for k in self._deadlines if batch is None or k[0] in mine]
        for partition, game_id in ours:
            due = self._deadlines.pop((partition, game_id))
            if due is None:
                pipe.zrem(deadlines(partition), game_id)
            else:
                pipe.zadd(deadlines(partition), {game_id: due})
        # After the appends they follow, and an optimisation only: a crash
        # before this write leaves the previous snapshot, still valid.
        taken = [snap for snap in self._snapshots if snap[0].partition in mine]
        self._snapshots = [snap for snap in self._snapshots if snap[0].partition not in mine]
        for keys, version, raw in taken:
            self.store.queue_snapshot(pipe, keys, version, raw)
        metrics.CACHED_GAMES.labels(SERVICE).set(len(self.cache))
        if batch is None:  # the clock watch's timeouts: no stream entries to acknowledge
            await pipe.execute()
        else:
            # The appends are done (awaited above): the answers and the
            # acknowledgements may ride with the next read.
            if len(answered) == len(batch):
                batch.ack(pipe, GROUP)
            elif answered:  # the rest stay pending, for their partition's holder
                batch.ack(pipe, GROUP, only=[batch.entries[i][:2] for i in answered])
            await batch.write(pipe)
        await self.publisher.after(replies)

    async def watch_clocks(
        self, partitions: Callable[[], Sequence[int]], stopping: Any, interval_s: float = 0.2
    ) -> None:
        """Time out seats whose clocks ran out, in the partitions this reducer holds now.

        A timeout is a command like any other (its id names the version it
        was decided at, so it applies once however often it is issued); it
        goes through :meth:`process`, so it is appended, answered and
        projected the same way.
        """
        while not stopping.is_set():
            try:
                due = [m for m in await self._due(list(partitions())) if m.game_id not in self._clock_parked]
                if due:
                    await self._time_out(due)
            except Exception:
                metrics.ERRORS.labels(SERVICE, "clock").inc()
                log.exception("clock_watch_failed")
            await asyncio.sleep(interval_s)

    async def _time_out(self, due: list[CommandMsg]) -> None:
        """Issue the timeouts; one that keeps failing is parked, never holding up the others."""
        try:
            await self.process(due)
            return
        except TRANSIENT:
            raise
        except Exception:
            log.warning("clock_batch_failed_isolating", size=len(due), exc_info=True)
        for msg in due:
            try:
                await self.process([msg])
                self._clock_failures.pop(msg.game_id, None)
            except TRANSIENT:
                raise
            except Exception:
                metrics.ERRORS.labels(SERVICE, "clock").inc()
                failures = self._clock_failures[msg.game_id] = self._clock_failures.get(msg.game_id, 0) + 1
                log.exception("timeout_failed", game_id=msg.game_id, failures=failures)
                if failures >= self.max_deliveries:
                    # Parked on the stream a retry should go to: the reducer's own input.
                    await deadletters.park(
                        self.store.redis,
                        SERVICE,
                        validated_stream(msg.partition),
                        GROUP,
                        "",
                        {b"m": encode(msg)},
                        traceback.format_exc(limit=8),
                    )
                    self._clock_parked.add(msg.game_id)
                    self._clock_failures.pop(msg.game_id, None)

    async def _due(self, partitions: list[int]) -> list[CommandMsg]:
        now_ns = self.clock_ns()
        async with self.store.redis.pipeline(transaction=False) as pipe:
            for partition in partitions:
                pipe.zrangebyscore(deadlines(partition), "-inf", now_ns // 1_000_000)
            found = await pipe.execute(raise_on_error=False)
        # A partition whose node does not answer (a failover) waits for the next look.
        keys = [
            GameKeys(g.decode(), p)
            for p, ids in zip(partitions, found, strict=True)
            if not isinstance(ids, Exception)
            for g in ids
        ]
        current = await self.cache.refresh(keys)
        out = []
        for k in keys:
            table = current[k.game_id]
            game = registry.get(table.game) if table else None
            when = tables.deadline(game, table) if table and game else None
            if when is None or when[0] > now_ns // 1_000_000:
                self._deadlines[(k.partition, k.game_id)] = when[0] if when else None
                continue
            out.append(
                TimeoutMsg(
                    game_id=k.game_id,
                    partition=k.partition,
                    command_id=f"timeout:{table.version}:{when[1]}",
                    correlation_id=f"clock-{k.game_id}",
                    reply_to="",
                    received_ns=now_ns,
                    seat=when[1],
                )
            )
        return out


def _behind(planned: Plan, conflict: AppendOutcome, held: Table | None) -> Rewind | None:
    """An append refused because the store is at a version below the one this
    reducer held: the store lost versions this reducer wrote (a failover). The
    only writer of its partition, it never holds a version the store has not had."""
    expected = planned.request.expected
    if expected <= conflict.last or held is None or held.version != expected:
        return None
    return Rewind(planned.request.keys, expected, held.last_command, conflict.last)
