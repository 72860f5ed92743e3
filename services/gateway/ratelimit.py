"""Per-token rate limits: a token bucket each, so one flooding client is
throttled while every other token keeps its full rate."""

from __future__ import annotations

import time
from collections import OrderedDict


class RateLimiter:
    def __init__(self, per_second: float, burst: int, max_tokens: int = 100_000) -> None:
        self.rate = per_second
        self.burst = float(burst)
        self.max_tokens = max_tokens
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, key: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        level, last = self._buckets.get(key, (self.burst, now))
        level = min(self.burst, level + (now - last) * self.rate)
        allowed = level >= 1.0
        self._buckets[key] = (level - 1.0 if allowed else level, now)
        self._buckets.move_to_end(key)
        if len(self._buckets) > self.max_tokens:
            self._buckets.popitem(last=False)
        return allowed
