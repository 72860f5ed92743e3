"""Where the game read models live: the store's own server (the default), or
a second server of their own, which may run without AOF (``read_model_url``).

The rule: what the projector writes (views, audience feeds with the history,
checkpoints, the live-table sets) lives on the read-model server; everything
else (logs, partition feeds, auth hashes, indexes, the tournament, player and
arena documents, which their writers keep in the same scripts as their own
state) stays on the store. Change notices go out on the store, after the data
they announce is confirmed written, and the gateway listens there.

A server without AOF comes back empty after a restart. Its ``ready`` markers,
one per partition, say that it holds every game's read models: written after
a complete rebuild, or when a projector first starts on an empty store. A
projector finding one missing rebuilds before it acknowledges anything more;
a gateway finding a view missing answers "rebuilding" rather than "no such
table".
"""

from __future__ import annotations

from typing import Any

from shared.eventstore.keys import PREFIX, tag
from shared.infra.redis_client import StoreTimeouts, connect
from shared.infra.settings import Settings

#: Taken by the projector that rebuilds (the others wait); expires if it dies.
REBUILD_LOCK = f"{PREFIX}:read-models:rebuilding"


def ready_marker(partition: int) -> str:
    """Present when the read-model server holds the partition's games' models
    (in the partition's slot: the projector's write script checks it)."""
    return f"{PREFIX}:{tag(partition)}:read-models:ready"


def separate(settings: Settings) -> bool:
    """Whether the read models have a server of their own."""
    return bool(settings.read_model_url) and settings.read_model_url != settings.redis_url


def read_model_client(settings: Settings, store: Any) -> Any:
    """The client for the read models: ``store`` itself when they share its server."""
    if not separate(settings):
        return store
    return connect(settings.read_model_url, settings.cluster, StoreTimeouts.of(settings))


async def missing(read: Any, partitions: int) -> bool:
    """Whether any partition's marker is absent (the server lost its models)."""
    async with read.pipeline(transaction=False) as pipe:
        for p in range(partitions):
            pipe.exists(ready_marker(p))
        found = await pipe.execute()
    return not all(found)


async def mark_ready(read: Any, partitions: int) -> None:
    async with read.pipeline(transaction=False) as pipe:
        for p in range(partitions):
            pipe.set(ready_marker(p), b"1")
        await pipe.execute()
