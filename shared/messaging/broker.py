"""The control plane's broker: FastStream on Redis, configured once.

Organiser commands travel from the gateways to the tournament service here,
read in batches through a consumer group. Each stream also gets a reclaim
subscriber in the same group: it claims messages another consumer (or this
one, before a crash) left unacknowledged for longer than
``settings.reclaim_idle_ms``, so nothing delivered is ever lost. The game
pipeline's hot path reads its streams itself (``shared.messaging.streams``).
"""

from __future__ import annotations

import asyncio
import traceback
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
import structlog
from faststream.redis import RedisBroker, RedisClusterBroker, StreamSub

from shared.infra.settings import Settings
from shared.messaging.streams import TRANSIENT
from shared.observability import metrics

#: Receives the batch as one JSON array of the message bodies.
BatchHandler = Callable[[bytes], Awaitable[Any]]
#: Parks one message (its JSON body) that failed every delivery, with the error.
Poisoned = Callable[[bytes, str], Awaitable[None]]
log = structlog.get_logger()


def make_broker(settings: Settings) -> RedisBroker:
    # logger=None: FastStream's per-message INFO lines cost 15-20% of
    # throughput; our handlers log what matters with the shared fields.
    # apply_types=False: dependency injection resolved per batch costs a
    # worker-thread hop (about 1.5 ms at small batches, measured in bench/);
    # our handlers decode the batch themselves with msgspec.
    if settings.cluster:
        return RedisClusterBroker(settings.redis_url, logger=None, apply_types=False)
    return RedisBroker(settings.redis_url, logger=None, apply_types=False)


def consume(
    broker: RedisBroker,
    stream: str,
    group: str,
    settings: Settings,
    handler: BatchHandler,
    poisoned: Poisoned,
) -> None:
    """Subscribe ``handler`` to new and to abandoned messages of ``stream``;
    ``poisoned(body, error)`` parks a message that keeps failing."""

    async def on_batch(bodies: list[Any]) -> None:
        try:
            # Re-encoding the decoded bodies is a few microseconds per message
            # and lets msgspec decode them straight into our typed structs.
            await handler(msgspec.json.encode(bodies))
            return
        except TRANSIENT:
            # Unacknowledged: the reclaim subscriber retries the batch later.
            metrics.ERRORS.labels(group, "batch").inc()
            log.exception("batch_failed", stream=stream)
            raise
        except Exception:
            metrics.ERRORS.labels(group, "batch").inc()
            log.warning("batch_failed_isolating", stream=stream, size=len(bodies), exc_info=True)
        # One message at a time, each tried a few times; one that keeps
        # failing is parked, so the batch is acknowledged and nothing waits on it.
        for body in bodies:
            one = msgspec.json.encode([body])
            for attempt in range(1, settings.max_deliveries + 1):
                try:
                    await handler(one)
                    break
                except TRANSIENT:
                    raise
                except Exception:
                    metrics.ERRORS.labels(group, "message").inc()
                    log.exception("message_failed", stream=stream, failures=attempt)
                    if attempt == settings.max_deliveries:
                        await poisoned(msgspec.json.encode(body), traceback.format_exc(limit=8))
                    else:
                        await asyncio.sleep(0.1 * attempt)

    broker.subscriber(
        stream=StreamSub(
            stream,
            group=group,
            consumer=settings.node,
            batch=True,
            max_records=settings.batch,
            polling_interval=100,
        )
    )(on_batch)
    broker.subscriber(
        stream=StreamSub(
            stream,
            group=group,
            consumer=f"{settings.node}-reclaim",
            batch=True,
            max_records=settings.batch,
            polling_interval=max(100, settings.reclaim_idle_ms // 2),
            min_idle_time=settings.reclaim_idle_ms,
        )
    )(on_batch)
