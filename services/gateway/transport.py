"""The gateway's sockets: bounded memory per connection, whatever the client does.

uvicorn parses HTTP and WebSocket frames and answers some of them itself (the
pongs to a client's pings); it trusts the client to read what it is sent. A
client that pipelines requests and never reads their answers, or floods pings
and never reads the pongs, would make it buffer without end. These protocols
are uvicorn's own, with the guards a public server needs:

* **Stop reading a connection whose output is not drained.** When the socket's
  write buffer passes its high-water mark, the connection is not read again
  until it drains, so nothing a client sends can make the gateway write more.
  An output that stays undrained for ``drain_timeout_s`` is cut off, and one
  that keeps growing past ``max_output_bytes`` while it is not draining (a
  safety net: the pause keeps it far below) is cut off at once.
* **Requests ahead of their answers.** At most ``max_pipelined`` requests wait
  behind the one being answered; the connection is not read while any wait,
  and a client that sends more gets those answered and the connection closed.
* **Slow and oversized requests.** A request must arrive whole within
  ``request_timeout_s`` of its first byte (and a new connection must start one
  within it), or it is answered ``408 request_timeout``; a request line and
  headers over ``max_header_bytes`` or ``max_headers`` get ``431
  headers_too_large``. (uvicorn's httptools protocol bounds neither.)
* **Control frames.** Pings beyond ``ws_control_per_s`` (burst
  ``ws_control_burst``) pause the connection's reading until it is within its
  budget: a client pays for its pongs in its own time.
* **Accepting.** Every socket is counted by :class:`Connections` as it is
  accepted; over the gateway's ceiling or its address's cap it gets a canned
  ``429 too_many_connections`` and is closed.

One socket write per HTTP response: uvicorn writes a response's head and body
apart, and on loopback each write wakes the reader, so writes made during one
turn of the event loop are sent together at its end (a streaming response
still has each chunk sent in the turn it was written).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from typing import Any, ClassVar

import structlog
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from services.gateway.connections import Connections, Refusal
from services.gateway.errors import error_body, status_of
from shared.infra.settings import Settings
from shared.observability import metrics

log = structlog.get_logger()
#: How long a refused connection is read (and what it sends dropped) before it is aborted.
LINGER_S = 2.0
_REASONS = {
    400: b"Bad Request",
    408: b"Request Timeout",
    429: b"Too Many Requests",
    431: b"Request Header Fields Too Large",
}


def canned(code: str, message: str, retry_after_s: int | None = None) -> bytes:
    """A whole HTTP/1.1 error response that closes its connection, in the gateway's error format."""
    status = status_of(code)
    body = error_body(code, message)
    head = [
        b"HTTP/1.1 %d %s" % (status, _REASONS.get(status, b"Error")),
        b"content-type: application/json",
        b"content-length: %d" % len(body),
        b"connection: close",
    ]
    if retry_after_s is not None:
        head.append(b"retry-after: %d" % retry_after_s)
    return b"\r\n".join(head) + b"\r\n\r\n" + body


class Guard:
    """The limits every protocol instance of one gateway checks, and its connection registry."""

    def __init__(self, settings: Settings, connections: Connections) -> None:
        self.connections = connections
        self.request_timeout_s = settings.request_timeout_s
        self.max_header_bytes = settings.max_header_bytes
        self.max_headers = settings.max_headers
        self.max_pipelined = settings.max_pipelined
        self.drain_timeout_s = settings.drain_timeout_s
        self.max_output_bytes = settings.max_output_bytes
        self.control_per_s = settings.ws_control_per_s
        self.control_burst = float(settings.ws_control_burst)


