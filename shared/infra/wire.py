"""A thin Redis path for the pipelines and single commands every stage sends.

redis-py's asyncio client spends more CPU per round trip than the stages'
small batches cost the server: a pool checkout and release under a lock,
a retry wrapper, a timeout context and a parser call per reply, and
observability hooks, 13-25 % of every stage's CPU (docs/performance.md).
Here a request is one socket write of commands packed by hiredis, and its
replies are parsed by a hiredis reader fed straight from the protocol's
``data_received``; redis-py's own response callbacks shape the replies, so
callers see exactly what redis-py would give them.

What stays with redis-py: transactions (``MULTI``/``WATCH``), pub/sub, a
cluster, ``SCRIPT`` objects, and anything else stateful. A connection that
fails or whose request is cancelled mid-way is closed, never reused, so no
reply can reach the wrong caller. Nothing is retried here: a failure reaches
the caller as redis-py's ``ConnectionError``, which every stage already
treats as an outage (its entries stay pending and are read again). An idle
connection the server closed (a restart) is noticed by the event loop and
dropped before it is used again, so a restarted server costs no request.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import AsyncIterator, Awaitable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any

import hiredis
import redis.asyncio as aioredis
from redis._parsers.base import BaseParser
from redis.asyncio.client import Pipeline
from redis.client import EMPTY_RESPONSE, NEVER_DECODE
from redis.connection import parse_url
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import DataError, ResponseError

from shared.observability import metrics

#: Commands that change or depend on a connection's state: redis-py keeps them.
_STATEFUL = frozenset(
    {
        *("SUBSCRIBE", "PSUBSCRIBE", "SSUBSCRIBE", "MONITOR", "WATCH", "UNWATCH", "MULTI", "EXEC"),
        *("SELECT", "AUTH", "HELLO", "CLIENT", "RESET", "QUIT"),
    }
)


def _name(command: Any) -> str:
    word = command.decode() if isinstance(command, bytes) else str(command)
    return word.split(" ", 1)[0].upper()


def pack(commands: Sequence[Sequence[Any]]) -> bytes:
    """One request's bytes; a command name with a space ("SCRIPT LOAD") is two words, as in redis-py."""
    out = []
    for args in commands:
        first = args[0]
        # A membership test before the split: splitting every command's name
        # (and isinstance against a union) cost more than packing a short command.
        kind = first.__class__
        space = " " if kind is str else b" " if kind is bytes else None
        if space is None and isinstance(first, str | bytes):
            space = " " if isinstance(first, str) else b" "
        if space is not None and space in first and len(words := first.split()) > 1:
            args = (*words, *args[1:])
        try:
            out.append(hiredis.pack_command(tuple(args)))
        except TypeError as exc:  # redis-py's error for an argument it cannot send
            raise DataError(str(exc)) from exc
    return b"".join(out)


_MORE = object()  # what the reader answers until a whole reply has arrived


class _Connection(asyncio.Protocol):
    """One socket: a request is written whole, its replies read in order."""

    def __init__(self) -> None:
        self.reader = hiredis.Reader(notEnoughData=_MORE)
        self.transport: Any = None  # asyncio's or uvloop's (which is not an asyncio.Transport)
        self.closed = False
        self._waiter: asyncio.Future[None] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_exception(RedisConnectionError("Connection closed by server."))

    def close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()

    async def request(self, payload: bytes, count: int) -> list[Any]:
        assert self.transport is not None
        self.transport.write(payload)
        replies: list[Any] = []
        gets = self.reader.gets
        while len(replies) < count:
            reply = gets()
            if reply is not _MORE:  # RESP3 has a false of its own
                replies.append(_error(reply) if isinstance(reply, hiredis.ReplyError) else reply)
                continue
            await self._more()
        return replies

    async def request_last(self, payload: bytes, count: int) -> Any:
        """Like :meth:`request`, keeping only the last reply: for a transaction,
        whose ``+QUEUED`` answers say nothing ``EXEC``'s does not."""
        assert self.transport is not None
        self.transport.write(payload)
        gets = self.reader.gets
        reply: Any = None
        while count:
            reply = gets()
            if reply is _MORE:
                await self._more()
            else:
                count -= 1
        return _error(reply) if isinstance(reply, hiredis.ReplyError) else reply

    async def _more(self) -> None:
        """Until more data has arrived (raises if the server closed the connection)."""
        if self.closed:
            raise RedisConnectionError("Connection closed by server.")
        self._waiter = asyncio.get_running_loop().create_future()
        try:
            await self._waiter
        finally:
            self._waiter = None


