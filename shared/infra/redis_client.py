"""One way to connect: a plain server or a Redis Cluster, chosen by settings."""

from __future__ import annotations

from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster


def connect(url: str, cluster: bool = False) -> Any:
    if cluster:
        return RedisCluster.from_url(url)
    return aioredis.Redis.from_url(url)


def connect_listener(url: str) -> Any:
    """A plain connection for SUBSCRIBE. In a cluster PUBLISH reaches every
    node, so listening on the node named in the URL hears everything."""
    return aioredis.Redis.from_url(url)
