"""Waiting for outcomes: one pub/sub subscription per gateway process.

Each request registers a future under a request id of its own (never the
client's idempotency key, which two requests may share: at two tables, or
twice in flight at one) before its command is published; the reducer or the
validator publishes the outcomes of each batch on this node's channel, in one
message, each carrying the request id it answers. A reply lost in transit
costs a timeout, and the client's retry with the same idempotency key returns
the first outcome from the store. The subscription follows the store's nodes
(:class:`~shared.infra.redis_client.Subscriber`), on two of them at once, so
the failure of one loses no reply.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import secrets

from shared.eventstore.keys import reply_channel
from shared.infra.redis_client import Subscriber
from shared.messaging.messages import Outcome, decode_outcomes


class Replies:
    def __init__(self, subscriber: Subscriber, node: str, service: str = "gateway") -> None:
        self.subscriber = subscriber
        self.node = node
        self.service = service
        self._waiting: dict[str, asyncio.Future[Outcome]] = {}
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        # Request ids: 64 random bits of this process's own and a count (a tenth
        # of a uuid4's cost, a move's hot path): unique within the process, and a
        # late reply to an earlier process on this node matches none of its requests.
        self._prefix = secrets.token_hex(8)
        self._count = itertools.count(1)

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
        request_id = f"{self._prefix}{next(self._count):x}"
        future: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = future
        return request_id, future

    def forget(self, request_id: str) -> None:
        self._waiting.pop(request_id, None)

    async def _listen(self) -> None:
        # On two nodes at once: a node that fails loses no reply.
        channel = reply_channel(self.node)
        async for raw in self.subscriber.messages(channel, self._ready.set, self.service, copies=2):
            self._deliver(raw)

    def _deliver(self, raw: bytes) -> None:
        for outcome in decode_outcomes(raw):
            future = self._waiting.pop(outcome.request_id, None)
            if future is not None and not future.done():
                future.set_result(outcome)
