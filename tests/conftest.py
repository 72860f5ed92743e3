"""Fixtures shared by the whole suite.

Integration tests run against a real Valkey server that the suite starts
itself (one per test worker), never a stand-in.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator

import pytest

from shared.infra.redis_client import connect
from shared.infra.valkey_server import ValkeyServer, free_port

# The fixture game is importable by every process the tests start.
os.environ.setdefault("ZIGGURAT_EXTRA_GAMES", "tests.fixtures.highcard")


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


@pytest.fixture(scope="session")
def valkey(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ValkeyServer]:
    yield from served(tmp_path_factory, "valkey")


@pytest.fixture
async def redis(valkey: ValkeyServer) -> AsyncIterator[object]:
    async for client in emptied(valkey):
        yield client


def pytest_itemcollected(item: pytest.Item) -> None:
    # `make check` leaves out whatever needs Valkey or the running services by
    # marker: a test that reaches them through a fixture is marked even when
    # its module forgot to say so.
    needs = getattr(item, "fixturenames", ())
    if "stack" in needs:
        item.add_marker(pytest.mark.e2e)
    elif "valkey" in needs:
        item.add_marker(pytest.mark.integration)
