"""Live feeds (server-sent events) for thousands of subscribers: one hub per gateway.

Subscribers of the same feed (a table's audience, or a tournament) share a
*channel*. When the projector's change notice for a table arrives (one
pub/sub connection for the whole gateway, see ``Changes``), the hub reads the
new entries of each channel that has subscribers once, through the gateway's
``Coalescer`` (so the reads of every channel a notice names share one
pipeline), and fans them out. No subscriber holds a Redis connection or runs
a loop of reads of its own: a gateway holds as many subscribers as it has
sockets.

**One write per move, shared.** A read's entries are encoded once per channel,
as one chunk of the chunked response, and the hub writes that one bytes object
straight to the socket of every subscriber that is *idle*: live, nothing in its
queue, no write of its own under way, and a socket buffer under
``WRITE_HIGH_WATER``. Per subscriber that is a few checks and a socket write:
its own task is not woken and nothing is formatted for it (docs/performance.md,
"Round 3: spectators"). Any other subscriber gets the entries in its queue, which its own task
writes in order, so a subscriber never gets an entry twice or out of order, and
a chunk is only ever the one channel's (one table's audience): what a seat may
see never reaches another audience's socket.

Every game event's SSE ``id`` is its version. A subscriber starts after the
larger of ``?after=N`` and its ``Last-Event-ID`` header, reads what it
missed in pages of its own (each page written before the next is read, so a
long replay never piles up in memory), then joins its channel; versions it
already has are skipped, so a reconnect gets exactly the entries after its
last id: no repeat, no gap.

**Slow subscribers.** A subscriber's socket gets a small kernel send buffer
(``SEND_BUFFER``) and write buffer (``WRITE_HIGH_WATER``), so a client that
stops reading is noticed after tens of kilobytes rather than megabytes. Past
that, new entries wait in the subscriber's own queue and nowhere else: the
hub never waits for a subscriber (it writes only to sockets that take the write
at once), so a slow one delays no other. A subscriber
is cut off when

* its queue would hold more than ``MAX_QUEUED`` entries, or
* one of its writes has not gone out for ``STALL_S`` seconds (this also
  covers a client that stalls while it catches up);

it then gets a last event, ``event: reconnect`` with
``data: {"reason": "slow" | "stalled", "last_event_id": N}``, its connection
is closed, and it is aborted if it has not taken what was written within
``GRACE_S`` seconds. Its queue is dropped: the client reconnects with
``Last-Event-ID`` (a browser's ``EventSource`` does so by itself when the
stream closes) and resumes exactly where it was, so nothing is lost. A cut
subscriber leaves ``FEED_SUBSCRIBERS`` at once. (A stream that cannot catch up
because the store is unreachable ends the same way, with reason
``unavailable``.)
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import re
import socket
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Protocol

import msgspec
import structlog
from starlette.requests import Request
from starlette.types import Receive, Scope, Send

from services.gateway.body import MAX_VERSION
from services.gateway.connections import Connections, Kind, Refusal
from services.gateway.errors import ApiError, error_response
from shared.messaging.messages import encode
from shared.observability import metrics

log = structlog.get_logger()

#: An idle subscriber gets a comment this often, so proxies keep the stream open.
HEARTBEAT_S = 15.0
#: Entries per read, for catching up and for the hub; at most half the queue bound,
#: so one read never cuts off a subscriber that keeps up.
PAGE = 64
#: Entries a subscriber may have waiting for its socket before it is cut off.
MAX_QUEUED = 128
#: A write that has not gone out for this long cuts its subscriber off.
STALL_S = 30.0
#: After a cut, how long the client has to take what was written before the connection is aborted.
GRACE_S = 5.0
#: How often a feed held back by a spectator delay is read again: time alone releases entries.
DELAY_POLL_S = 0.25
#: After a failed read of a channel, when to try again.
RETRY_S = 1.0
#: How often the hub looks for stalled and idle subscribers.
TICK_S = 1.0
#: Per subscriber socket. The kernel doubles it; Linux would otherwise grow a loopback or
#: fast link's buffer to megabytes, which 2,000 stuck clients would multiply.
SEND_BUFFER = 32 * 1024
WRITE_HIGH_WATER = 16 * 1024

HEARTBEAT = b": heartbeat\n\n"
END = b"event: end\ndata: {}\n\n"
_HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-cache"),
    (b"x-accel-buffering", b"no"),
    # Chunked for certain: a cut writes its last event as a chunk of its own.
    (b"transfer-encoding", b"chunked"),
]
_LAST_EVENT_ID = re.compile(r"0|[1-9][0-9]{0,15}")


def resume_after(request: Request, after: int) -> int:
    """Where a feed starts: after the larger of ``after`` and the ``Last-Event-ID`` header."""
    raw = request.headers.get("last-event-id")
    if raw is None:
        return after
    if not _LAST_EVENT_ID.fullmatch(raw) or int(raw) > MAX_VERSION:
        raise ApiError(
            "bad_request",
            f"Header 'Last-Event-ID' must be a whole number from 0 to {MAX_VERSION}.",
            header="last-event-id",
        )
    return max(after, int(raw))


@dataclass(slots=True)
class Page:
    """What one read of a feed found after a version."""

    #: (version, SSE frame), oldest first.
    frames: list[tuple[int, bytes]]
    #: The read was full: more entries may be there already.
    more: bool
    #: Nothing will ever follow these frames.
    finished: bool
    #: Entries are held back by a spectator delay, which time alone releases.
    delayed: bool = False


class Source(Protocol):
    """A feed the hub can read: a table's audience, or a tournament."""

    #: (the id change notices name, the audience): subscribers with equal keys share reads.
    key: tuple[str, str]
    #: The ``FEED_SUBSCRIBERS`` label.
    label: str

    async def read(self, after: int, count: int) -> Page: ...


