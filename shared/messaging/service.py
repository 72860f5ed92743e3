"""Run a service: settings, logging, its jobs, health, graceful stop.

The validator, the reducer, the projector and the platform process differ
only in the jobs they build (a stream reader each, the reducer's clock watch,
the platform's readers, runners and control-plane broker); everything else
about being a service lives here once. :func:`host` runs several stages in
one process (``python -m services.stages``): each builds the same jobs as on
its own (its streams, its consumer group, its leases), logs and counts under
its own name, and only the process, its connections and its health endpoint
are shared. Services run on uvloop: every Redis
round trip is a trip through the event loop, and uvloop makes that trip
cheaper (see docs/performance.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import structlog
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
#: A job that ends before the stop is started again after this pause, doubled
#: each time it ends again soon after, up to :data:`RESTART_MAX_S`.
RESTART_S = 0.5
RESTART_MAX_S = 30.0


def run(service: str, setup: Setup, *, label: str | None = None) -> None:
    """``label``: the ``service`` label of its metrics, when not its name."""
    uvloop.run(_main(service, {label or service: setup}))


def host(process: str, stages: Mapping[str, Setup]) -> None:
    """Several stages (``{service: setup}``) in one process named ``process``."""
    uvloop.run(_main(process, stages))


async def _main(process: str, stages: Mapping[str, Setup]) -> None:
    settings = load()
    log = configure(process, settings.node, settings.log_level)
    redis = store_client(settings)
    labelled: list[tuple[str, Job]] = []
    closes: list[Close] = []
    for label, setup in stages.items():
        built = await setup(settings, redis)
        jobs = built.jobs if isinstance(built, Jobs) else built
        labelled += [(label, job) for job in jobs]
        closes += built.closes if isinstance(built, Jobs) else []
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stopping.set)
    server = await health.serve(
        settings.http_host,
        settings.metrics_port,
        lambda: not stopping.is_set(),
        health.store_readiness(redis),
        metrics.registry(*stages),
    )
    freeze_startup_objects()
    tasks = [
        asyncio.create_task(supervised(job, stopping, label, named=len(stages) > 1))
        for label, job in labelled
    ]
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


async def supervised(job: Job, stopping: asyncio.Event, label: str, *, named: bool = False) -> None:
    """Run ``job`` until the stop, starting it again whenever it ends before.

    ``named``: the job's log lines say ``label`` as their service (a stage
    hosted beside others), so each reads as it would from a process of its own.

    A job is a loop meant to run until the stop (a stream reader, a watch):
    one that ends early, by an error that escaped it or by returning, would
    leave its work undone while the process looks healthy (its partitions'
    entries pending for nobody). It is logged, counted and started again; a
    reader starts by re-reading its own pending entries, so nothing is lost.
    """
    if named:  # the task's own context: what the job logs, and the tasks it starts
        structlog.contextvars.bind_contextvars(service=label)
    log = structlog.get_logger()
    pause = RESTART_S
    while not stopping.is_set():
        started = asyncio.get_running_loop().time()
        try:
            await job(stopping)
            if stopping.is_set():
                return
            log.error("job_returned", job=_name(job))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("job_failed", job=_name(job))
        metrics.ERRORS.labels(label, "job").inc()
        if asyncio.get_running_loop().time() - started > RESTART_MAX_S:
            pause = RESTART_S  # it ran a good while: not a crash loop
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stopping.wait(), pause)
        pause = min(2 * pause, RESTART_MAX_S)


def _name(job: Job) -> str:
    return getattr(job, "__qualname__", repr(job))
