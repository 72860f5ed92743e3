"""The validator's batch handler: one read of the store per batch, one write.

The read brings every table of the batch up to date and asks, in the same
round trip, which command ids the store has already applied. The write passes
the valid commands on to their partitions' ``validated`` streams, answers the
rejected ones (one message per gateway) and acknowledges the batch.
"""

from __future__ import annotations

import time
from typing import Any

import msgspec
import structlog

from services.validator.checks import Verdict, judge
from shared.eventstore.keys import kept_game_keys, validated_stream
from shared.eventstore.tables import Foreseen, TableCache
from shared.infra.redis_client import Publisher
from shared.kernel.table import Table
from shared.messaging import streams
from shared.messaging.messages import (
    CommandMsg,
    MoveMsg,
    Outcome,
    RejectedOutcome,
    dead_letter_replies,
    decode_batch,
    encode,
    replies_by_node,
)
from shared.messaging.streams import Batch, Entry
from shared.observability import metrics

log = structlog.get_logger()
SERVICE = GROUP = "validator"


class Validator:
    def __init__(self, cache: TableCache, redis: Any) -> None:
        self.cache = cache
        self.redis = redis
        self.publisher = Publisher(redis)

    async def handle(self, batch: Batch) -> list[Verdict]:
        msgs = decode_batch(batch.bodies())
        keys = [kept_game_keys(m.game_id, m.partition) for m in msgs]

        def dedup(pipe: Any) -> None:
            for m, k in zip(msgs, keys, strict=True):
                pipe.hexists(k.dedup, m.command_id)

        tables_, applied = await self.cache.refresh_and_read(keys, dedup)
        verdicts: list[Verdict] = []
        for i, m in enumerate(msgs):
            table = tables_[m.game_id]
            verdict, after = judge(m, table, bool(applied[i]))
            verdicts.append(_with_game(verdict, table))
            if after is not None and table is not None and isinstance(verdict, MoveMsg) and verdict.decided:
                # The reducer appends these very events while the table is at this
                # version: the next read then adopts ``after`` instead of folding them again.
                foreseen = Foreseen(table, m.command_id, verdict.decided.events, after)
                self.cache.foresee(m.game_id, foreseen)
        await self._emit(batch, msgs, verdicts)
        return verdicts

    async def dead(self, entries: list[Entry]) -> None:
        """Parked commands: tell their requests at once rather than let them time out."""
        replies = dead_letter_replies(fields.get(b"m", b"") for _, _, fields in entries)
        async with self.redis.pipeline(transaction=False) as pipe:
            self.publisher.queue(pipe, replies)
            await pipe.execute()
        await self.publisher.after(replies)

    async def _emit(self, batch: Batch, msgs: list[CommandMsg], verdicts: list[Verdict]) -> None:
        now = time.time_ns()
        rejected: list[tuple[str, Outcome]] = []
        validated = metrics.STAGE_LATENCY.labels("validated")
        pipe = self.redis.pipeline(transaction=False)
        # The passed commands and the acknowledgements land together or not at all:
        # were an XADD refused (the server out of memory) while the XACK went
        # through, a command would be lost. A refused command inside MULTI aborts
        # the EXEC, so nothing lands and the batch stays pending. (A cluster cannot
        # span the partitions' slots in one transaction; its writes are not held.)
        atomic = not self.publisher.cluster
        if atomic:
            pipe.execute_command("MULTI")
        for msg, verdict in zip(msgs, verdicts, strict=True):
            if isinstance(verdict, RejectedOutcome):
                metrics.REJECTIONS.labels(SERVICE, verdict.code).inc()
                log.info(
                    "rejected",
                    game_id=msg.game_id,
                    command_id=msg.command_id,
                    correlation_id=msg.correlation_id,
                    code=verdict.code,
                )
                rejected.append((msg.reply_to, verdict))
            else:
                streams.add(pipe, validated_stream(msg.partition), encode(verdict))
            validated.observe((now - msg.received_ns) / 1e9)
        replies = replies_by_node(rejected)
        self.publisher.queue(pipe, replies)
        batch.ack(pipe, GROUP)
        if atomic:
            pipe.execute_command("EXEC")
        metrics.CACHED_GAMES.labels(SERVICE).set(len(self.cache))
        # The passed commands, the refusals and the acknowledgements, ahead of the next read.
        await batch.write(pipe)
        await self.publisher.after(replies)


def _with_game(verdict: Verdict, table: Table | None) -> Verdict:
    """Rejections name the table's game, so the gateway counts them per game."""
    if isinstance(verdict, RejectedOutcome) and table is not None:
        return msgspec.structs.replace(verdict, game=table.game)
    return verdict
