"""The reducer's batch handler: plan every command, append them all in one
pipeline, answer in another.

Commands for the same game in one batch chain their expected versions. If an
append loses to another writer (two reducers briefly owning a partition), that
game's later appends in the batch fail too; the game is re-read and its
commands are planned again, so each game stays linear.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import msgspec
import structlog

from services.reducer.plan import Plan, Planned, accepted, plan
from shared.eventstore.envelope import AppendOutcome
from shared.eventstore.keys import GameKeys, reply_channel
from shared.eventstore.store import EventStore
from shared.eventstore.tables import TableCache
from shared.games import registry
from shared.kernel.codec import codec_for
from shared.kernel.rng import new_seed
from shared.kernel.table import Table
from shared.messaging.messages import CommandMsg, Outcome, encode
from shared.observability import metrics

log = structlog.get_logger()
SERVICE = "reducer"
MAX_ATTEMPTS = 5


class Reducer:
    def __init__(
        self,
        store: EventStore,
        cache: TableCache,
        snapshot_every: int = 250,
        seeds: Callable[[], bytes] = new_seed,
        clock_ns: Callable[[], int] = time.time_ns,
    ) -> None:
        self.store = store
        self.cache = cache
        self.snapshot_every = snapshot_every
        self.seeds = seeds
        self.clock_ns = clock_ns

    async def handle(self, bodies: list[Any]) -> list[Outcome]:
        pending = [msgspec.convert(b, CommandMsg) for b in bodies]
        metrics.BATCH_SIZE.labels(SERVICE).observe(len(pending))
        replies: dict[int, Outcome] = {}
        order = {id(m): i for i, m in enumerate(pending)}
        for _ in range(MAX_ATTEMPTS):
            if not pending:
                break
            pending = await self._attempt(pending, replies, order)
        for msg in pending:  # still conflicting after every attempt: let the client retry
            replies[order[id(msg)]] = Outcome(
                command_id=msg.command_id,
                status="rejected",
                code="busy",
                message="The game is changing too fast; retry with the same idempotency key.",
            )
        outcomes = [replies[i] for i in range(len(order))]
        await self._reply([m for m in sorted(order, key=order.get)], outcomes, bodies)
        return outcomes

    async def _attempt(
        self, msgs: list[CommandMsg], replies: dict[int, Outcome], order: dict[int, int]
    ) -> list[CommandMsg]:
        await self.cache.refresh(
            GameKeys(m.game_id, m.partition) for m in msgs if not self.cache.get(m.game_id)
        )
        working: dict[str, Table | None] = {}
        planned: list[tuple[CommandMsg, Planned]] = []
        for msg in msgs:
            table = working[msg.game_id] if msg.game_id in working else self.cache.get(msg.game_id)
            result = plan(msg, table, self.clock_ns() // 1_000_000, self.seeds)
            if isinstance(result, Plan):
                working[msg.game_id] = result.after
            planned.append((msg, result))
        plans = [p for _, p in planned if isinstance(p, Plan)]
        appended = dict(
            zip(map(id, plans), await self.store.append_many([p.request for p in plans]), strict=True)
        )
        retry: list[CommandMsg] = []
        conflicted: set[str] = set()
        for msg, result in planned:
            if msg.game_id in conflicted:
                retry.append(msg)
                continue
            if isinstance(result, Outcome):
                replies[order[id(msg)]] = await self._rejection(msg, result)
                continue
            outcome = appended[id(result)]
            if outcome.status == "conflict":
                metrics.APPEND_CONFLICTS.inc()
                conflicted.add(msg.game_id)
                retry.append(msg)
                continue
            replies[order[id(msg)]] = await self._settle(result, outcome)
        for game_id in conflicted:
            self.cache.forget(game_id)
        return retry

    async def _settle(self, p: Plan, outcome: AppendOutcome) -> Outcome:
        game = registry.get(p.after.game)
        now = self.clock_ns()
        if outcome.status == "duplicate":
            metrics.DUPLICATES.inc()
            self.cache.forget(p.msg.game_id)
            return await self._first_outcome(p.msg, game, p.seat, outcome)
        self.cache.put(p.msg.game_id, p.after)
        metrics.COMMANDS.labels(SERVICE, game.key, "accepted").inc()
        metrics.STAGE_LATENCY.labels("appended").observe((now - p.msg.received_ns) / 1e9)
        log.info(
            "appended",
            game_id=p.msg.game_id,
            command_id=p.msg.command_id,
            correlation_id=p.msg.correlation_id,
            version=outcome.last,
            seat=p.seat,
        )
        if self._snapshot_due(outcome) and game.state_type is not None:
            await self.store.save_snapshot(p.request.keys, p.after.version, msgspec.msgpack.encode(p.after))
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

    async def _rejection(self, msg: CommandMsg, rejection: Outcome) -> Outcome:
        """A rejected retry of a command already applied gets its first outcome."""
        keys = GameKeys(msg.game_id, msg.partition)
        seen = await self.store.redis.hget(keys.dedup, msg.command_id)
        table = self.cache.get(msg.game_id)
        if seen and table is not None:
            first, last = (int(x) for x in seen.decode().split(":"))
            outcome = AppendOutcome(status="duplicate", first=first, last=last)
            metrics.DUPLICATES.inc()
            return await self._first_outcome(msg, registry.get(table.game), None, outcome)
        metrics.REJECTIONS.labels(SERVICE, rejection.code).inc()
        return msgspec.structs.replace(rejection, decided_ns=self.clock_ns())

    async def _reply(self, msgs: list[Any], outcomes: list[Outcome], bodies: list[Any]) -> None:
        async with self.store.redis.pipeline(transaction=False) as pipe:
            for body, outcome in zip(bodies, outcomes, strict=True):
                pipe.publish(reply_channel(body["reply_to"]), encode(outcome))
            await pipe.execute()
        metrics.LIVE_GAMES.labels(SERVICE).set(len(self.cache))
