"""The wall clock, in the milliseconds every event's ``at_ms`` and every index score carries."""

from __future__ import annotations

import time


def now_ms() -> int:
    return time.time_ns() // 1_000_000
