"""``python -m services.reducer``: the single writer of the partitions whose leases it holds.

Run as many as you like, all alike: each takes its fair share of the
partitions through leases (``services/reducer/ownership.py``), takes over
those of a reducer that died within a few seconds, and gives some up when
another starts. Every append carries the lease's fencing token and the
expected version, so a reducer that lost a lease (paused past it, say) can
never write for it again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from services.reducer.handlers import Reducer
from services.reducer.ownership import Ownership
from shared.eventstore.rewinds import noticer
from shared.eventstore.store import EventStore
from shared.eventstore.tables import TableCache
from shared.infra import durability
from shared.infra.settings import Settings
from shared.messaging.service import run


async def setup(settings: Settings, redis: Any) -> list[Callable[[asyncio.Event], Any]]:
    store = EventStore(redis, durable=durability.configured(settings))
    # A table it holds further on than the store (a failover lost writes) is marked and read again.
    cache = TableCache(store, noticed=noticer(redis, "reducer"))
    ownership = Ownership(redis, settings, cache)
    reducer = Reducer(
        store,
        cache,
        settings.snapshot_every,
        max_deliveries=settings.max_deliveries,
        leases=ownership,
        takeover=settings.takeover_level,
    )
    return [
        lambda stopping: ownership.run(reducer, stopping),
        lambda stopping: reducer.watch_clocks(ownership.owned, stopping),
    ]


if __name__ == "__main__":
    run("reducer", setup)
