"""A seat's play connection: one WebSocket that carries the seat's commands and
pushes the seat's new view whenever its table moves.

``/v1/tables/{table_id}/play``. The first message authenticates:
``{"token": "<seat token or player key>"}`` (never in the URL, which ends up in
logs), within ``auth_s``. The gateway answers ``{"type": "ready", "seat": n,
"view": <the seat's view>}``. Then each client message is a command, exactly
the body of ``POST .../commands`` (the same type, bounds and budgets) plus two
optional fields for what HTTP carries in headers, ``idempotency_key`` and
``correlation_id``; it is answered, in order, by ``{"type": "reply",
"http_status": n, "answer": <what the POST answers>}``, made by the POST's own
code (:func:`services.gateway.tables.commands.play`). Between replies the gateway sends
``{"type": "view", "view": <the seat's view>}`` whenever the table's version
moves past the last view this connection carried (another seat's move, a
clock), woken by the projector's change notices: one read per change, never
another seat's view.

Refusals are a last ``{"type": "error", "http_status": n, "answer": <error>}``
(the HTTP error body, same codes and messages) and a close with code ``4000 +
http_status`` whose reason is the code. A client that stops reading is not
waited for: a send that cannot complete within ``send_timeout_s`` (the
transport's buffer is full) ends the connection.

The connection ends with the credential its hello brought
(:mod:`services.gateway.credentials`): when the player key is rotated, on
whichever gateway, it gets a last error ``credential_revoked`` and the close
4401 within a second or two, and no view after it. A connection opened with
a player key also checks that the key is still current before each command.

Pushes are read only when a change notice may not be in the last view sent:
notices are counted per table, and a command's own reply counts as having
carried the notice its view waited for, so a seat playing alone costs one view
read per move, as the POST with ``"view": true`` does.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from dataclasses import dataclass
from typing import Annotated, Any

import msgspec
import structlog
from starlette.types import Receive, Scope, Send

from services.gateway.body import MAX_HEADER_ID, Move, decode_json, made_up_id
from services.gateway.callers import seat_token_of
from services.gateway.connections import Connections, Refusal
from services.gateway.context import Gateway
from services.gateway.credentials import Credentials
from services.gateway.errors import INTERNAL_MESSAGE, STORE_DOWN_MESSAGE, ApiError, error_body, status_of
from services.gateway.reads import read_view
from services.gateway.routing import Route
from services.gateway.tables.commands import play
from shared.infra.redis_client import STORE_DOWN
from shared.kernel.auth import token_hash
from shared.observability import metrics
from shared.readmodels.build import ViewVersion, audience_name

log = structlog.get_logger()
_STORE_DOWN = STORE_DOWN  # the store, or a node of it, unreachable or failing over
#: How long a push waits before reading again a view the gateway cannot serve yet.
_RETRY_S = 0.5
HeaderId = Annotated[str, msgspec.Meta(pattern=rf"^[\x21-\x7e]{{1,{MAX_HEADER_ID}}}$")]
#: A close code for a refusal: 4000 + the HTTP status its code answers with.
CLOSE_BASE = 4000
#: The transport gave up (a reader that does not read): no last message can reach it.
CLOSE_STALLED = 1008


@dataclass(frozen=True)
class SocketLimits:
    #: The first message (the token) must arrive within this.
    auth_s: float = 5.0
    #: A connection with no message either way for this long is closed.
    idle_s: float = 600.0
    #: Open connections per seat token and table. (Per client address and per
    #: gateway, the caps are the edge's: services/gateway/connections.py.)
    per_seat: int = 4
    #: A send that the transport cannot take within this ends the connection.
    send_timeout_s: float = 10.0


class Hello(msgspec.Struct, forbid_unknown_fields=True):
    token: Annotated[str, msgspec.Meta(min_length=1, max_length=512)]


class PlayMessage(Move, forbid_unknown_fields=True):
    """The POST body, with what HTTP carries in headers."""

    idempotency_key: HeaderId | None = None
    correlation_id: HeaderId | None = None


_version = msgspec.json.Decoder(ViewVersion).decode
_hello = msgspec.json.Decoder(Hello).decode
_OPEN = metrics.PLAY_SOCKETS
_IN = metrics.PLAY_SOCKET_MESSAGES.labels("in", "command")
_REPLIES = metrics.PLAY_SOCKET_MESSAGES.labels("out", "reply")
_PUSHES = metrics.PLAY_SOCKET_MESSAGES.labels("out", "view")


class Refused(Exception):
    """The connection ends, after a last error message when ``code`` is set."""

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details


def _revoked() -> Refused:
    return Refused(
        "credential_revoked",
        "The key or token this connection was opened with has ended (a player key is ended "
        "by its rotation); connect again with the current one.",
    )


def _unavailable() -> Refused:
    """The store could not be reached: counted and said as the HTTP routes do."""
    metrics.ERRORS.labels("gateway", "store_unreachable").inc()
    return Refused("unavailable", STORE_DOWN_MESSAGE)


class _Stalled(Exception):
    """The client does not take what is sent: no last message, no close handshake."""


class _Left(Exception):
    """The client went away while something was being sent to it: nothing to say, nothing failed."""


class PlaySockets:
    """Every play connection of one gateway: the caps, and the change notices counted
    per table (only for tables with a connection open)."""

    def __init__(self, gw: Gateway, limits: SocketLimits, connections: Connections) -> None:
        self.gw = gw
        self.limits = limits
        self.connections = connections
        self.per_seat: Counter[tuple[str, str]] = Counter()
        self.notices: dict[str, int] = {}
        self._watchers: Counter[str] = Counter()
        gw.changes.listen(self._changed)

    def _changed(self, ids: list[str] | None) -> None:
        notices = self.notices
        if ids is None:  # notices may have been missed: every table may have moved
            for game_id in notices:
                notices[game_id] += 1
            return
        for game_id in ids:
            if game_id in notices:
                notices[game_id] += 1

    def admit(self, address: str) -> None:
        """A connection that has not authenticated yet: capped apart, per address and in all."""
        try:
            self.connections.take("unauthenticated", address)
        except Refusal as refusal:
            raise Refused(refusal.code, refusal.message) from refusal
        _OPEN.inc()

    def authenticated(self, address: str) -> None:
        """The hello was good: the connection holds a play slot instead."""
        try:
            self.connections.take("play", address)
        except Refusal as refusal:
            raise Refused(refusal.code, refusal.message) from refusal
        self.connections.give_back("unauthenticated", address)

    def leave(self, address: str, authenticated: bool) -> None:
        self.connections.give_back("play" if authenticated else "unauthenticated", address)
        _OPEN.dec()

    def seat(self, game_id: str, hashed: str) -> None:
        key = (game_id, hashed)
        if self.per_seat[key] >= self.limits.per_seat:
            raise Refused(
                "too_many_connections",
                f"This seat already has {self.limits.per_seat} play connections open; close one first.",
            )
        self.per_seat[key] += 1
        if not self._watchers[game_id]:
            self.notices.setdefault(game_id, 0)
        self._watchers[game_id] += 1

    def unseat(self, game_id: str, hashed: str) -> None:
        key = (game_id, hashed)
        self.per_seat[key] -= 1
        if self.per_seat[key] <= 0:
            del self.per_seat[key]
        self._watchers[game_id] -= 1
        if self._watchers[game_id] <= 0:
            del self._watchers[game_id]
            self.notices.pop(game_id, None)


def hub(app: Any, gw: Gateway) -> PlaySockets:
    sockets: PlaySockets | None = getattr(app.state, "play_sockets", None)
    if sockets is None:
        limits = getattr(app.state, "socket_limits", None) or SocketLimits()
        sockets = app.state.play_sockets = PlaySockets(gw, limits, app.state.connections)
    return sockets


async def serve(app: Any, params: dict[str, Any], scope: Scope, receive: Receive, send: Send) -> None:
    """One play connection, from its handshake to its close."""
    table_id: str = params["table_id"]
    gw: Gateway = app.state.gateway
    sockets = hub(app, gw)
    if (await receive())["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    connection = _Connection(gw, sockets, app.state.credentials, table_id, scope, receive, send)
    try:
        sockets.admit(connection.address)
    except Refused as refused:
        await connection.refuse(refused)
        return
    try:
        await connection.run()
    finally:
        sockets.leave(connection.address, connection.authenticated)


class _Connection:
    def __init__(
        self,
        gw: Gateway,
        sockets: PlaySockets,
        credentials: Credentials,
        table_id: str,
        scope: Scope,
        receive: Receive,
        send: Send,
    ) -> None:
        self.gw = gw
        self.sockets = sockets
        self.credentials = credentials
        #: The hash of the token or key the hello brought, held in ``credentials`` meanwhile.
        self.credential: str | None = None
        #: When that was a player key: (its hash, its player), checked before each command.
        self.player_key: tuple[str, str] | None = None
        self.limits = sockets.limits
        self.table_id = table_id
        self.address = sockets.connections.client_of(scope)
        #: Whether the connection holds a play slot (else an unauthenticated one).
        self.authenticated = False
        self._receive = receive
        self._send = send
        self.loop = asyncio.get_running_loop()
        self.last_active = self.loop.time()
        #: The newest version a view sent here showed.
        self.shown = -1
        #: The change notices of this table (as counted by ``sockets``) that the last
        #: view sent here is known to include.
        self.covered = 0
        self.busy = False
        self.idle = asyncio.Event()
        self.idle.set()
        #: When the send under way started (None: none is).
        self.sending_since: float | None = None
        #: Why the watchdog (or the end of the credential) ended the connection.
        self.ended: Refused | _Stalled | None = None
        self._period = max(0.05, min(self.limits.idle_s, self.limits.send_timeout_s) / 4)
        self._timer: asyncio.TimerHandle | None = None
        self._tasks: tuple[asyncio.Task[None], ...] = ()

    def end(self) -> None:
        """The credential ended (:class:`Credentials` heard it): whatever is under way
        stops, and the connection closes with ``credential_revoked``."""
        if self.ended is None:
            self.ended = _revoked()
        for task in self._tasks:
            task.cancel()

    def _check_ended(self) -> None:
        if self.ended is not None:
            raise self.ended

    async def run(self) -> None:
        try:
            await self._run()
        finally:
            if self.credential is not None:
                self.credentials.release(self.credential, self)

    async def _run(self) -> None:
        try:
            try:
                hashed, seat = await self._hello()
            except _STORE_DOWN as exc:
                raise _unavailable() from exc
            self._check_ended()
            self.sockets.authenticated(self.address)
            self.authenticated = True
            self.sockets.seat(self.table_id, hashed)
        except Refused as refused:
            await self.refuse(refused)
            return
        except _Stalled:
            return
        try:
            await self._play(hashed, seat)
        finally:
            self.sockets.unseat(self.table_id, hashed)

    async def _hello(self) -> tuple[str, int]:
        """The seat of the token the first message brings (refused otherwise)."""
        gw = self.gw
        try:
            async with asyncio.timeout(self.limits.auth_s):
                message = await self._receive()
        except TimeoutError as exc:
            raise Refused(
                "missing_token", f'Send {{"token": "<your seat token>"}} within {self.limits.auth_s:g} s.'
            ) from exc
        raw = _payload(message)
        if raw is None:
            raise _Stalled  # the client left
        try:
            token = _hello(raw).token
        except (msgspec.ValidationError, msgspec.DecodeError, RecursionError) as exc:
            raise Refused(
                "missing_token", 'The first message must be {"token": "<your seat token>"}.'
            ) from exc
        try:
            gw.keys(self.table_id)
            gw.limits.check_tokens(self.address)
            # Held before the store is asked: an ending after that read is heard.
            self.credential = token_hash(token)
            self.credentials.hold(self.credential, self)
            hashed, player_id = await seat_token_of(gw, self.table_id, token)
            if player_id is not None:
                self.player_key = (self.credential, player_id)
                self.credentials.player_key(self.credential, player_id)
            seat = await gw.seat_of(self.table_id, hashed)
            if seat is None:
                gw.limits.bad_token(self.address)
                raise ApiError("bad_token", "This token does not belong to a seat at this table.")
        except ApiError as exc:
            raise Refused(exc.code, exc.message, **exc.details) from exc
        return hashed, seat

    async def _ready(self, hashed: str, seat: int) -> None:
        """The view the seat starts from, charged to its read budget as a GET is."""
        try:
            self.gw.limits.read(hashed)
            self.covered = self.sockets.notices.get(self.table_id, 0)
            doc = await read_view(self.gw, self.gw.keys(self.table_id), audience_name(seat))
        except ApiError as exc:
            raise Refused(exc.code, exc.message, **exc.details) from exc
        except _STORE_DOWN as exc:
            raise _unavailable() from exc
        self._check_ended()
        self.shown = _version(doc).version
        ready = b'{"type":"ready","seat":%d,"view":%s}' % (seat, doc)
        await self._out_within({"type": "websocket.send", "bytes": None, "text": ready.decode()})
        self._check_ended()

    async def _play(self, hashed: str, seat: int) -> None:
        try:
            await self._ready(hashed, seat)
        except Refused as refused:
            await self.refuse(refused)
            return
        except (_Stalled, _Left):
            return
        reader = asyncio.create_task(self._commands(hashed))
        pusher = asyncio.create_task(self._pushes(audience_name(seat)))
        self._tasks = (reader, pusher)
        self._timer = self.loop.call_later(self._period, self._watch, (reader, pusher))
        try:
            await asyncio.wait({reader, pusher}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if self._timer is not None:
                self._timer.cancel()
            for task in (reader, pusher):
                task.cancel()
            # Whichever ended first says why; the other was cancelled (or ended alike).
            await asyncio.wait({reader, pusher})
        for task in (reader, pusher):
            try:
                if self.ended is not None:
                    raise self.ended
                if task.cancelled():
                    continue
                task.result()
            except Refused as refused:
                await self.refuse(refused)
            except _Stalled:
                metrics.PLAY_SOCKET_REFUSALS.labels("stalled").inc()
            except _Left:
                pass
            except _STORE_DOWN:
                await self.refuse(_unavailable())
            except Exception:
                metrics.ERRORS.labels("gateway", "unexpected").inc()
                log.exception("play_socket_failed", table_id=self.table_id)
                await self.refuse(Refused("internal", INTERNAL_MESSAGE))
            if self.ended is not None:
                return

    def _watch(self, tasks: tuple[asyncio.Task[None], ...]) -> None:
        """Every ``_period``: end a connection whose send has not gone through within
        ``send_timeout_s`` (its client does not read) or that was idle for ``idle_s``.
        One timer per connection rather than a timeout around every message."""
        now = self.loop.time()
        if self.sending_since is not None and now - self.sending_since > self.limits.send_timeout_s:
            log.info("play_socket_stalled", table_id=self.table_id)
            self.ended = _Stalled()
        elif self.sending_since is None and now - self.last_active > self.limits.idle_s:
            self.ended = Refused("idle_timeout", f"Nothing was sent either way for {self.limits.idle_s:g} s.")
        if self.ended is None:
            self._timer = self.loop.call_later(self._period, self._watch, tasks)
            return
        for task in tasks:
            task.cancel()

    async def _commands(self, hashed: str) -> None:
        limit = self.gw.settings.max_body_bytes
        while True:
            message = await self._receive()
            self.last_active = self.loop.time()
            raw = _payload(message)
            if raw is None:
                return  # the client closed
            _IN.inc()
            self.busy = True
            self.idle.clear()
            try:
                status, body = await self._command(hashed, raw, limit)
            finally:
                self.busy = False
                self.idle.set()
            _REPLIES.inc()
            await self._out(b'{"type":"reply","http_status":%d,"answer":%s}' % (status, body))

    async def _command(self, hashed: str, raw: bytes, limit: int) -> tuple[int, bytes]:
        gw = self.gw
        before = self.sockets.notices.get(self.table_id, 0)
        message: list[PlayMessage] = []

        async def read() -> Move:
            if len(raw) > limit:
                raise ApiError("body_too_large", f"The body is larger than {limit} bytes.", limit=limit)
            message.append(decode_json(raw, PlayMessage))
            # After the budget and the body's checks, before anything is submitted: a
            # rotation this gateway has not heard of yet still stops the move.
            key = self.player_key
            if key is not None and not await self.credentials.current(*key):
                raise self.ended or _revoked()
            return message[0]

        try:
            played = await play(
                gw,
                self.table_id,
                hashed,
                self.address,
                read,
                lambda: message[0].idempotency_key,
                lambda: message[0].correlation_id or made_up_id(),
            )
        except ApiError as exc:
            metrics.REJECTIONS.labels("gateway", exc.code).inc()
            return status_of(exc.code), error_body(exc.code, exc.message, exc.details)
        except _STORE_DOWN:  # as the HTTP route answers it (app.on_store_down)
            metrics.ERRORS.labels("gateway", "store_unreachable").inc()
            return status_of("unavailable"), error_body("unavailable", STORE_DOWN_MESSAGE)
        if played.view is not None:
            shown = _version(played.view).version
            self.shown = max(self.shown, shown)
            now = self.sockets.notices.get(self.table_id, 0)
            # The view waited for this command's own notice: if that was the only one
            # since the command came, the view includes every notice so far.
            own = played.version is not None and not played.duplicate and shown >= played.version
            self.covered = now if own and now - before <= 1 else before
        return played.status, played.body

    async def _pushes(self, name: str) -> None:
        gw, keys = self.gw, self.gw.keys(self.table_id)
        notices = self.sockets.notices
        while True:
            if self.busy:  # the reply will carry the view; look again after it
                await self.idle.wait()
                continue
            wake = gw.changes.waiter(self.table_id)  # before the check: a notice in between still wakes
            count = notices.get(self.table_id, 0)
            if count == self.covered:
                await wake.wait()
                continue
            try:
                doc = await read_view(gw, keys, name)
            except ApiError as exc:
                if status_of(exc.code) != 503:
                    raise Refused(exc.code, exc.message, **exc.details) from exc
                # The views are coming back (read models rebuilt): look again shortly,
                # as a client told "retry shortly" would.
                await asyncio.sleep(_RETRY_S)
                continue
            if self.busy:
                continue  # a command started meanwhile: its reply decides what is covered
            self.covered = count
            version = _version(doc).version
            if version > self.shown:
                self.shown = version
                _PUSHES.inc()
                await self._out(b'{"type":"view","view":%s}' % doc)

    async def _out(self, data: bytes) -> None:
        """Send; the watchdog ends the connection if this does not return in time."""
        self._check_ended()  # nothing more once the credential ended
        self.sending_since = self.loop.time()
        try:
            await self._send({"type": "websocket.send", "bytes": None, "text": data.decode()})
        except OSError as exc:  # the server's ClientDisconnected: the client left mid-push
            raise _Left from exc
        self.sending_since = None
        self.last_active = self.loop.time()

    async def _out_within(self, message: dict[str, Any]) -> None:
        """Send outside the watchdog's watch (the first and the last message)."""
        try:
            async with asyncio.timeout(self.limits.send_timeout_s):
                await self._send(message)
        except TimeoutError as exc:
            raise _Stalled from exc
        except OSError as exc:
            raise _Left from exc
        self.last_active = self.loop.time()

    async def refuse(self, refused: Refused) -> None:
        """A last message saying why, and a close whose code and reason say it too."""
        metrics.PLAY_SOCKET_REFUSALS.labels(refused.code).inc()
        status = status_of(refused.code)
        body = error_body(refused.code, refused.message, refused.details)
        last = b'{"type":"error","http_status":%d,"answer":%s}' % (status, body)
        with contextlib.suppress(_Stalled, Exception):
            await self._out_within({"type": "websocket.send", "bytes": None, "text": last.decode()})
            close = {"type": "websocket.close", "code": CLOSE_BASE + status, "reason": refused.code}
            await self._out_within(close)


def _payload(message: Any) -> bytes | None:
    """A received message's bytes; None when the client disconnected."""
    if message["type"] != "websocket.receive":
        return None
    text = message.get("text")
    if text is not None:
        return str(text).encode()
    data = message.get("bytes")
    return bytes(data) if data is not None else b""


#: Not in the OpenAPI document, which has no WebSocket operations: this module says its protocol.
routes = [Route("WEBSOCKET", "/v1/tables/{table_id}/play", serve)]
