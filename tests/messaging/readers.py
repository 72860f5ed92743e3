"""Running a stream reader in a test until a condition holds."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from shared.messaging.streams import StreamReader
from tests.support.waiting import until


async def run_until(
    reader: StreamReader, handler: Any, done: Callable[[], Awaitable[bool]], every_s: float = 0.02
) -> None:
    """Run ``reader`` with ``handler`` until ``done()`` holds (15 s at most), then stop it."""
    stopping = asyncio.Event()
    task = asyncio.create_task(reader.run(handler, stopping))
    try:
        assert await until(done, 15, every_s=every_s)
    finally:
        stopping.set()
        await asyncio.wait_for(task, 5)
