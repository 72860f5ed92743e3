"""What every gateway route needs, created once at startup (never at import)."""

from __future__ import annotations

import asyncio
import contextlib
import re
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import structlog
from faststream.redis import RedisBroker
from faststream.redis.publisher.usecase import StreamPublisher
from starlette.requests import Request

from services.gateway.connections import Connections
from services.gateway.errors import ApiError
from services.gateway.feeds import FeedHub
from services.gateway.ratelimit import Limits
from services.gateway.watch import PipelineWatch
from shared.eventstore.keys import CHANGES_CHANNEL, GameKeys, partition_of
from shared.eventstore.store import EventStore
from shared.infra.coalesce import Coalescer
from shared.infra.redis_client import Subscriber
from shared.infra.settings import Settings
from shared.messaging.broker import command_publisher
from shared.messaging.replies import Replies
from shared.readmodels.server import missing

log = structlog.get_logger()
TABLE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$")
#: Tables whose keys are kept (about 1 KB each).
_KEPT_KEYS = 10_000


def client_address(request: Request) -> str:
    """The client's address: rate limits and table-opening keys are per address.
    X-Forwarded-For counts only from a trusted proxy (:meth:`Connections.client_of`)."""
    connections: Connections = request.app.state.connections
    return connections.client_of(request.scope)


#: Told the game ids of each change notice; ``None``: notices may have been missed.
Listener = Callable[[list[str] | None], None]


class Changes:
    """Hears the projector's change notices (one pub/sub connection per gateway):
    wakes the requests waiting for a game's next version, and tells the listeners
    (the live feeds' hub) which games changed."""

    def __init__(self, subscriber: Subscriber) -> None:
        self.subscriber = subscriber
        # Weak: an event lives while a request waits on it, so the waiter taken by a
        # read that needed no wait (or for a game that never changes again) is not kept.
        self._events: weakref.WeakValueDictionary[str, asyncio.Event] = weakref.WeakValueDictionary()
        self._listeners: list[Listener] = []
        self._task: asyncio.Task[None] | None = None

    def waiter(self, game_id: str) -> asyncio.Event:
        # Not setdefault: that builds an Event on every call (two or three a move)
        # only to drop it when the game already has one.
        event = self._events.get(game_id)
        if event is None:
            event = self._events[game_id] = asyncio.Event()
        return event

    def listen(self, listener: Listener) -> None:
        """``listener`` gets the ids of each notice, or ``None`` when notices may have been missed."""
        self._listeners.append(listener)

    async def start(self) -> None:
        self._task = asyncio.create_task(self._listen())

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _listen(self) -> None:
        # Pub/sub keeps nothing for an absent subscriber: whatever changed while it
        # was not subscribed (before the first time, or while it moved to another
        # node of the store) is unknown.
        async for notice in self.subscriber.messages(CHANGES_CHANNEL, self._lost, "gateway", copies=2):
            self._wake(notice)

    def _lost(self) -> None:
        """Notices may have been missed: every waiting request looks again, and the
        listeners are told."""
        for event in list(self._events.values()):
            event.set()
        self._events.clear()
        self._tell(None)

    def _wake(self, notice: bytes) -> None:
        """A notice holds a line ``<game id> <version>`` per game a batch changed."""
        ids = [line.split(b" ", 1)[0].decode() for line in notice.split(b"\n")]
        for game_id in ids:
            event = self._events.pop(game_id, None)
            if event is not None:
                event.set()
        self._tell(ids)

    def _tell(self, ids: list[str] | None) -> None:
        for listener in self._listeners:
            try:
                listener(ids)
            except Exception:  # one listener's bug must not stop the notices
                log.exception("changes_listener_callback_failed")


@dataclass
class Gateway:
    settings: Settings
    redis: Any
    #: FastStream: the control plane (organiser commands to the platform process).
    broker: RedisBroker
    #: The hot path: commands and view reads of concurrent requests share pipelines.
    batch: Coalescer
    replies: Replies
    changes: Changes
    limits: Limits
    store: EventStore
    watch: PipelineWatch
    #: Live feeds (server-sent events): one read per change, fanned out to every subscriber.
    feeds: FeedHub
    #: The game read models' server (views, feeds, checkpoints, live sets):
    #: the store's own client unless ``read_model_url`` names another server.
    read: Any = None
    #: ``batch`` for the read models: the same coalescer on one server.
    read_batch: Coalescer = field(init=False)
    _seats: OrderedDict[tuple[str, str], int | None] = field(default_factory=OrderedDict)
    _keys: dict[str, GameKeys] = field(default_factory=dict)
    #: The control plane's declared publisher of organiser commands.
    commands: StreamPublisher = field(init=False)

    def __post_init__(self) -> None:
        self.commands = command_publisher(self.broker)
        if self.read is None:
            self.read = self.redis
        self.read_batch = self.batch if self.read is self.redis else Coalescer(self.read)

    async def rebuilding(self) -> bool:
        """Whether the read models are being rebuilt (a server of their own that
        lost them): a missing view then says nothing of the table, and a client
        is told to retry."""
        return self.read is not self.redis and await missing(self.read, self.settings.partitions)

    def keys(self, game_id: str) -> GameKeys:
        # A move needs its table's keys three or four times (a hash and seven
        # strings each): built once per table while it is played.
        keys = self._keys.get(game_id)
        if keys is None:
            # Table ids are the gateway's own (20 hex) or a tournament's
            # (<tournament>-r<round>-t<table>): anything else names no table,
            # and must not become a key or a stream entry.
            if not TABLE_ID.match(game_id):
                raise ApiError("unknown_table", "There is no table with that id.")
            keys = GameKeys(game_id, partition_of(game_id, self.settings.partitions))
            if len(self._keys) >= _KEPT_KEYS:
                del self._keys[next(iter(self._keys))]  # the oldest: a table long started
            self._keys[game_id] = keys
        return keys

    async def seat_of(self, game_id: str, token_hash: str) -> int | None:
        """The seat a token belongs to (cached: tokens never change seat)."""
        cache_key = (game_id, token_hash)
        if cache_key in self._seats:
            return self._seats[cache_key]
        auth = self.keys(game_id).auth
        raw = await self.batch.run(lambda pipe: pipe.hget(auth, token_hash))
        seat = int(raw) if raw is not None else None
        if seat is not None:
            self._seats[cache_key] = seat
            if len(self._seats) > 100_000:
                self._seats.popitem(last=False)
        return seat
