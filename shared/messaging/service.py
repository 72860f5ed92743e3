"""Run a pipeline service: settings, logging, its jobs, health, graceful stop.

The validator, the reducer and the projector differ only in the jobs they
build (a stream reader each, and the reducer's clock watch); everything else
about being a service lives here once. Services run on uvloop: every Redis
round trip is a trip through the event loop, and uvloop makes that trip
cheaper (see docs/performance.md).
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Awaitable, Callable
from typing import Any

import uvloop

from shared.infra.memory import freeze_startup_objects
from shared.infra.redis_client import store_client
from shared.infra.settings import Settings, load
from shared.observability import health, metrics
from shared.observability.logging import configure

Job = Callable[[asyncio.Event], Awaitable[Any]]
#: Builds the service's jobs (each receives the event that is set when it stops).
Setup = Callable[[Settings, Any], Awaitable[list[Job]]]


def run(service: str, setup: Setup) -> None:
    uvloop.run(_main(service, setup))


async def _main(service: str, setup: Setup) -> None:
    settings = load()
    log = configure(service, settings.node, settings.log_level)
    redis = store_client(settings)
    jobs = await setup(settings, redis)
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stopping.set)
    server = await health.serve(
        settings.http_host,
        settings.metrics_port,
        lambda: not stopping.is_set(),
        health.store_readiness(redis),
        metrics.registry(service),
    )
    freeze_startup_objects()
    tasks = [asyncio.create_task(job(stopping)) for job in jobs]
    log.info("started", metrics_port=settings.metrics_port, partitions=settings.partitions)
    await stopping.wait()
    log.info("stopping")
    # A reader finishes the batch in hand (its loop checks ``stopping``); a
    # batch cut off is not lost, only redelivered.
    _, late = await asyncio.wait(tasks, timeout=5.0)
    for task in late:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    server.close()
    await redis.aclose()