class State(enum.Enum):
    CATCHING_UP = "catching up"
    LIVE = "live"
    FINISHED = "finished"  # sends what it holds, then ``end``
    CUT = "cut"
    GONE = "gone"


CutReason = Literal["slow", "stalled", "unavailable"]


class FeedCut(msgspec.Struct, kw_only=True):
    """Why a live feed was cut off, and the id to resume after."""

    reason: Annotated[
        CutReason,
        msgspec.Meta(
            description="slow: its queue overflowed; stalled: a write did not go out in time; "
            "unavailable: the store could not be read"
        ),
    ]
    last_event_id: Annotated[int, msgspec.Meta(description="Reconnect with this as Last-Event-ID")]


class Subscriber:
    """One SSE response: its position, its queue, its connection."""

    __slots__ = (
        "channel",
        "counted",
        "gone",
        "high",
        "last_write",
        "queue",
        "reason",
        "sending_since",
        "sent",
        "source",
        "state",
        "transport",
        "wake",
    )

    def __init__(self, source: Source, after: int, transport: Any) -> None:
        self.source = source
        self.transport = transport
        self.state = State.CATCHING_UP
        #: The newest version queued or sent: anything at or below it is a repeat.
        self.high = after
        #: The newest version handed to the connection (what a cut tells the client).
        self.sent = after
        self.queue: list[tuple[int, bytes]] = []  # version -1: a heartbeat
        self.wake = asyncio.Event()
        self.gone = asyncio.Event()
        self.channel: Channel | None = None
        self.sending_since: float | None = None
        self.last_write = asyncio.get_running_loop().time()
        self.counted = False
        self.reason: CutReason = "unavailable"  # why it was cut off: each cut says

    def push(self, frames: list[tuple[int, bytes]]) -> bool:
        """Queue the frames it does not have yet; False when that would exceed the bound."""
        if self.state is not State.LIVE:
            return True
        start = 0
        while start < len(frames) and frames[start][0] <= self.high:
            start += 1
        if start == len(frames):
            return True
        if len(self.queue) + len(frames) - start > MAX_QUEUED:
            return False
        self.queue.extend(frames[start:])
        self.high = frames[-1][0]
        self.wake.set()
        return True

    async def write(self, send: Send, frames: list[tuple[int, bytes]], more: bool = True) -> None:
        loop = asyncio.get_running_loop()
        self.sending_since = loop.time()
        try:
            body = frames[0][1] if len(frames) == 1 else b"".join(frame for _, frame in frames)
            await send({"type": "http.response.body", "body": body, "more_body": more})
        finally:
            self.sending_since = None
        self.last_write = loop.time()
        self.sent = max(self.sent, max(version for version, _ in frames))


