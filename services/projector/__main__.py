"""``python -m services.projector``: folds every partition feed into read models.

Several projectors may run: they share the ``projector`` consumer group, and
the checkpoint written with each read model keeps them from writing anything
twice.
"""

from __future__ import annotations

import asyncio
import signal

from services.projector.handlers import GROUP, Projector
from shared.eventstore.store import EventStore
from shared.eventstore.tables import TableCache
from shared.infra.redis_client import connect
from shared.infra.settings import load
from shared.messaging.feed_reader import FeedReader
from shared.observability import health
from shared.observability.logging import configure


async def main() -> None:
    settings = load()
    log = configure("projector", settings.node, settings.log_level)
    redis = connect(settings.redis_url, settings.cluster)
    projector = Projector(TableCache(EventStore(redis)), redis)
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stopping.set)
    server = await health.serve(settings.http_host, settings.metrics_port, lambda: not stopping.is_set())
    reader = FeedReader(redis, GROUP, settings.node, settings.batch, settings.reclaim_idle_ms)
    tasks = [asyncio.create_task(reader.run(projector, p, stopping)) for p in range(settings.partitions)]
    log.info("started", metrics_port=settings.metrics_port, partitions=settings.partitions)
    await stopping.wait()
    log.info("stopping")
    await asyncio.gather(*tasks, return_exceptions=True)
    server.close()
    await redis.aclose()


if __name__ == "__main__":
    asyncio.run(main())
