"""Per-token rate limits, and the control plane's broker wiring of one batch handler (in-memory broker)."""

from faststream.redis import TestRedisBroker

from services.gateway.ratelimit import RateLimiter
from shared.infra.settings import Settings
from shared.messaging.broker import consume, make_broker


def test_a_token_bucket_per_token() -> None:
    limiter = RateLimiter(per_second=2, burst=3)
    assert [limiter.allow("a", now=0.0) for _ in range(4)] == [True, True, True, False]
    assert limiter.allow("b", now=0.0), "another token keeps its own budget"
    assert limiter.allow("a", now=0.5) and not limiter.allow("a", now=0.5)


async def test_consume_hands_the_raw_batch_to_the_handler() -> None:
    broker = make_broker(Settings())
    seen: list[bytes] = []

    async def handler(batch: bytes) -> None:
        seen.append(batch)

    async def poisoned(body: bytes, error: str) -> None:
        raise AssertionError("nothing fails here")

    consume(broker, "zg:tournaments:commands", "tournaments", Settings(node="n"), handler, poisoned)
    async with TestRedisBroker(broker) as test_broker:
        await test_broker.publish(b'{"a":1}', stream="zg:tournaments:commands")
    assert seen and b'"a"' in seen[0]
