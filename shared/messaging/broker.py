"""The control plane: a FastStream application on Redis streams, configured once.

Organiser commands travel from the gateways to the platform process on
:data:`~shared.messaging.control.COMMANDS`: the gateway publishes a
:class:`~shared.messaging.control.TournamentMsg` through a declared
publisher, and the platform process's typed batch subscriber receives
``list[TournamentMsg]``, decoded by msgspec through FastStream's own hooks
(a per-message decoder, then ``apply_types`` with fast-depends' msgspec
serializer).

Reliability, as the hot path's reader has it: a consumer group read in
batches; a second subscriber in the same group reclaims messages left
unacknowledged for longer than ``settings.reclaim_idle_ms`` (a crashed
consumer's), so nothing delivered is lost; a store outage leaves the batch
unacknowledged for that reclaim; a message that keeps failing is parked as a
dead letter after ``settings.max_deliveries`` attempts, one that is not a
``TournamentMsg`` at once (no retry makes it one). Idempotency is the
platform process's: every command carries its ``command_id``.

Why only the control plane: measured here (``python -m bench.faststream_cost``,
four partition streams, batches of 200), FastStream's batch subscriber costs
4-6 times our own reader's client CPU per message (about 40 us against 8)
and ``apply_types`` adds 0.07-0.7 ms of CPU per batch, not the 1.5 ms this
module once claimed (docs/performance.md). The hot path's thousands of
messages a second would pay that; a few organiser commands a minute never
notice it.
"""

from __future__ import annotations

import asyncio
import logging
import traceback
from collections.abc import Awaitable, Callable, Iterator, Mapping
from typing import Any

import msgspec
import structlog
from fast_depends.msgspec import MsgSpecSerializer
from faststream.message import StreamMessage
from faststream.redis import RedisBroker, RedisClusterBroker, StreamSub
from faststream.redis.annotations import RedisBatchStreamMessage
from faststream.redis.configs import RedisClusterConnectionState
from faststream.redis.message import bDATA_KEY
from faststream.redis.publisher.usecase import StreamPublisher

from shared.infra.redis_client import store_client
from shared.infra.settings import Settings
from shared.messaging.control import COMMANDS, TournamentMsg
from shared.messaging.streams import TRANSIENT
from shared.observability import metrics

#: Handles a batch of organiser commands (its outcomes go out on reply channels).
Handle = Callable[[list[TournamentMsg]], Awaitable[Any]]
#: Parks one message that failed every delivery: its entry id ("" when unknown),
#: the stream entry's fields as they were, its JSON body, and the error.
Park = Callable[[bytes, dict[bytes, bytes], bytes, str], Awaitable[None]]
log = structlog.get_logger()
_decode = msgspec.json.Decoder(TournamentMsg).decode


class StructlogLogger:
    """FastStream's logger protocol onto structlog: the broker's lines are JSON
    lines with the service's bound fields, like every other line."""

    #: Keys of FastStream's log context that structlog reserves.
    _RESERVED = frozenset({"event", "level", "timestamp"})

    def log(
        self, level: int, msg: Any, /, *, exc_info: Any = None, extra: Mapping[str, Any] | None = None
    ) -> None:
        fields = {k: v for k, v in (extra or {}).items() if v != "" and k not in self._RESERVED}
        if exc_info is not None:
            fields["exc_info"] = exc_info
        log.log(level, str(msg), source="faststream", **fields)


def make_broker(settings: Settings) -> RedisBroker:
    # log_level=DEBUG: FastStream's "Received"/"Processed" lines per message
    # fall under the services' INFO filter (they cost 15-20% of throughput
    # when printed); its errors still log at ERROR. msgspec decodes and
    # encodes the messages, as it does everywhere else.
    options: dict[str, Any] = {
        "serializer": MsgSpecSerializer(use_fastdepends_errors=False),
        "logger": StructlogLogger(),
        "log_level": logging.DEBUG,
        "description": "Ziggurat's control plane: organiser commands to the platform process",
    }
    if settings.cluster:
        return _ControlPlaneCluster(settings, **options)
    return RedisBroker(settings.redis_url, **options)


class _ServicesClusterState(RedisClusterConnectionState):
    """FastStream's cluster connection, made the services' own store client.

    FastStream builds a plain redis-py cluster client, which closes a failing
    node's idle connections in place: in a failover a publish could take one
    mid-close and fail with an error that is not the store's (a 500 at the
    gateway where a retryable 503 is due). The services' client
    (:class:`~shared.infra.redis_client.FailoverCluster`) keeps a node's failure
    to that node, as on the hot path.
    """

    __slots__ = ("_settings",)

    def __init__(self, options: dict[str, Any], settings: Settings) -> None:
        super().__init__(options)
        self._settings = settings

    async def connect(self) -> Any:
        if not self._connected:
            self._client = store_client(self._settings)
            self._connected = True
        return self._client


