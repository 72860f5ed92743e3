"""``python -m services.validator``: stateless; run as many as you like."""

from __future__ import annotations

from typing import Any

from faststream.redis import RedisBroker

from services.validator.handlers import Validator
from shared.eventstore.keys import command_stream
from shared.eventstore.store import EventStore
from shared.eventstore.tables import TableCache
from shared.infra.settings import Settings
from shared.messaging.broker import consume, publisher
from shared.messaging.service import run


async def setup(settings: Settings, broker: RedisBroker, redis: Any) -> list[Any]:
    validator = Validator(TableCache(EventStore(redis)), redis, publisher(broker))
    for partition in range(settings.partitions):
        consume(broker, command_stream(partition), "validator", settings, validator.handle)
    return []


if __name__ == "__main__":
    run("validator", setup)