@dataclass(eq=False)
class Channel:
    """The live subscribers of one feed, and how far the hub has read it."""

    source: Source
    #: Every entry up to here has been handed to the subscribers.
    cursor: int
    subscribers: set[Subscriber] = field(default_factory=set)
    dirty: bool = False
    finished: bool = False
    task: asyncio.Task[None] | None = None
    timer: asyncio.TimerHandle | None = None


class FeedHub:
    """Every live feed of one gateway: reads each feed once per change, fans out."""

    def __init__(self, changes: Any, connections: Connections | None = None) -> None:
        #: Where each feed holds its long-lived slot (per client address, and in all).
        self.connections = connections
        self._channels: dict[tuple[str, str], Channel] = {}
        self._by_notice: dict[str, set[Channel]] = {}
        self._subscribers: set[Subscriber] = set()
        self._ticker: asyncio.Task[None] | None = None
        changes.listen(self.notify)

    def notify(self, ids: list[str] | None) -> None:
        """Change notices for ``ids``; ``None``: notices may have been missed, so every feed."""
        if ids is None:
            channels: list[Channel] = list(self._channels.values())
        else:
            channels = [ch for i in ids for ch in self._by_notice.get(i, ())]
        for channel in channels:
            self._poke(channel)

    async def serve(self, sub: Subscriber, send: Send) -> None:
        """Write ``sub``'s feed until it ends, is cut off, or the client leaves."""
        self._subscribers.add(sub)
        if self._ticker is None:
            self._ticker = asyncio.get_running_loop().create_task(self._tick())
        try:
            try:
                joined = await self._catch_up(sub, send)
            except Exception as exc:
                # The store is unreachable: end the stream; the client resumes exactly later.
                log.warning("feed_catch_up_failed", feed=sub.source.key, error=repr(exc))
                if sub.state is State.CATCHING_UP:
                    sub.reason = "unavailable"
                    await send({"type": "http.response.body", "body": _farewell(sub), "more_body": False})
                return
            if joined:
                await self._live(sub, send)
            if sub.state is State.CUT:
                if sub.transport is None:  # no connection to close: end the response instead
                    await send({"type": "http.response.body", "body": _farewell(sub), "more_body": False})
                else:
                    await sub.gone.wait()  # returning before would leave the response unfinished
        finally:
            self._leave(sub)

    async def _catch_up(self, sub: Subscriber, send: Send) -> bool:
        """Send what ``sub`` missed, page by page, then join its channel; False if it is over."""
        while True:
            page = await sub.source.read(sub.high, PAGE)
            if sub.state is not State.CATCHING_UP:
                return False
            if page.frames:
                sub.high = page.frames[-1][0]
                await sub.write(send, page.frames)
                if sub.state is not State.CATCHING_UP:
                    return False
            if page.finished:
                await sub.write(send, [(-1, END)], more=False)
                return False
            if page.more:
                continue
            channel = self._channels.get(sub.source.key)
            if channel is not None and (channel.finished or channel.cursor > sub.high):
                # The hub has already handed out entries this read did not see: read
                # again (joining now would leave a gap). An empty read means they are
                # still held back by a delay: wait for time to release them.
                if not page.frames:
                    await asyncio.sleep(DELAY_POLL_S)
                continue
            self._join(sub, channel)
            return True

    async def _live(self, sub: Subscriber, send: Send) -> None:
        while True:
            if sub.state in (State.CUT, State.GONE):
                return
            if sub.queue:
                frames, sub.queue = sub.queue, []
                await sub.write(send, frames)
                continue
            if sub.state is State.FINISHED:
                await sub.write(send, [(-1, END)], more=False)
                return
            sub.wake.clear()
            await sub.wake.wait()

    def _join(self, sub: Subscriber, channel: Channel | None) -> None:
        if channel is None:
            channel = Channel(sub.source, cursor=sub.high)
            self._channels[sub.source.key] = channel
            self._by_notice.setdefault(sub.source.key[0], set()).add(channel)
        channel.subscribers.add(sub)
        sub.channel = channel
        sub.state = State.LIVE
        # A notice may have come between this subscriber's last read and now.
        self._poke(channel)

    def _detach(self, sub: Subscriber) -> None:
        channel, sub.channel = sub.channel, None
        if channel is None:
            return
        channel.subscribers.discard(sub)
        if channel.subscribers:
            return
        if self._channels.get(channel.source.key) is channel:
            del self._channels[channel.source.key]
            same = self._by_notice.get(channel.source.key[0])
            if same is not None:
                same.discard(channel)
                if not same:
                    del self._by_notice[channel.source.key[0]]
        if channel.timer is not None:
            channel.timer.cancel()
            channel.timer = None

    def _leave(self, sub: Subscriber) -> None:
        if sub.state is not State.CUT:
            sub.state = State.GONE
        self._detach(sub)
        self._subscribers.discard(sub)

    def client_left(self, sub: Subscriber) -> None:
        sub.gone.set()
        if sub.state is not State.CUT:
            sub.state = State.GONE
        self._detach(sub)
        sub.wake.set()

    def cut(self, sub: Subscriber, reason: CutReason) -> None:
        """Stop feeding ``sub``: a last event, then its connection is closed (the policy above)."""
        if sub.state in (State.CUT, State.GONE):
            return
        sub.state = State.CUT
        sub.reason = reason
        sub.queue = []
        self._detach(sub)
        sub.wake.set()
        uncount(sub)
        log.info("feed_subscriber_cut", reason=reason, feed=sub.source.key, last_event_id=sub.sent)
        transport = sub.transport
        if transport is None:
            return
        # Its writer may be waiting for the socket mid-response: the last event goes
        # straight to the connection, as a chunk of its own, and the close sends it.
        farewell = _farewell(sub)
        transport.write(b"%x\r\n%s\r\n" % (len(farewell), farewell))
        transport.close()
        # A client that does not read at all would keep a closing socket forever.
        asyncio.get_running_loop().call_later(GRACE_S, transport.abort)

    def _poke(self, channel: Channel) -> None:
        channel.dirty = True
        if channel.task is None and not channel.finished and channel.subscribers:
            channel.task = asyncio.get_running_loop().create_task(self._pump(channel))

    async def _pump(self, channel: Channel) -> None:
        """Read the channel's new entries and hand them out, until nothing new is asked for."""
        try:
            while channel.dirty and channel.subscribers and not channel.finished:
                channel.dirty = False
                try:
                    page = await channel.source.read(channel.cursor, PAGE)
                except Exception as exc:
                    # The store is unreachable: the subscribers keep their connection and
                    # their place, and the channel is read again shortly.
                    log.warning("feed_read_failed", feed=channel.source.key, error=repr(exc))
                    if channel.timer is None:
                        channel.timer = asyncio.get_running_loop().call_later(
                            RETRY_S, self._timer_elapsed, channel
                        )
                    return
                if page.frames:
                    channel.cursor = page.frames[-1][0]
                    self._fan_out(channel, page.frames)
                if page.more:
                    channel.dirty = True
                elif page.finished:
                    channel.finished = True
                    for sub in channel.subscribers:
                        if sub.state is State.LIVE:
                            sub.state = State.FINISHED
                            sub.wake.set()
                elif page.delayed and channel.timer is None:
                    channel.timer = asyncio.get_running_loop().call_later(
                        DELAY_POLL_S, self._timer_elapsed, channel
                    )
        finally:
            channel.task = None

    def _fan_out(self, channel: Channel, frames: list[tuple[int, bytes]]) -> None:
        """Hand one read's frames to every subscriber of the channel.

        The frames are encoded once, as one chunk of the response, and that one
        bytes object is written to the socket of every subscriber that is idle
        (nothing queued, no write of its own under way) and whose socket takes
        it (under ``WRITE_HIGH_WATER``): no task of its own wakes, nothing is
        formatted for it. Any other subscriber gets them in its queue, as before,
        where its own task writes them in order or the bound cuts it off.
        """
        first, last = frames[0][0], frames[-1][0]
        chunk: bytes | None = None
        now = asyncio.get_running_loop().time()
        for sub in list(channel.subscribers):
            if sub.state is not State.LIVE:
                continue
            if sub.high < first and _idle(sub):
                if chunk is None:
                    chunk = _chunk(b"".join(frame for _, frame in frames))
                sub.transport.write(chunk)
                sub.high = sub.sent = last
                sub.last_write = now
            elif not sub.push(frames):
                self.cut(sub, "slow")

    def _timer_elapsed(self, channel: Channel) -> None:
        channel.timer = None
        self._poke(channel)

    async def _tick(self) -> None:
        loop = asyncio.get_running_loop()
        swept = loop.time()
        try:
            while self._subscribers:
                await asyncio.sleep(TICK_S)
                now = loop.time()
                for sub in list(self._subscribers):
                    if sub.sending_since is not None and now - sub.sending_since > STALL_S:
                        self.cut(sub, "stalled")
                    elif sub.state is State.LIVE and not sub.queue and now - sub.last_write >= HEARTBEAT_S:
                        sub.last_write = now
                        if _idle(sub):
                            sub.transport.write(HEARTBEAT_CHUNK)
                        else:
                            sub.queue.append((-1, HEARTBEAT))
                            sub.wake.set()
                if now - swept >= HEARTBEAT_S:
                    # A notice lost on the way (a pub/sub reconnect) delays a feed by
                    # one sweep at most, as each subscriber's own timeout did before.
                    swept = now
                    self.notify(None)
        finally:
            self._ticker = None


