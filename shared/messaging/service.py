"""Run a consumer service: settings, logging, broker, health, graceful stop.

The validator and the reducer differ only in the handler they build and the
streams they consume; everything else about being a service lives here once.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Awaitable, Callable
from typing import Any

from faststream.redis import RedisBroker

from shared.infra.redis_client import connect
from shared.infra.settings import Settings, load
from shared.messaging.broker import make_broker
from shared.observability import health
from shared.observability.logging import configure

#: Subscribes the service's handlers; returns background jobs to run while the
#: service is up (each receives the event that is set when it stops).
Setup = Callable[[Settings, RedisBroker, Any], Awaitable[list[Callable[[asyncio.Event], Awaitable[None]]]]]


def run(service: str, setup: Setup) -> None:
    asyncio.run(_main(service, setup))


async def _main(service: str, setup: Setup) -> None:
    settings = load()
    log = configure(service, settings.node, settings.log_level)
    redis = connect(settings.redis_url, settings.cluster)
    broker = make_broker(settings)
    jobs = await setup(settings, broker, redis)
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stopping.set)
    await broker.start()
    tasks = [asyncio.create_task(job(stopping)) for job in jobs]
    server = await health.serve(settings.http_host, settings.metrics_port, lambda: not stopping.is_set())
    log.info("started", metrics_port=settings.metrics_port, partitions=settings.partitions)
    await stopping.wait()
    log.info("stopping")
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    server.close()
    await broker.stop()
    await redis.aclose()