class _ControlPlaneCluster(RedisClusterBroker):
    """A cluster broker on :class:`_ServicesClusterState`."""

    def __init__(self, settings: Settings, **options: Any) -> None:
        self._settings = settings  # read by _make_connection_state, inside the base's __init__
        super().__init__(settings.redis_url, **options)

    def _make_connection_state(self, connection_options: dict[str, Any], kwargs: dict[str, Any]) -> Any:
        return _ServicesClusterState(connection_options, self._settings)


def command_publisher(broker: RedisBroker) -> StreamPublisher:
    """The gateway's side: ``await publisher.publish(TournamentMsg(...))``."""
    publisher: StreamPublisher = broker.publisher(
        stream=COMMANDS,
        title="tournament-commands:publish",
        description="A gateway sends an organiser command to the platform process",
        schema=TournamentMsg,
    )
    return publisher


def _entries(
    broker: RedisBroker, message: StreamMessage[Any]
) -> Iterator[tuple[bytes, dict[bytes, bytes], bytes]]:
    """(entry id, fields, JSON body) of each stream entry of a batch."""
    raw = message.raw_message
    ids = raw.get("message_ids") or []
    for i, fields in enumerate(raw["data"]):
        body, _ = broker.message_format.parse(fields.get(bDATA_KEY, b""))
        yield (ids[i] if i < len(ids) else b""), fields, body


def subscribe_commands(
    broker: RedisBroker, group: str, settings: Settings, handle: Handle, park: Park
) -> None:
    """Subscribe ``handle`` to new and to abandoned organiser commands, in ``group``."""

    async def decode(message: StreamMessage[Any]) -> list[TournamentMsg]:
        """Each body on its own, so one that is not a ``TournamentMsg`` is parked
        and the rest of the batch goes on."""
        msgs = []
        for entry_id, fields, body in _entries(broker, message):
            try:
                msgs.append(_decode(body))
            except (msgspec.ValidationError, msgspec.DecodeError) as exc:
                metrics.ERRORS.labels(group, "message").inc()
                log.warning("message_undecodable", stream=COMMANDS, error=str(exc))
                await park(entry_id, fields, body, f"Not a TournamentMsg: {exc}")
        return msgs

    async def on_batch(msgs: list[TournamentMsg], message: RedisBatchStreamMessage) -> None:
        if not msgs:
            return
        try:
            await handle(msgs)
            return
        except TRANSIENT:
            # Unacknowledged: the reclaim subscriber retries the batch later.
            metrics.ERRORS.labels(group, "batch").inc()
            log.exception("batch_failed", stream=COMMANDS)
            raise
        except Exception:
            metrics.ERRORS.labels(group, "batch").inc()
            log.warning("batch_failed_isolating", stream=COMMANDS, size=len(msgs), exc_info=True)
        # One message at a time, each tried a few times; one that keeps
        # failing is parked, so the batch is acknowledged and nothing waits on it.
        decodable = [entry for entry in _entries(broker, message) if _decodes(entry[2])]
        for msg, (entry_id, fields, body) in zip(msgs, decodable, strict=True):
            for attempt in range(1, settings.max_deliveries + 1):
                try:
                    await handle([msg])
                    break
                except TRANSIENT:
                    raise
                except Exception:
                    metrics.ERRORS.labels(group, "message").inc()
                    log.exception("message_failed", stream=COMMANDS, failures=attempt)
                    if attempt == settings.max_deliveries:
                        await park(entry_id, fields, body, traceback.format_exc(limit=8))
                    else:
                        await asyncio.sleep(0.1 * attempt)

    description = (
        "The platform process decides organiser commands and answers each on the gateway's reply channel"
    )
    consume = StreamSub(
        COMMANDS,
        group=group,
        consumer=settings.node,
        batch=True,
        max_records=settings.batch,
        polling_interval=100,
    )
    reclaim = StreamSub(
        COMMANDS,
        group=group,
        consumer=f"{settings.node}-reclaim",
        batch=True,
        max_records=settings.batch,
        polling_interval=max(100, settings.reclaim_idle_ms // 2),
        min_idle_time=settings.reclaim_idle_ms,
    )
    for title, stream in (("consume", consume), ("reclaim", reclaim)):
        broker.subscriber(
            stream=stream, decoder=decode, title=f"tournament-commands:{title}", description=description
        )(on_batch)


def _decodes(body: bytes) -> bool:
    try:
        _decode(body)
    except (msgspec.ValidationError, msgspec.DecodeError):
        return False
    return True
