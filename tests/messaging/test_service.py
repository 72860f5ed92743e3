"""A service's jobs are supervised: one that ends before the stop is started again."""

from __future__ import annotations

import asyncio

import pytest
import structlog

from shared.messaging import service
from shared.observability import metrics


@pytest.fixture(autouse=True)
def quick_restarts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service, "RESTART_S", 0.01)


def _restarts() -> float:
    return metrics.ERRORS.labels("validator", "job")._value.get()


async def test_a_job_that_fails_is_started_again_until_the_stop() -> None:
    stopping = asyncio.Event()
    runs: list[int] = []
    third = asyncio.Event()

    async def job(stopping: asyncio.Event) -> None:
        runs.append(len(runs))
        if len(runs) < 3:
            raise RuntimeError("a reader's bug")
        third.set()
        await stopping.wait()

    before = _restarts()
    task = asyncio.create_task(service.supervised(job, stopping, "validator"))
    await asyncio.wait_for(third.wait(), 1)
    assert not task.done(), "the third run goes on until the stop"
    stopping.set()
    await asyncio.wait_for(task, 1)
    assert runs == [0, 1, 2]
    assert _restarts() - before == 2


async def test_a_job_that_returns_early_is_started_again() -> None:
    stopping = asyncio.Event()
    runs = 0

    async def job(stopping: asyncio.Event) -> None:
        nonlocal runs
        runs += 1
        if runs == 2:
            stopping.set()

    await asyncio.wait_for(service.supervised(job, stopping, "validator"), 1)
    assert runs == 2, "it returned before the stop, so it ran again; the stop ended it"


async def test_a_stop_during_the_pause_ends_it_at_once() -> None:
    stopping = asyncio.Event()

    async def job(stopping: asyncio.Event) -> None:
        stopping.set()  # the stop comes while it fails
        raise RuntimeError("failed as the stop came")

    await asyncio.wait_for(service.supervised(job, stopping, "validator"), 1)


async def test_stages_hosted_together_each_log_and_count_under_their_own_name() -> None:
    """A stage beside others (services/stages) logs as its own service, and so does
    every task it starts; its restarts are counted under its own name."""
    stopping = asyncio.Event()
    seen: dict[str, list[str]] = {"reducer": [], "projector": []}
    started = asyncio.Event()

    def stage(name: str) -> service.Job:
        async def job(stopping: asyncio.Event) -> None:
            async def child() -> str:
                return str(structlog.contextvars.get_contextvars().get("service"))

            seen[name] += [
                str(structlog.contextvars.get_contextvars().get("service")),
                await asyncio.create_task(child()),
            ]
            if len(seen[name]) < 4:
                raise RuntimeError("fails once, then runs")
            if all(len(v) == 4 for v in seen.values()):
                started.set()
            await stopping.wait()

        return job

    structlog.contextvars.bind_contextvars(service="stages")
    before = metrics.ERRORS.labels("reducer", "job")._value.get()
    tasks = [asyncio.create_task(service.supervised(stage(n), stopping, n, named=True)) for n in seen]
    await asyncio.wait_for(started.wait(), 2)
    stopping.set()
    await asyncio.gather(*tasks)
    assert seen == {"reducer": ["reducer"] * 4, "projector": ["projector"] * 4}
    assert metrics.ERRORS.labels("reducer", "job")._value.get() - before == 1
    assert structlog.contextvars.get_contextvars()["service"] == "stages", (
        "the process's own name is untouched"
    )
    structlog.contextvars.clear_contextvars()


def test_the_stage_host_exports_every_hosted_stages_metrics() -> None:
    hosted = ("validator", "reducer", "projector")
    families = {m.name for m in metrics.registry(*hosted).collect()}
    for stage in hosted:
        missing = {n.removesuffix("_total") for n in metrics.owned(stage)} - families
        assert not missing, f"{stage}: {missing}"
    with pytest.raises(ValueError, match="unknown services"):
        metrics.registry("validator", "stages")
    with pytest.raises(ValueError):
        metrics.registry()


def test_the_stage_host_hosts_the_stages_it_is_told_in_the_pipelines_order() -> None:
    from services.stages.__main__ import chosen

    assert list(chosen("projector, validator")) == ["validator", "projector"]
    assert list(chosen("validator,reducer,projector")) == ["validator", "reducer", "projector"]
    with pytest.raises(SystemExit, match="no stage called gateway"):
        chosen("validator,gateway")
    with pytest.raises(SystemExit, match="names no stage"):
        chosen(" , ")
