"""Fixtures shared by the whole suite.

Integration tests run against a real Valkey server that the suite starts
itself (one per test worker), never a stand-in.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator

import pytest
from hypothesis import HealthCheck, settings

from shared.infra.launcher import Stack
from shared.infra.redis_client import connect
from shared.infra.valkey_server import ValkeyServer, free_port
from tests.support.stacks import running_stack

# Wall-clock limits belong in benchmarks: on a loaded machine (CI's two cores,
# a whole suite side by side) a property's example may take longer than
# Hypothesis's 200 ms, and that says nothing about the property.
settings.register_profile("ziggurat", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ziggurat")

# The fixture game is importable by every process the tests start.
os.environ.setdefault("ZIGGURAT_EXTRA_GAMES", "tests.support.highcard")

# Fixtures kept beside their helpers in tests/support, registered here so that
# they reach every test that asks for them, whichever package it sits in.
pytest_plugins = ["tests.support.browser", "tests.support.replicas"]


def served(
    tmp_path_factory: pytest.TempPathFactory, name: str, durable: bool = True
) -> Iterator[ValkeyServer]:
    """A Valkey server of the suite's own, in a fresh folder; stopped when the fixture ends."""
    server = ValkeyServer(tmp_path_factory.mktemp(name), port=free_port(), durable=durable).start()
    try:
        yield server
    finally:
        server.stop()


async def emptied(server: ValkeyServer) -> AsyncIterator[object]:
    """A client of ``server``, which is emptied first: each test starts from nothing."""
    client = connect(server.url)
    await client.flushall()
    try:
        yield client
    finally:
        await client.aclose()


@pytest.fixture
def fresh_metrics() -> Iterator[None]:
    """The process's metrics as a fresh process has them, for the test's length.

    The metrics are module-level objects, one set per process, as each service
    is one process; the suite runs many services' code in one worker, so a test
    that ran a stage before (a validator parking a message) leaves its counts in
    them. Every metric is swapped for a fresh one in place (its state only:
    what holds it keeps it) and given back afterwards."""
    from shared.observability import metrics

    kept = [(metric, dict(vars(metric))) for metric in metrics.OWNERS]
    for metric in metrics.OWNERS:
        if metric._labelnames:
            metric.clear()
        else:
            metric._metric_init()  # type: ignore[no-untyped-call]
    try:
        yield
    finally:
        for metric, state in kept:
            vars(metric).clear()
            vars(metric).update(state)


@pytest.fixture(scope="session")
def valkey(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ValkeyServer]:
    yield from served(tmp_path_factory, "valkey")


@pytest.fixture
async def redis(valkey: ValkeyServer) -> AsyncIterator[object]:
    async for client in emptied(valkey):
        yield client


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """One running system (Valkey + every service as its own process) per test worker.

    A module that needs a system of its own (other settings, or faults that must
    not reach the other tests) defines its own ``stack`` fixture, which overrides
    this one for that module."""
    yield from running_stack(tmp_path_factory, "stack")


def pytest_itemcollected(item: pytest.Item) -> None:
    # `make check` leaves out whatever needs Valkey, the running services or a
    # browser by marker, and `make test` runs the browser tests apart by marker:
    # a test that reaches them through a fixture is marked even when its module
    # forgot to say so.
    needs = getattr(item, "fixturenames", ())
    if "browser" in needs:
        item.add_marker(pytest.mark.browser)
    elif "stack" in needs:
        item.add_marker(pytest.mark.e2e)
    elif "valkey" in needs:
        item.add_marker(pytest.mark.integration)