def _answers(replies: list[Any]) -> list[Any]:
    for reply in replies:
        # Not an answer but the server's state (LOADING after a restart, a
        # refused AUTH): raised as redis-py raises it, an outage to the stages.
        if isinstance(reply, Exception) and not isinstance(reply, ResponseError):
            raise reply
    return replies


class Session:
    """One held connection (:meth:`Wire.session`): requests given as packed bytes."""

    def __init__(self, conn: _Connection) -> None:
        self._conn = conn

    async def send(self, payload: bytes, count: int) -> list[Any]:
        """``count`` commands already packed (RESP) in one round trip; replies as :meth:`Wire.call`'s."""
        return _answers(await self._round_trip(self._conn.request(payload, count)))

    async def call(self, commands: Sequence[Sequence[Any]]) -> list[Any]:
        return await self.send(pack(commands), len(commands))

    async def transaction(self, payload: bytes, count: int) -> Any:
        """``MULTI``, commands and ``EXEC`` (``count`` in all) already packed, in
        one round trip: ``EXEC``'s answer (``None`` if a watched key moved; an
        ``EXECABORT`` error if a command was refused while queued)."""
        return _answers([await self._round_trip(self._conn.request_last(payload, count))])[0]

    @staticmethod
    async def _round_trip(request: Awaitable[Any]) -> Any:
        """One request's answer, counted; a broken connection raised as redis-py raises it."""
        try:
            answer = await request
        except (OSError, hiredis.ProtocolError) as exc:
            raise RedisConnectionError(str(exc)) from exc
        metrics.REDIS_ROUND_TRIPS.inc()
        return answer


def _error(reply: hiredis.ReplyError) -> Exception:
    """The server's error as redis-py's exception class for it (NOSCRIPT, LOADING, ...)."""
    error: Exception = BaseParser.parse_error(str(reply))  # type: ignore[no-untyped-call]
    return error


class Wire:
    """Connections to one server, each used by one request at a time."""

    def __init__(self, host: str, port: int, db: int = 0, username: str = "", password: str = "") -> None:
        self.host, self.port, self.db = host, port, db
        self.username, self.password = username, password
        self._idle: list[_Connection] = []

    @classmethod
    def from_url(cls, url: str) -> Wire | None:
        """A wire for a plain ``redis://`` URL; ``None`` for anything else (TLS, sockets)."""
        if not url.startswith("redis://"):
            return None
        kw: dict[str, Any] = parse_url(url)  # type: ignore[no-untyped-call]
        if set(kw) - {"host", "port", "db", "username", "password"}:
            return None
        return cls(
            kw.get("host", "localhost"),
            int(kw.get("port", 6379)),
            int(kw.get("db", 0)),
            kw.get("username") or "",
            kw.get("password") or "",
        )

    async def call(self, commands: Sequence[Sequence[Any]]) -> list[Any]:
        """Every command in one round trip; the raw replies, errors as exceptions in place."""
        payload = pack(commands)
        conn = await self._take()
        try:
            replies = await conn.request(payload, len(commands))
        except BaseException as exc:  # cancelled or failed mid-way: its replies could reach another caller
            conn.close()
            if isinstance(exc, OSError | hiredis.ProtocolError):
                raise RedisConnectionError(str(exc)) from exc
            raise
        metrics.REDIS_ROUND_TRIPS.inc()
        self._idle.append(conn)
        return _answers(replies)

    @asynccontextmanager
    async def session(self) -> AsyncIterator[Session]:
        """A connection of one's own for requests that rely on its state (``WATCH``,
        then ``MULTI`` ... ``EXEC``); closed afterwards, so no state outlives it."""
        conn = await self._open()
        try:
            yield Session(conn)
        finally:
            conn.close()

    async def _take(self) -> _Connection:
        while self._idle:
            conn = self._idle.pop()
            if not conn.closed:
                return conn
        return await self._open()

    async def _open(self) -> _Connection:
        loop = asyncio.get_running_loop()
        try:
            transport, conn = await loop.create_connection(_Connection, self.host, self.port)
        except OSError as exc:
            raise RedisConnectionError(f"Error connecting to {self.host}:{self.port}: {exc}") from exc
        # uvloop may call connection_made only on the loop's next turn.
        conn.connection_made(transport)
        # RESP3, as redis-py speaks it: its response callbacks expect those shapes.
        hello: list[tuple[Any, ...]] = [
            ("HELLO", 3, "AUTH", self.username or "default", self.password) if self.password else ("HELLO", 3)
        ]
        if self.db:
            hello.append(("SELECT", self.db))
        try:
            for reply in await conn.request(pack(hello), len(hello)):
                if isinstance(reply, Exception):
                    raise reply
        except BaseException:
            conn.close()
            raise
        return conn

    def close(self) -> None:
        for conn in self._idle:
            conn.close()
        self._idle.clear()