def _chunk(body: bytes) -> bytes:
    """``body`` as one chunk of a chunked response (what uvicorn's ``send`` would write)."""
    return b"%x\r\n%s\r\n" % (len(body), body)


HEARTBEAT_CHUNK = _chunk(HEARTBEAT)


def _idle(sub: Subscriber) -> bool:
    """The hub may write to ``sub``'s socket itself: a connection it holds, nothing
    waiting before what it would write, and a socket that takes it now."""
    transport = sub.transport
    return (
        transport is not None
        and not sub.queue
        and sub.sending_since is None
        and not transport.is_closing()
        and transport.get_write_buffer_size() < WRITE_HIGH_WATER
    )


def _farewell(sub: Subscriber) -> bytes:
    cut = FeedCut(reason=sub.reason, last_event_id=sub.sent)
    return b"event: reconnect\ndata: %s\n\n" % encode(cut)


def uncount(sub: Subscriber) -> None:
    if sub.counted:
        sub.counted = False
        metrics.FEED_SUBSCRIBERS.labels(sub.source.label).dec()


def _transport_of(receive: Receive) -> Any:
    """The connection's transport, to size its buffers and to cut it off.

    ASGI has no way to abort a connection, and closing one whose peer does not
    read never completes. uvicorn's ``receive`` is a method of its request
    cycle, which holds the transport; under any other server this finds none
    and a cut ends the response instead.
    """
    transport = getattr(getattr(receive, "__self__", None), "transport", None)
    return transport if callable(getattr(transport, "abort", None)) else None


