"""Many concurrent one-command requests, one pipeline.

A gateway serves many requests at once, and each would await its own Redis
round trip (about 130 µs of client CPU each, more than the command costs
the server). Requests that arrive in the same turn of the event loop queue
their command here instead; the queue goes out as one pipeline at the end of
the turn, and each request gets its own reply (or its own error). Under light
load a request waits for nothing: the flush is scheduled immediately.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

Queue = Callable[[Any], Any]  # queues one command on the pipeline it is given


class Coalescer:
    def __init__(self, redis: Any) -> None:
        self.redis = redis
        self._pending: list[tuple[Queue, asyncio.Future[Any]]] = []
        self._tasks: set[asyncio.Task[None]] = set()

    async def run(self, queue: Queue) -> Any:
        return await self.queue(queue)

    def queue(self, queue: Queue) -> asyncio.Future[Any]:
        """The command queued, its reply (or error) left to the future returned:
        for a caller that waits for something else after it, and learns of its
        failure by a callback rather than by waking up for its reply."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._pending.append((queue, future))
        if len(self._pending) == 1:
            loop.call_soon(self._flush)
        return future

    async def get(self, key: str) -> Any:
        return await self.run(lambda pipe: pipe.get(key))

    def _flush(self) -> None:
        batch, self._pending = self._pending, []
        task = asyncio.get_running_loop().create_task(self._send(batch))
        self._tasks.add(task)  # keep a reference until it is done
        task.add_done_callback(self._tasks.discard)

    async def _send(self, batch: list[tuple[Queue, asyncio.Future[Any]]]) -> None:
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for queue, _ in batch:
                    queue(pipe)
                each = getattr(pipe, "execute_each", None)
                if each is not None:
                    # A cluster's: each request is answered as soon as its node is,
                    # so a node that is slow to fail holds up only its own requests.
                    await each(lambda i, reply: _settle(batch[i][1], reply))
                    return
                replies = await pipe.execute(raise_on_error=False)
        except BaseException as exc:  # the connection failed: every request hears it
            for _, future in batch:
                if future.done():
                    continue
                if isinstance(exc, asyncio.CancelledError):
                    future.cancel()
                else:
                    future.set_exception(exc)
            if not isinstance(exc, Exception):
                raise
            return
        for (_, future), reply in zip(batch, replies, strict=True):
            _settle(future, reply)


def _settle(future: asyncio.Future[Any], reply: Any) -> None:
    if future.done():  # the request gave up waiting
        return
    if isinstance(reply, Exception):
        future.set_exception(reply)
    else:
        future.set_result(reply)
