"""Per-token rate limits (services/gateway/ratelimit.py)."""

from __future__ import annotations

from services.gateway.ratelimit import RateLimiter


def test_a_token_bucket_per_token() -> None:
    limiter = RateLimiter(per_second=2, burst=3)
    assert [limiter.allow("a", now=0.0) for _ in range(4)] == [True, True, True, False]
    assert limiter.allow("b", now=0.0), "another token keeps its own budget"
    assert limiter.allow("a", now=0.5) and not limiter.allow("a", now=0.5)
