"""``python -m services.projector``: folds every partition feed into read models.

Several projectors may run: they share the ``projector`` consumer group, and
the checkpoint written with each read model keeps them from writing anything
twice.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import structlog

from services.projector.handlers import GROUP, Projector
from services.projector.restore import Restorer
from shared.eventstore import game_index
from shared.eventstore.keys import partition_feed
from shared.eventstore.rewinds import noticer
from shared.eventstore.store import EventStore
from shared.eventstore.tables import TableCache
from shared.infra.settings import Settings
from shared.messaging.service import run
from shared.messaging.streams import TRANSIENT, StreamReader
from shared.readmodels.server import read_model_client, separate

log = structlog.get_logger()


async def setup(settings: Settings, redis: Any) -> list[Callable[[asyncio.Event], Any]]:
    if adopted := await game_index.adopt_legacy(redis, settings.partitions):
        log.warning("games_index_spread", games=adopted)
    reader = StreamReader.configured(
        redis, GROUP, settings, (partition_feed(p) for p in range(settings.partitions))
    )
    if not separate(settings):
        projector = Projector(TableCache(EventStore(redis), noticed=noticer(redis, GROUP)), redis)
        return [lambda stopping: reader.run(projector, stopping)]
    read = read_model_client(settings, redis)
    restorer = Restorer(redis, read, settings.partitions, settings.node)
    projector = Projector(TableCache(EventStore(redis), noticed=noticer(redis, GROUP)), redis, read, restorer)

    async def project(stopping: asyncio.Event) -> None:
        # An empty server (a first start, a restart) is rebuilt first; one not
        # reachable yet is waited for, as the reader waits out an outage.
        while not stopping.is_set():
            try:
                await restorer.ensure()
                break
            except TRANSIENT:
                log.warning("read_models_unreachable", exc_info=True)
                await asyncio.sleep(1.0)
        await reader.run(projector, stopping)

    return [project, restorer.watch]


if __name__ == "__main__":
    run("projector", setup)
