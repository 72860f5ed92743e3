"""The validator's batch handler: one read of the store per batch, one write."""

from __future__ import annotations

import time
from typing import Any

import structlog

from services.validator.checks import Verdict, check_move, check_open
from shared.eventstore.keys import GameKeys, reply_channel, validated_stream
from shared.eventstore.tables import TableCache
from shared.infra.redis_client import Publisher
from shared.messaging.messages import CommandMsg, Outcome, decode_batch, encode
from shared.observability import metrics

log = structlog.get_logger()
SERVICE = "validator"


class Validator:
    def __init__(self, cache: TableCache, redis: Any, publish: Any) -> None:
        self.cache = cache
        self.redis = redis
        self.publish = publish
        self.publisher = Publisher(redis)  # publish(body, stream, pipeline): the broker's publisher

    async def handle(self, batch: bytes) -> list[Verdict]:
        msgs = decode_batch(batch)
        metrics.BATCH_SIZE.labels(SERVICE).observe(len(msgs))
        keys = [GameKeys(m.game_id, m.partition) for m in msgs]
        tables_ = await self.cache.refresh(keys)
        applied = await self._already_applied(msgs, keys)
        verdicts = [
            check_open(m, tables_[m.game_id])
            if m.kind == "open"
            else check_move(m, tables_[m.game_id], applied[i])
            for i, m in enumerate(msgs)
        ]
        await self._emit(msgs, verdicts)
        return verdicts

    async def _already_applied(self, msgs: list[CommandMsg], keys: list[GameKeys]) -> list[bool]:
        async with self.redis.pipeline(transaction=False) as pipe:
            for m, k in zip(msgs, keys, strict=True):
                pipe.hexists(k.dedup, m.command_id)
            return [bool(x) for x in await pipe.execute()]

    async def _emit(self, msgs: list[CommandMsg], verdicts: list[Verdict]) -> None:
        now = time.time_ns()
        rejections: list[tuple[str, bytes]] = []
        async with self.redis.pipeline(transaction=False) as pipe:
            for msg, verdict in zip(msgs, verdicts, strict=True):
                if isinstance(verdict, Outcome):
                    metrics.REJECTIONS.labels(SERVICE, verdict.code).inc()
                    log.info(
                        "rejected",
                        game_id=msg.game_id,
                        command_id=msg.command_id,
                        correlation_id=msg.correlation_id,
                        code=verdict.code,
                    )
                    rejections.append((reply_channel(msg.reply_to), encode(verdict)))
                else:
                    await self.publish(encode(verdict), validated_stream(msg.partition), pipe)
                metrics.STAGE_LATENCY.labels("validated").observe((now - msg.received_ns) / 1e9)
            self.publisher.queue(pipe, rejections)
            await pipe.execute()
        await self.publisher.after(rejections)
        metrics.LIVE_GAMES.labels(SERVICE).set(len(self.cache))
