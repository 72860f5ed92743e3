"""``python -m services.reducer``: the single writer of the partitions it owns.

A reducer owns the partitions p with ``p % reducer_count == reducer_index``
(static assignment, like Kafka's static membership): run one per index. Two
reducers that briefly claim the same partition cannot corrupt a game: every
append carries the expected version.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from services.reducer.handlers import GROUP, Reducer
from shared.eventstore.keys import validated_stream
from shared.eventstore.store import EventStore
from shared.eventstore.tables import TableCache
from shared.infra.settings import Settings
from shared.messaging.service import run
from shared.messaging.streams import StreamReader


def owned(settings: Settings) -> list[int]:
    return [p for p in range(settings.partitions) if p % settings.reducer_count == settings.reducer_index]


async def setup(settings: Settings, redis: Any) -> list[Callable[[asyncio.Event], Any]]:
    store = EventStore(redis)
    reducer = Reducer(
        store, TableCache(store), settings.snapshot_every, max_deliveries=settings.max_deliveries
    )
    partitions = owned(settings)
    reader = StreamReader.configured(redis, GROUP, settings, (validated_stream(p) for p in partitions))
    return [
        lambda stopping: reader.run(reducer, stopping),
        lambda stopping: reducer.watch_clocks(partitions, stopping),
    ]


if __name__ == "__main__":
    run("reducer", setup)
