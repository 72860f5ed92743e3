"""Condition waits for end-to-end tests: poll until true, or give up at a deadline."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable


async def until(condition: Callable[[], Awaitable[bool]], timeout_s: float, every_s: float = 0.2) -> bool:
    """True as soon as ``condition()`` holds; False if it still does not after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while True:
        if await condition():
            return True
        if time.monotonic() >= deadline:
            return False
        await asyncio.sleep(every_s)
