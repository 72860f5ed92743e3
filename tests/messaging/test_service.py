"""A service's jobs are supervised: one that ends before the stop is started again."""

from __future__ import annotations

import asyncio

import pytest

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
