"""The gateway's own per-request work on a move and a view read, in one process.

The pipeline bench measures the gateway among five processes on a machine shared
with other work; this times, with ``process_time`` (this process's CPU alone), the
work the two hot routes do per request that involves no store: matching the route
(as ``GatewayApp`` does ahead of Starlette), reading the request's headers (token,
client address, Idempotency-Key, correlation id, the body's declared length),
reading and decoding the body, the rate limits a move with ``view: true`` spends,
scoping the command id, building the message, encoding the answer and counting
its latency; and, apart, the server's own work per request (uvicorn's httptools
protocol with the gateway's guards, the request's cycle and task, the answer's two
sends and its one socket write) for a move answered by an application that does
nothing else. So a change to the edge can be judged before and after under any load
(run it in a worktree of the previous commit and in this one, alternately).

``python -m bench.gateway_edge [--requests 20000] [--rounds 5]``; prints the median
and the fastest of the rounds in microseconds per request (on a shared machine the
fastest is the steadier: other work only ever adds), and the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from collections.abc import Callable, Coroutine
from typing import Any

import msgspec
import uvicorn
import uvloop
from starlette.requests import Request
from uvicorn.server import ServerState

from services.gateway.app import create_app
from services.gateway.body import Move, bearer, check_command, correlation_id, header_id, read_json
from services.gateway.connections import Connections
from services.gateway.context import Changes, client_address
from services.gateway.hot import HotRoutes, JsonAnswer
from services.gateway.mounts import TABLE
from services.gateway.ratelimit import Limits
from services.gateway.transport import bind
from shared.infra.settings import Settings
from shared.kernel.auth import token_hash
from shared.messaging.messages import MoveMsg, encode, scoped_command_id

TABLE_ID = "0123456789abcdef0123"
TOKEN = "t" * 43
BODY = b'{"command":{"type":"place","tile":"red","at":[3,4]},"expected_version":17,"view":true}'


def _scope(method: str, path: str, headers: list[tuple[bytes, bytes]], query: bytes = b"") -> dict[str, Any]:
    """A request as uvicorn's httptools protocol hands it over (names lower-cased)."""
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.4"},
        "http_version": "1.1",
        "server": ("127.0.0.1", 8000),
        "client": ("127.0.0.1", 51234),
        "scheme": "http",
        "method": method,
        "root_path": "",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query,
        "headers": headers,
        "state": {},
    }


def _run(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """A coroutine that never suspends (the body is already there), run without a loop."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    raise RuntimeError("suspended")


def workload() -> tuple[Callable[[], None], Callable[[], None]]:
    """(one move's edge work, one view read's edge work)."""
    # Budgets no run spends: the limits' work is timed, never a refusal.
    settings = Settings(rate_per_s=1e9, read_rate_per_s=1e9, rate_burst=10**9, read_burst=10**9)
    app: Any = create_app(settings)
    hot = HotRoutes(TABLE.hot)
    limits = Limits.from_settings(settings)
    changes = Changes(subscriber=None)  # type: ignore[arg-type]  # waiters only: nothing is heard
    move_headers = [
        (b"host", b"127.0.0.1:8000"),
        (b"content-type", b"application/json"),
        (b"content-length", b"%d" % len(BODY)),
        (b"authorization", b"Bearer " + TOKEN.encode()),
        (b"idempotency-key", b"k-0123456789"),
    ]
    view_headers = [(b"host", b"127.0.0.1:8000"), (b"authorization", b"Bearer " + TOKEN.encode())]
    move_path = f"/v1/tables/{TABLE_ID}/commands"
    view_path = f"/v1/tables/{TABLE_ID}/view"
    latency = hot._latency
    hashed = token_hash(TOKEN)
    answer = msgspec.json.encode({"status": "accepted", "version": 18, "events": [], "view": {"v": 1}})

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": BODY, "more_body": False}

    def routed(scope: dict[str, Any]) -> tuple[Any, Request]:
        """The route the hot path matches ahead of Starlette, and the request on it."""
        found = TABLE.ahead(scope)
        assert found is not None
        scope["app"] = app
        scope["path_params"] = found.params
        scope["route"] = found.route
        return found, Request(scope, receive)

    def move() -> None:
        scope = _scope("POST", move_path, move_headers)
        started = time.perf_counter()
        found, request = routed(scope)
        token = bearer(request)
        assert token is not None
        address = client_address(request)
        limits.check_tokens(address)
        limits.command(hashed)
        body = _run(read_json(request, Move, 65536))
        check_command(body.command)
        key = header_id(request, "idempotency-key")
        assert key is not None
        limits.read(hashed)
        changes.waiter(TABLE_ID)  # the move's notice, then the view read's
        changes.waiter(TABLE_ID)
        msg = MoveMsg(
            game_id=found.params["table_id"],
            partition=1,
            command_id=scoped_command_id(hashed, key),
            correlation_id=correlation_id(request),
            reply_to="gw",
            received_ns=time.time_ns(),
            token_hash=hashed,
            command=body.command,
            expected_version=body.expected_version,
        )
        encode(msg)
        response = JsonAnswer(answer, 200)
        assert response.raw_headers
        latency[found.route.path, "2xx"].observe(time.perf_counter() - started)

    def view() -> None:
        scope = _scope("GET", view_path, view_headers, b"min_version=18")
        started = time.perf_counter()
        found, request = routed(scope)
        token = bearer(request)
        assert token is not None
        limits.check_tokens(client_address(request))
        limits.read(hashed)
        response = JsonAnswer(answer)
        assert response.raw_headers
        latency[found.route.path, "2xx"].observe(time.perf_counter() - started)

    return move, view


class _Socket:
    """A connection's transport that takes every byte at once (what it was sent is counted)."""

    def __init__(self) -> None:
        self.sent = 0

    def write(self, data: bytes) -> None:
        self.sent += len(data)

    def is_closing(self) -> bool:
        return False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 51234), "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def get_write_buffer_size(self) -> int:
        return 0

    def pause_reading(self) -> None: ...

    def resume_reading(self) -> None: ...

    def set_write_buffer_limits(self, *args: Any, **kwargs: Any) -> None: ...

    def close(self) -> None: ...

    def abort(self) -> None: ...

    def can_write_eof(self) -> bool:
        return True


