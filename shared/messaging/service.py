"""Run a service: settings, logging, its jobs, health, graceful stop.

The validator, the reducer, the projector and the platform process differ
only in the jobs they build (a stream reader each, the reducer's clock watch,
the platform's readers, runners and control-plane broker); everything else
about being a service lives here once. Services run on uvloop: every Redis
round trip is a trip through the event loop, and uvloop makes that trip
cheaper (see docs/performance.md).
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import uvloop

from shared.infra.memory import freeze_startup_objects
from shared.infra.redis_client import store_client
from shared.infra.settings import Settings, load
from shared.observability import health, metrics
from shared.observability.logging import configure

Job = Callable[[asyncio.Event], Awaitable[Any]]
Close = Callable[[], Awaitable[Any]]


@dataclass(frozen=True)
class Jobs:
    """A service's jobs and what they lean on to the end.

    ``closes`` run in order once every job has ended (or been cancelled):
    what a job may still publish through or wait on while it finishes (the
    control plane's broker, a reply listener) must outlive it.
    """

    jobs: list[Job]
    closes: list[Close] = field(default_factory=list)


#: Builds the service's jobs (each receives the event that is set when it stops).
Setup = Callable[[Settings, Any], Awaitable[list[Job] | Jobs]]
#: How long the jobs have to finish after the stop signal before they are cancelled.
STOP_S = 5.0


def run(service: str, setup: Setup, *, label: str | None = None) -> None:
    """``label``: the ``service`` label of its metrics, when not its name."""
    uvloop.run(_main(service, setup, label or service))


async def _main(service: str, setup: Setup, label: str) -> None:
    settings = load()
    log = configure(service, settings.node, settings.log_level)
    redis = store_client(settings)
    built = await setup(settings, redis)
    jobs, closes = (built.jobs, built.closes) if isinstance(built, Jobs) else (built, [])
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stopping.set)
    server = await health.serve(
        settings.http_host,
        settings.metrics_port,
        lambda: not stopping.is_set(),
        health.store_readiness(redis),
        metrics.registry(label),
    )
    freeze_startup_objects()
    tasks = [asyncio.create_task(job(stopping)) for job in jobs]
    log.info("started", metrics_port=settings.metrics_port, partitions=settings.partitions)
    await stopping.wait()
    log.info("stopping")
    # A reader finishes the batch in hand (its loop checks ``stopping``); a
    # batch cut off is not lost, only redelivered.
    _, late = await asyncio.wait(tasks, timeout=STOP_S)
    for task in late:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for close in closes:
        await close()
    server.close()
    await redis.aclose()