class GuardedTransport:
    """The socket as every protocol of one connection sees it.

    It owns the decision to read: reading is paused while *any* reason holds
    (the protocol's own flow control, an undrained output, a throttle), so one
    party resuming cannot undo another's pause. It coalesces the writes of one
    loop turn, and cuts the connection off when its output is not drained.
    """

    def __init__(self, transport: Any, loop: asyncio.AbstractEventLoop, guard: Guard) -> None:
        self._transport = transport
        self._loop = loop
        self._guard = guard
        self._pending: list[bytes] = []
        self._pending_bytes = 0
        self._holds: set[str] = set()
        self._drain_timer: asyncio.TimerHandle | None = None
        self._grace: asyncio.TimerHandle | None = None
        self._throttle: asyncio.TimerHandle | None = None
        self._gone = False
        #: What the connection registry knows this socket by.
        self.key = id(transport)
        self.peer: str = (transport.get_extra_info("peername") or ("-",))[0]

    # --- writing ---

    def write(self, data: bytes) -> None:
        if self._transport.is_closing():
            return
        if not self._pending:
            self._loop.call_soon(self._flush)
        self._pending.append(data)
        self._pending_bytes += len(data)
        # Only what is written on top of an output already not draining counts: one
        # large answer to a client that reads (a long game's audit log) is no harm,
        # and every writer here waits for the drain before its next write.
        if (
            "output" in self._holds
            and self._pending_bytes + self._transport.get_write_buffer_size() > self._guard.max_output_bytes
        ):
            self.cut("output_overflow")

    def _flush(self) -> None:
        if not self._pending:
            return
        data = b"".join(self._pending)
        self._pending.clear()
        self._pending_bytes = 0
        if not self._transport.is_closing():
            self._transport.write(data)

    def close(self) -> None:
        self._flush()
        self._transport.close()

    def get_write_buffer_size(self) -> int:
        return int(self._transport.get_write_buffer_size()) + self._pending_bytes

    # --- reading ---

    def pause_reading(self) -> None:
        self.hold("protocol")

    def resume_reading(self) -> None:
        self.release("protocol")

    def is_reading(self) -> bool:
        return not self._holds

    def hold(self, reason: str) -> None:
        if not self._holds and not self._transport.is_closing():
            with contextlib.suppress(RuntimeError, AttributeError):
                self._transport.pause_reading()
        self._holds.add(reason)

    def release(self, reason: str) -> None:
        if reason not in self._holds:
            return
        self._holds.discard(reason)
        if not self._holds and not self._transport.is_closing():
            with contextlib.suppress(RuntimeError, AttributeError):
                self._transport.resume_reading()

    def pause_for(self, seconds: float) -> None:
        """Do not read this connection for ``seconds`` (a client over its budget)."""
        if self._throttle is not None or self._gone:
            return
        self.hold("throttle")
        self._throttle = self._loop.call_later(seconds, self._unthrottle)

    def _unthrottle(self) -> None:
        self._throttle = None
        self.release("throttle")

    # --- the output guard (the protocol's pause_writing / resume_writing) ---

    def output_paused(self) -> None:
        self.hold("output")
        if self._drain_timer is None:
            self._drain_timer = self._loop.call_later(self._guard.drain_timeout_s, self.cut, "drain_timeout")

    def output_resumed(self) -> None:
        if self._drain_timer is not None:
            self._drain_timer.cancel()
            self._drain_timer = None
        self.release("output")

    def cut(self, why: str) -> None:
        """Abort the connection: its client does not take what it is sent."""
        if self._gone:
            return
        metrics.EDGE_REFUSALS.labels("transport", why).inc()
        log.info("connection_cut", reason=why, peer=self.peer)
        self._pending.clear()
        self._pending_bytes = 0
        self._transport.abort()

    def close_within(self, grace_s: float) -> None:
        """End the connection after what was written, and abort it if the client has
        not taken that within ``grace_s`` (a client that does not read would hold a
        closing socket for ever).

        The close is a lingering one: our side ends with a FIN and what the client
        still sends is read and dropped, so the kernel does not answer it with a reset
        that would destroy the refusal before the client reads it."""
        self._flush()
        if self._transport.can_write_eof():
            self._transport.write_eof()
            self._holds.clear()
            with contextlib.suppress(RuntimeError, AttributeError):
                self._transport.resume_reading()
        else:
            self._transport.close()
        if self._grace is None and not self._gone:
            self._grace = self._loop.call_later(grace_s, self._transport.abort)

    def forget(self) -> None:
        """The connection is gone: nothing of it may run later."""
        self._gone = True
        for timer in (self._drain_timer, self._grace, self._throttle):
            if timer is not None:
                timer.cancel()
        self._drain_timer = self._grace = self._throttle = None

    def __getattr__(self, name: str) -> Any:
        # Everything else (extra info, set_protocol, abort, ...) is the real transport's.
        return getattr(self._transport, name)


