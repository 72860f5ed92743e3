"""The running system the tests that start every service play against: Valkey and
every service as its own process, with the rate limits out of the way unless a
test sets its own; and a gateway served in the test's own process, as
``python -m services.gateway`` serves it. Each fixture that runs one decides its
scope (how widely it is shared): the ``stack`` of tests/conftest.py is one per
worker, a module that needs a system of its own runs its own."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

import msgspec
import pytest
import uvicorn

from services.gateway.__main__ import server_config
from shared.infra.launcher import Stack
from shared.infra.settings import UNTHROTTLED, Settings
from shared.infra.valkey_server import free_port


def running_stack(
    tmp_path_factory: pytest.TempPathFactory, name: str, env: Mapping[str, str] = UNTHROTTLED
) -> Iterator[Stack]:
    """Started in a fresh folder named after ``name``; stopped when the fixture ends."""
    stack = Stack(tmp_path_factory.mktemp(name), partitions=4, env=dict(env))
    stack.start()
    try:
        yield stack
    finally:
        stack.stop()


@asynccontextmanager
async def served_gateway(settings: Settings, **state: Any) -> AsyncIterator[str]:
    """A gateway in this process on a free port (``state`` set on its app first): its base URL."""
    port = free_port()
    config = server_config(msgspec.structs.replace(settings, http_port=port))
    for name, value in state.items():
        setattr(config.app.state, name, value)
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:  # uvicorn sets a flag, no event  # noqa: ASYNC110
        await asyncio.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task