class FeedResponse:
    """An SSE response served by the hub.

    Starlette's ``StreamingResponse`` would run a task group per subscriber and
    could neither size the socket's buffers nor cut off a client that stopped
    reading.
    """

    #: What it answered: 200, or a refusal's status (for the latency histogram's label).
    status_code = 200

    def __init__(self, hub: FeedHub, source: Source, after: int) -> None:
        self.hub = hub
        self.source = source
        self.after = after

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["method"] == "HEAD":
            await send({"type": "http.response.start", "status": 200, "headers": _HEADERS})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
            return
        connections = self.hub.connections
        if connections is None:
            await self._serve(scope, receive, send)
            return
        kind: Kind = "bot_stream" if self.source.label == "bot" else "feed"
        address = connections.client_of(scope)
        try:
            connections.take(kind, address)
        except Refusal as refusal:
            refused = error_response(refusal.code, refusal.message, headers={"Retry-After": "1"})
            self.status_code = refused.status_code
            await refused(scope, receive, send)
            return
        try:
            await self._serve(scope, receive, send)
        finally:
            connections.give_back(kind, address)

    async def _serve(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": _HEADERS})
        transport = _transport_of(receive)
        if transport is not None:
            sock = transport.get_extra_info("socket")
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
            transport.set_write_buffer_limits(high=WRITE_HIGH_WATER)
        sub = Subscriber(self.source, self.after, transport)
        sub.counted = True
        metrics.FEED_SUBSCRIBERS.labels(self.source.label).inc()
        watcher = asyncio.get_running_loop().create_task(self._watch(receive, sub))
        try:
            await self.hub.serve(sub, send)
        finally:
            uncount(sub)
            watcher.cancel()

    async def _watch(self, receive: Receive, sub: Subscriber) -> None:
        with contextlib.suppress(Exception):
            while (await receive())["type"] != "http.disconnect":
                pass
        self.hub.client_left(sub)
