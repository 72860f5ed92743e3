"""One way to connect: a plain server or a Redis Cluster, chosen by settings."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, cast

import hiredis
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import DataError

from shared.infra.lua import is_cluster
from shared.infra.wire import LeanRedis, Wire
from shared.observability import metrics


class PackedConnection(aioredis.Connection):
    """Commands serialised by hiredis (C) instead of redis-py's Python packer.

    The asyncio client packs every argument in Python; for a pipeline of Lua
    calls with dozens of arguments each that was the largest single CPU cost
    of the validator, reducer and projector (bench/, with ``--profile``).
    hiredis produces the same bytes about four times faster. It also counts
    round trips (a pipeline is one), which is what the pipeline's design
    minimises and ``bench.pipeline`` reports per command.
    """

    async def send_packed_command(self, command: Any, check_health: bool = True) -> None:
        metrics.REDIS_ROUND_TRIPS.inc()
        await super().send_packed_command(command, check_health)

    def pack_command(self, *args: Any) -> list[bytes]:
        # Like redis-py: a command name with a space ("SCRIPT LOAD") is sent as two words.
        first = args[0]
        if isinstance(first, str):
            args = (*first.encode().split(), *args[1:])
        elif b" " in first:
            args = (*first.split(), *args[1:])
        try:
            return [hiredis.pack_command(args)]
        except TypeError as exc:  # redis-py's error for an argument it cannot send
            raise DataError(str(exc)) from exc


def connect(url: str, cluster: bool = False) -> Any:
    if cluster:
        # A cluster client builds its node connections itself (redis-py's packer).
        return RedisCluster.from_url(url)
    # Pipelines and plain commands over the thin path (shared/infra/wire.py);
    # transactions and pub/sub through redis-py's pool of packed connections.
    client = cast(LeanRedis, LeanRedis.from_url(url, connection_class=PackedConnection))
    client.wire = Wire.from_url(url)
    return client


def connect_listener(url: str) -> Any:
    """A plain connection for SUBSCRIBE. In a cluster PUBLISH reaches every
    node, so listening on the node named in the URL hears everything."""
    return aioredis.Redis.from_url(url, connection_class=PackedConnection)


class Publisher:
    """PUBLISH that works on one server and on a cluster.

    On one server the messages ride in the caller's pipeline. A cluster's
    pipelines refuse PUBLISH, so there they go out right after the pipeline,
    through a plain connection to one node (a PUBLISH reaches every node).
    """

    def __init__(self, redis: Any) -> None:
        self.redis = redis
        self.cluster = is_cluster(redis)
        self._plain: Any = None

    def queue(self, pipe: Any, messages: Sequence[tuple[str, bytes | str]]) -> None:
        if not self.cluster:
            for channel, message in messages:
                pipe.publish(channel, message)

    async def after(self, messages: Sequence[tuple[str, bytes | str]]) -> None:
        if not self.cluster or not messages:
            return
        if self._plain is None:  # the cluster client knows its nodes once connected
            await self.redis.initialize()
            node = self.redis.get_default_node()
            self._plain = aioredis.Redis(host=node.host, port=node.port)
        await asyncio.gather(*(self._plain.publish(channel, message) for channel, message in messages))
