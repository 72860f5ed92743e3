"""The projector's batch handler: fold the partition feed into read models.

Entries of one game may arrive split between projectors, after a restart, or
twice; the table cache reads any gap from the store, and the write script's
checkpoint makes a repeated projection a no-op. So a crash between writing a
read model and acknowledging the entry costs a redelivery, never a double
write.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import structlog

from services.projector.read_models import build
from services.projector.writer import ReadModelWriter
from shared.eventstore.envelope import EventEnvelope
from shared.eventstore.keys import CHANGES_CHANNEL, GameKeys, partition_feed
from shared.eventstore.store import decode_envelope, is_cluster
from shared.eventstore.tables import TableCache
from shared.games import registry
from shared.infra.redis_client import Publisher
from shared.kernel.codec import codec_for
from shared.observability import metrics

log = structlog.get_logger()
GROUP = "projector"


class Projector:
    def __init__(self, cache: TableCache, redis: Any) -> None:
        self.cache = cache
        self.redis = redis
        self.writer = ReadModelWriter(redis)
        self.publisher = Publisher(redis)

    async def handle(self, partition: int, entries: list[tuple[bytes, dict[bytes, bytes]]]) -> int:
        """Project a batch read from one partition feed; returns games touched."""
        by_game: dict[str, list[EventEnvelope]] = {}
        for _, fields in entries:
            env = decode_envelope(fields[b"e"])
            by_game.setdefault(env.game_id, []).append(env)
        try:
            touched = await self._fold(partition, by_game)
            if is_cluster(self.redis):
                await asyncio.gather(
                    *(self.writer.add(None, GameKeys(g, partition), m) for g, (m, _) in touched.items())
                )
            notices = [(CHANGES_CHANNEL, f"{g} {m.version}") for g, (m, _) in touched.items()]
            async with self.redis.pipeline(transaction=False) as pipe:
                for game_id, (models, _) in touched.items():
                    if not is_cluster(self.redis):
                        await self.writer.add(pipe, GameKeys(game_id, partition), models)
                self.publisher.queue(pipe, notices)
                if entries:
                    pipe.xack(partition_feed(partition), GROUP, *(entry_id for entry_id, _ in entries))
                await pipe.execute()
            await self.publisher.after(notices)
        except BaseException:
            # The cache ran ahead of the read models; forget those games so the
            # retry re-reads them from the store (the checkpoint dedups writes).
            for game_id in by_game:
                self.cache.forget(game_id)
            raise
        self._observe(partition, touched)
        return len(touched)

    async def _fold(self, partition: int, by_game: dict[str, list[EventEnvelope]]) -> dict[str, Any]:
        before = {g: (t.version if (t := self.cache.get(g)) else 0) for g in by_game}
        gaps = [
            GameKeys(g, partition)
            for g, envs in by_game.items()
            if min(e.version for e in envs) > before[g] + 1
        ]
        if gaps:
            await self.cache.refresh(gaps)
        touched: dict[str, Any] = {}
        for game_id, envs in by_game.items():
            table = self.cache.apply(game_id, sorted(envs, key=lambda e: e.version))
            if table is None or table.version <= before[game_id]:
                continue
            codec = codec_for(registry.get(table.game))
            fresh = await self._events_since(game_id, partition, before[game_id], envs)
            new = [(e.version, e.server_time, codec.event(e.payload)) for e in fresh]
            touched[game_id] = (build(game_id, table, new), max(e.server_time for e in fresh))
        return touched

    async def _events_since(
        self, game_id: str, partition: int, after: int, envs: list[EventEnvelope]
    ) -> list[EventEnvelope]:
        """The events after ``after``: from the batch when it holds them all."""
        envs = sorted((e for e in envs if e.version > after), key=lambda e: e.version)
        if envs and envs[0].version == after + 1:
            return envs
        return await self.cache.store.read(GameKeys(game_id, partition), after)

    def _observe(self, partition: int, touched: dict[str, Any]) -> None:
        if not touched:
            return
        now_ms = time.time_ns() // 1_000_000
        newest = max(at for _, at in touched.values())
        metrics.PROJECTION_LAG.labels(str(partition)).set(max(0.0, (now_ms - newest) / 1000))
        metrics.EVENTS_PROJECTED.inc(sum(len(m.feeds["spectator"]) for m, _ in touched.values()))
        metrics.LIVE_GAMES.labels("projector").set(len(self.cache))