class _Guarded(asyncio.Protocol):
    """What both protocols do alike: tell the transport when its output stops and
    starts draining, and give its socket back to the registry when it is gone."""

    guard: ClassVar[Guard]
    _guarded: GuardedTransport

    def pause_writing(self) -> None:
        super().pause_writing()
        self._guarded.output_paused()

    def resume_writing(self) -> None:
        super().resume_writing()
        self._guarded.output_resumed()

    def _gone(self) -> None:
        self._guarded.forget()
        self.guard.connections.release(self._guarded.key)


class GatewayHttpProtocol(_Guarded, HttpToolsProtocol):
    """uvicorn's httptools protocol with the guards of this module."""

    def connection_made(self, transport: Any) -> None:  # type: ignore[override]
        guarded = GuardedTransport(transport, self.loop, self.guard)
        super().connection_made(guarded)  # type: ignore[arg-type]
        self._guarded = guarded
        self._refusing = False
        self._oversized = False
        self._head_bytes = 0
        self._headers_seen = 0
        self._deadline: asyncio.TimerHandle | None = None
        try:
            self.guard.connections.accept(guarded.key, guarded.peer)
        except Refusal as refusal:
            if refusal.answer:
                self._close_with(refusal.code, refusal.message, retry_after_s=1)
            else:
                self._refusing = True
                transport.abort()
            return
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._gone()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refusing:
            return  # the connection ends after what it already asked is answered
        super().data_received(data)
        if self._oversized:
            self._close_with(
                "headers_too_large",
                f"The request line and headers must stay within {self.guard.max_header_bytes} bytes "
                f"and {self.guard.max_headers} headers.",
            )

    # --- the parser's callbacks ---

    def on_message_begin(self) -> None:
        if self._refusing or self._oversized:
            return
        super().on_message_begin()
        self._head_bytes = 0
        self._headers_seen = 0
        if self._deadline is None:
            self._arm()

    def on_url(self, url: bytes) -> None:
        if self._refusing or self._count(len(url)):
            return
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._headers_seen += 1
        if self._refusing or self._count(len(name) + len(value) + 4):
            return
        super().on_header(name, value)

    def _count(self, size: int) -> bool:
        """Add to the head's size; True once it is over a bound (the rest is not kept)."""
        self._head_bytes += size
        if self._head_bytes > self.guard.max_header_bytes or self._headers_seen > self.guard.max_headers:
            self._oversized = True
        return self._oversized

    def on_headers_complete(self) -> None:
        if self._refusing or self._oversized:
            return  # never handed to the application; data_received answers it
        wait = self.guard.connections.request(self._guarded.peer)
        if wait:
            # Answered 429 in its turn (it may be pipelined behind others), and the
            # connection is not read again until the address has budget.
            app, self.app = self.app, _throttled(wait)
            try:
                super().on_headers_complete()
            finally:
                self.app = app
            self._guarded.pause_for(wait)
        else:
            super().on_headers_complete()
        if len(self.pipeline) > self.guard.max_pipelined:
            # Not answered: this request and whatever follows it. The newest one
            # still queued closes the connection once it is answered.
            self.pipeline.popleft()
            self._refusing = True
            self.pipeline[0][0].keep_alive = False
            metrics.EDGE_REFUSALS.labels("http", "pipelined").inc()

    def on_body(self, body: bytes) -> None:
        if self._refusing or self._oversized:
            return
        super().on_body(body)

    def on_message_complete(self) -> None:
        if self._refusing or self._oversized:
            return
        self._disarm()
        super().on_message_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.pipeline:
            # uvicorn reads again after every answer; with requests still waiting,
            # reading more would only queue more of them.
            self.flow.pause_reading()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        super().handle_websocket_upgrade()

    def send_400_response(self, msg: str) -> None:
        """Bytes that are not HTTP: refused in the gateway's error format, like every refusal."""
        self._close_with("bad_request", "This is not a valid HTTP/1.1 request.")

    # --- the request timer ---

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.guard.request_timeout_s, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.transport.is_closing() or self._refusing:
            return
        if self.cycle is not None and not self.cycle.response_complete:
            # A request was read whole and is being answered; the one after it is late.
            self.cycle.keep_alive = False
            self._refusing = True
            return
        metrics.EDGE_REFUSALS.labels("http", "request_timeout").inc()
        self._close_with(
            "request_timeout", f"A request must arrive whole within {self.guard.request_timeout_s:g} s."
        )

    def _close_with(self, code: str, message: str, retry_after_s: int | None = None) -> None:
        """Answer a refusal the application never sees, and close."""
        if code == "headers_too_large":
            metrics.EDGE_REFUSALS.labels("http", "headers_too_large").inc()
        self._refusing = True
        self._disarm()
        if not self.transport.is_closing():
            self.transport.write(canned(code, message, retry_after_s))
            self._guarded.close_within(min(self.guard.drain_timeout_s, LINGER_S))