async def server_work(n: int, rounds: int) -> list[float]:
    """The server's own work per request, microseconds of CPU: one keep-alive connection's
    moves through the gateway's guarded httptools protocol (parse, guards, scope, the
    request's cycle and task, two sends, the coalesced write), answered by an application
    that only reads the body and sends a canned answer of a move's size."""
    answer = b"x" * 900
    head = [(b"content-length", b"%d" % len(answer)), (b"content-type", b"application/json")]
    request = (
        b"POST /v1/tables/%s/commands HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\nAuthorization: Bearer %s\r\nIdempotency-Key: k-0123456789\r\n\r\n%s"
        % (TABLE_ID.encode(), len(BODY), TOKEN.encode(), BODY)
    )

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "http.response.start", "status": 200, "headers": head})
        await send({"type": "http.response.body", "body": answer})

    settings = Settings(requests_per_address_per_s=1e9, requests_per_address_burst=10**9)
    http, _ = bind(settings, Connections.from_settings(settings))
    config = uvicorn.Config(
        app, log_level="warning", access_log=False, lifespan="off", proxy_headers=False, http=http
    )
    config.load()
    protocol = http(config=config, server_state=ServerState(), app_state={}, _loop=asyncio.get_running_loop())
    socket = _Socket()
    protocol.connection_made(socket)  # type: ignore[arg-type]
    out = []
    for _ in range(rounds + 1):  # the first round warms
        started = time.process_time()
        for _ in range(n):
            protocol.data_received(request)
            await asyncio.sleep(0)  # the request's task runs whole: the application never waits
            await asyncio.sleep(0)  # the coalesced write's turn
            if not protocol.cycle.response_complete:
                raise RuntimeError("a request took more turns of the loop than its answer needs")
        out.append((time.process_time() - started) / n * 1e6)
    if socket.sent < (rounds + 1) * n * len(answer):
        raise RuntimeError("not every request was answered in full")
    return out[1:]


def timed(fn: Callable[[], None], n: int) -> float:
    """Microseconds of this process's CPU per call, over ``n`` calls."""
    started = time.process_time()
    for _ in range(n):
        fn()
    return (time.process_time() - started) / n * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    asyncio.set_event_loop(asyncio.new_event_loop())
    move, view = workload()
    for fn in (move, view):
        timed(fn, 1000)  # warm: caches, the first observations
    moves = [timed(move, args.requests) for _ in range(args.rounds)]
    views = [timed(view, args.requests) for _ in range(args.rounds)]
    uvloop.install()
    server = asyncio.run(server_work(max(1, args.requests // 5), args.rounds))
    load = os.getloadavg()
    for name, rounds in (("move edge work", moves), ("view edge work", views), ("server work", server)):
        listed = ", ".join(f"{r:.2f}" for r in rounds)
        print(
            f"{name}: median {statistics.median(rounds):.2f}, fastest {min(rounds):.2f} "
            f"us/request (rounds {listed})"
        )
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
