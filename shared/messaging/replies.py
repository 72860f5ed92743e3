"""Waiting for outcomes: one pub/sub subscription per gateway process.

Each request registers a future under a request id of its own (never the
client's idempotency key, which two requests may share: at two tables, or
twice in flight at one) before its command is published; the reducer or the
validator publishes the outcomes of each batch on this node's channel, in one
message, each carrying the request id it answers. A reply lost in transit
costs a timeout, and the client's retry with the same idempotency key returns
the first outcome from the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from typing import Any

import structlog

from shared.eventstore.keys import reply_channel
from shared.messaging.messages import Outcome, decode_outcomes

log = structlog.get_logger()


class Replies:
    def __init__(self, redis: Any, node: str) -> None:
        self.redis = redis
        self.node = node
        self._waiting: dict[str, asyncio.Future[Outcome]] = {}
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    async def start(self) -> None:
        self._task = asyncio.create_task(self._listen())
        await asyncio.wait_for(self._ready.wait(), timeout=10)

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def expect(self) -> tuple[str, asyncio.Future[Outcome]]:
        """A fresh request id and the future its outcome will complete."""
        request_id = uuid.uuid4().hex
        future: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = future
        return request_id, future

    def forget(self, request_id: str) -> None:
        self._waiting.pop(request_id, None)

    async def _listen(self) -> None:
        while True:
            try:
                async with self.redis.pubsub() as pubsub:
                    await pubsub.subscribe(reply_channel(self.node))
                    self._ready.set()
                    async for message in pubsub.listen():
                        if message["type"] == "message":
                            self._deliver(message["data"])
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("reply_listener_failed")
                await asyncio.sleep(0.5)

    def _deliver(self, raw: bytes) -> None:
        for outcome in decode_outcomes(raw):
            future = self._waiting.pop(outcome.request_id, None)
            if future is not None and not future.done():
                future.set_result(outcome)
