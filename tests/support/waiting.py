"""Condition waits for every test that drives real processes: poll a condition
until it holds, or give up at a deadline.

A test waits for what it needs to see, never for a fixed time: a fixed sleep
is too short on a loaded machine and wasted on an idle one. The blocking
forms serve the tests that are not async.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")


async def eventually(
    probe: Callable[[], Awaitable[T | None]], timeout_s: float, every_s: float = 0.2
) -> T | None:
    """The first value ``probe()`` gives other than None; None if it gave none within ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while True:
        found = await probe()
        if found is not None:
            return found
        if time.monotonic() >= deadline:
            return None
        await asyncio.sleep(every_s)


async def until(condition: Callable[[], Awaitable[bool]], timeout_s: float, every_s: float = 0.2) -> bool:
    """True as soon as ``condition()`` holds; False if it still does not after ``timeout_s``."""

    async def holds() -> bool | None:
        return True if await condition() else None

    return await eventually(holds, timeout_s, every_s) is not None


def eventually_blocking(probe: Callable[[], T | None], timeout_s: float, every_s: float = 0.2) -> T | None:
    """:func:`eventually` for a test that is not async."""
    deadline = time.monotonic() + timeout_s
    while True:
        found = probe()
        if found is not None:
            return found
        if time.monotonic() >= deadline:
            return None
        time.sleep(every_s)


def until_blocking(condition: Callable[[], bool], timeout_s: float, every_s: float = 0.2) -> bool:
    """:func:`until` for a test that is not async."""
    return eventually_blocking(lambda: True if condition() else None, timeout_s, every_s) is not None
