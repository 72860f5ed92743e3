"""``python -m services.validator``: stateless; run as many as you like."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from services.validator.handlers import GROUP, Validator
from shared.eventstore.keys import command_stream
from shared.eventstore.rewinds import noticer
from shared.eventstore.store import EventStore
from shared.eventstore.tables import TableCache
from shared.infra.settings import Settings
from shared.messaging.service import run
from shared.messaging.streams import StreamReader


async def setup(settings: Settings, redis: Any) -> list[Callable[[asyncio.Event], Any]]:
    # A table it holds further on than the store (a failover lost writes) is marked and read again.
    validator = Validator(TableCache(EventStore(redis), noticed=noticer(redis, GROUP)), redis)
    reader = StreamReader.configured(
        redis, GROUP, settings, (command_stream(p) for p in range(settings.partitions))
    )
    return [lambda stopping: reader.run(validator, stopping)]


if __name__ == "__main__":
    run("validator", setup)
