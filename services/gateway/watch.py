"""The gateway's view of the whole pipeline: backlogs, dead letters, readiness.

Once a second it measures every stage's backlog from the streams
(:mod:`shared.observability.pipeline`) and the dead-letter count, exports
them, and keeps the verdict that ``/ready`` answers with. A stalled or dead
stage shows here even though it cannot speak for itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import structlog

from shared.messaging import deadletters
from shared.observability import metrics
from shared.observability.pipeline import Backlog, backlog, stalled, watched

log = structlog.get_logger()
INTERVAL_S = 1.0


def _partition(stream: str) -> str:
    # "zg:{p3}:feed" -> "3"; streams shared by every partition -> "-"
    start = stream.find("{p")
    return stream[start + 2 : stream.find("}", start)] if start >= 0 else "-"


class PipelineWatch:
    def __init__(self, redis: Any, partitions: int, stall_after_s: float) -> None:
        self.redis = redis
        self.stall_after_s = stall_after_s
        self.targets = watched(partitions)
        self.backlogs: list[Backlog] = []
        self.dead_letters = 0
        self.measured = False
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def measure(self) -> None:
        now_ms = time.time_ns() // 1_000_000
        self.backlogs = await backlog(self.redis, [(s, g) for _, s, g in self.targets], now_ms)
        self.dead_letters = await deadletters.count(self.redis)
        self.measured = True
        for (stage, stream, _), b in zip(self.targets, self.backlogs, strict=True):
            partition = _partition(stream)
            metrics.STAGE_BACKLOG.labels(stage, partition).set(b.oldest_s)
            if stage == "projector":
                metrics.PROJECTION_LAG.labels(partition).set(b.oldest_s)
        metrics.DEAD_LETTERS_WAITING.set(self.dead_letters)
        metrics.PIPELINE_READY.set(0 if self.problems() else 1)

    def problems(self) -> list[str]:
        out = stalled(self.backlogs, self.stall_after_s)
        if self.dead_letters:
            out.append(
                f"{self.dead_letters} dead letter(s) wait for an operator (ziggurat dead-letters list)"
            )
        return out

    async def _loop(self) -> None:
        while True:
            try:
                await self.measure()
            except asyncio.CancelledError:
                raise
            except Exception:
                self.measured = False
                metrics.ERRORS.labels("gateway", "watch").inc()
                log.warning("pipeline_watch_failed", exc_info=True)
            await asyncio.sleep(INTERVAL_S)
