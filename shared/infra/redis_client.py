"""One way to connect: a plain server or a Redis Cluster, chosen by settings."""

from __future__ import annotations

import asyncio
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster

from shared.infra.lua import is_cluster


def connect(url: str, cluster: bool = False) -> Any:
    if cluster:
        return RedisCluster.from_url(url)
    return aioredis.Redis.from_url(url)


def connect_listener(url: str) -> Any:
    """A plain connection for SUBSCRIBE. In a cluster PUBLISH reaches every
    node, so listening on the node named in the URL hears everything."""
    return aioredis.Redis.from_url(url)


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

    def queue(self, pipe: Any, messages: list[tuple[str, bytes | str]]) -> None:
        if not self.cluster:
            for channel, message in messages:
                pipe.publish(channel, message)

    async def after(self, messages: list[tuple[str, bytes | str]]) -> None:
        if not self.cluster or not messages:
            return
        if self._plain is None:  # the cluster client knows its nodes once connected
            await self.redis.initialize()
            node = self.redis.get_default_node()
            self._plain = aioredis.Redis(host=node.host, port=node.port)
        await asyncio.gather(*(self._plain.publish(channel, message) for channel, message in messages))