#: Options of a queued command that are not its response callback's.
_NOT_OPTIONS = frozenset({"keys", NEVER_DECODE, EMPTY_RESPONSE})
#: What a response callback returns that is never awaitable: no isawaitable check.
_PLAIN = frozenset({bytes, str, int, float, bool, list, dict, tuple, type(None)})


def _shape(callbacks: Mapping[Any, Any], args: Sequence[Any], reply: Any, given: Mapping[str, Any]) -> Any:
    """A reply as redis-py's client returns it (its response callback applied);
    awaitable only if the callback is (see :func:`_settled`). Synchronous, so a
    pipeline's replies are shaped without a coroutine each."""
    if isinstance(reply, ResponseError):
        return given.get(EMPTY_RESPONSE, reply) if given else reply
    callback = callbacks.get(args[0])
    if callback is None:
        return reply
    if given:
        options = {k: v for k, v in given.items() if k not in _NOT_OPTIONS}
        if options:
            return callback(reply, **options)
    return callback(reply)


async def _settled(shaped: Any) -> Any:
    return await shaped if shaped.__class__ not in _PLAIN and inspect.isawaitable(shaped) else shaped


class LeanPipeline(Pipeline):
    """redis-py's pipeline, executed over a :class:`Wire` unless it is a transaction."""

    wire: Wire

    async def execute(self, raise_on_error: bool = True) -> list[Any]:
        stack = self.command_stack
        if self.is_transaction or self.explicit_transaction or self.watching or self.scripts:
            return list(await super().execute(raise_on_error))
        if not stack:
            return []
        try:
            replies = await self.wire.call([args for args, _ in stack])
            callbacks = self.response_callbacks
            results = [
                _shape(callbacks, args, reply, options)
                for (args, options), reply in zip(stack, replies, strict=True)
            ]
            for i, shaped in enumerate(results):
                if shaped.__class__ not in _PLAIN and inspect.isawaitable(shaped):
                    results[i] = await shaped
        finally:
            await self.reset()  # type: ignore[no-untyped-call]
        if raise_on_error:
            for i, result in enumerate(results):
                if isinstance(result, ResponseError):
                    self.annotate_exception(result, i + 1, stack[i][0])
                    raise result
        return results


class LeanRedis(aioredis.Redis):
    """redis-py's client whose pipelines and plain commands go over a :class:`Wire`."""

    wire: Wire | None = None

    def pipeline(self, transaction: bool = True, shard_hint: str | None = None) -> Pipeline:
        if self.wire is None:
            return super().pipeline(transaction, shard_hint)
        pipe = LeanPipeline(self.connection_pool, self.response_callbacks, transaction, shard_hint)
        pipe.wire = self.wire
        return pipe

    async def execute_command(self, *args: Any, **options: Any) -> Any:
        if self.wire is None or self.single_connection_client or _name(args[0]) in _STATEFUL:
            return await super().execute_command(*args, **options)  # type: ignore[no-untyped-call]
        (reply,) = await self.wire.call([args])
        result = await _settled(_shape(self.response_callbacks, args, reply, options))
        if isinstance(result, ResponseError):
            raise result
        return result

    async def aclose(self, close_connection_pool: bool | None = None) -> None:
        if self.wire is not None:
            self.wire.close()
        await super().aclose(close_connection_pool)