class GatewayWebSocketProtocol(_Guarded, WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol with bounded output and a budget of control frames.

    It always starts as an upgrade of a :class:`GatewayHttpProtocol` connection,
    on that connection's guarded (and already counted) transport."""

    def connection_made(self, transport: Any) -> None:
        assert isinstance(transport, GuardedTransport), "a WebSocket is an upgrade of a guarded connection"
        super().connection_made(transport)
        self._guarded = transport
        self._tokens = self.guard.control_burst
        self._refilled = time.monotonic()

    def connection_lost(self, exc: Exception | None) -> None:
        self._gone()
        super().connection_lost(exc)

    def handle_connect(self, event: Any) -> None:
        if self.conn.accept(event).status_code != 101:
            # A handshake the library refuses (no key, a wrong version): said in the
            # gateway's error format rather than the library's plain text.
            self.handshake_complete = self.close_sent = True
            self.transport.write(canned("bad_request", "This WebSocket handshake is incomplete or invalid."))
            self.transport.close()
            return
        super().handle_connect(event)

    def handle_ping(self) -> None:
        super().handle_ping()
        self._spend()

    def handle_pong(self, event: Any) -> None:
        super().handle_pong(event)
        self._spend()

    def _spend(self) -> None:
        """One control frame from the budget; none left: stop reading until there is."""
        now = time.monotonic()
        self._tokens = min(
            self.guard.control_burst, self._tokens + (now - self._refilled) * self.guard.control_per_s
        )
        self._refilled = now
        self._tokens -= 1.0
        if self._tokens < 0:
            metrics.EDGE_REFUSALS.labels("websocket", "control_throttled").inc()
            self._guarded.pause_for(-self._tokens / self.guard.control_per_s)


def _throttled(wait_s: float) -> Any:
    """The answer to a request over its address's budget, as a tiny ASGI app."""
    retry = max(1, math.ceil(wait_s))
    body = error_body("rate_limited", f"Too many requests from your address; retry in {retry} s.")
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", b"%d" % len(body)),
        (b"retry-after", b"%d" % retry),
    ]

    async def refuse(scope: Any, receive: Any, send: Any) -> None:
        metrics.EDGE_REFUSALS.labels("http", "rate").inc()
        await send({"type": "http.response.start", "status": 429, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    return refuse


def bind(
    settings: Settings, connections: Connections
) -> tuple[type[GatewayHttpProtocol], type[GatewayWebSocketProtocol]]:
    """The protocol classes uvicorn instantiates, bound to this gateway's guard."""
    guard = Guard(settings, connections)
    http = type("BoundHttpProtocol", (GatewayHttpProtocol,), {"guard": guard})
    ws = type("BoundWebSocketProtocol", (GatewayWebSocketProtocol,), {"guard": guard})
    return http, ws
