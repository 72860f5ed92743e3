"""Server-side scripts, sent as ``EVALSHA`` straight into pipelines.

redis-py's ``Script`` object asks the server ``SCRIPT EXISTS`` before every
pipeline that holds it: one more round trip per batch, the most expensive
thing a batch does. Here a script is queued by its digest, and a server that
does not know it (after a restart, its script cache is empty) answers
``NOSCRIPT`` for exactly those calls: the script is loaded and just those
calls run again. Every script here is safe to re-run (each checks a version or
a checkpoint first).

A Redis Cluster refuses scripts inside pipelines, so there the calls go out
concurrently, one per slot owner.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable, Sequence
from typing import Any

from redis.asyncio.cluster import RedisCluster
from redis.exceptions import NoScriptError

Call = tuple[Sequence[str], Sequence[Any]]  # (keys, args)


def is_cluster(redis: Any) -> bool:
    return isinstance(redis, RedisCluster)


class LuaScript:
    def __init__(self, source: str) -> None:
        self.source = source
        self.sha = hashlib.sha1(source.encode()).hexdigest()

    def queue(self, pipe: Any, keys: Sequence[str], args: Sequence[Any]) -> None:
        pipe.evalsha(self.sha, len(keys), *keys, *args)

    async def call(self, redis: Any, keys: Sequence[str], args: Sequence[Any]) -> Any:
        try:
            return await redis.evalsha(self.sha, len(keys), *keys, *args)
        except NoScriptError:
            await redis.script_load(self.source)  # a cluster loads it on every primary
            return await redis.evalsha(self.sha, len(keys), *keys, *args)

    async def run(
        self,
        redis: Any,
        calls: Sequence[Call],
        then: Callable[[Any], None] | None = None,
    ) -> list[Any]:
        """Run every call in one round trip; ``then`` queues more commands after them.

        Returns the scripts' results in order. Commands queued by ``then`` run
        in the same pipeline on one server, and in a pipeline of their own
        (after the scripts) on a cluster. They run even when a script has to be
        loaded and re-run, so they must not depend on the scripts' success.
        """
        if is_cluster(redis):
            results = list(await asyncio.gather(*(self.call(redis, k, a) for k, a in calls)))
            if then is not None:
                async with redis.pipeline(transaction=False) as pipe:
                    then(pipe)
                    await pipe.execute()
            return results
        async with redis.pipeline(transaction=False) as pipe:
            for keys, args in calls:
                self.queue(pipe, keys, args)
            if then is not None:
                then(pipe)
            replies = await pipe.execute(raise_on_error=False)
        results = replies[: len(calls)]
        for reply in replies:
            if isinstance(reply, Exception) and not isinstance(reply, NoScriptError):
                raise reply
        missing = [i for i, r in enumerate(results) if isinstance(r, NoScriptError)]
        if missing:
            await redis.script_load(self.source)
            async with redis.pipeline(transaction=False) as pipe:
                for i in missing:
                    self.queue(pipe, *calls[i])
                for i, reply in zip(missing, await pipe.execute(), strict=True):
                    results[i] = reply
        return results
