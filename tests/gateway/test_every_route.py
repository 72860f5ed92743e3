"""No 5xx, on any path, for any request: every route of the gateway's table, with
every method, as a WebSocket handshake, and with the upgrades and framings a
client may send by mistake or on purpose, each answered below 500, and each
refusal in the gateway's error format with a documented code.

The requests go over raw sockets (an HTTP library would refuse to send half of
them), each from an address of its own so that the per-address budgets answer
429 no more often than a real client would meet them.
"""

from __future__ import annotations

import base64
import json
import os
import re
import socket
from collections.abc import Iterator

import httpx
import pytest

from services.gateway.app import ROUTES
from services.gateway.errors import STATUS
from shared.infra.launcher import Stack
from tests.gateway.clients import fresh_address, raw_connection
from tests.support.stacks import running_stack

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("edge-routes"), pytest.mark.timeout(300)]

METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "PROPFIND", "FOO"]
_PARAM = re.compile(r"\{(\w+)\}")


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    yield from running_stack(tmp_path_factory, "edge-routes")


@pytest.fixture(scope="module")
def table_id(stack: Stack) -> str:
    r = httpx.post(f"{stack.api}/v1/tables", json={"game": "highcard", "seats": 2}, timeout=30)
    assert r.status_code == 201, r.text
    return str(r.json()["table_id"])


def paths(table_id: str) -> list[str]:
    """Every route's path, its parameters filled with a real table's id, a stranger's, and junk."""
    fills = [
        {"table_id": table_id, "game": "highcard", "pack": "base"},
        {"table_id": "no-such-table", "game": "no-such-game", "pack": "no-such-pack"},
        {"table_id": "%00%ff..%2f", "game": "%2e%2e", "pack": "%00"},
    ]
    found = set()
    for route in ROUTES:
        template = str(getattr(route, "path", ""))
        for fill in fills:
            found.add(_PARAM.sub(lambda m, fill=fill: fill.get(m.group(1), "x-1"), template))  # type: ignore[misc]
    found |= {"/static/app.js", "/static/", "/static/../pyproject.toml", "/static/%2e%2e/x", "/nowhere", "/"}
    return sorted(found)


def ask(port: int, raw: bytes) -> tuple[int, bytes]:
    """Send one raw request and read its answer's status line and body (status 0: no answer).
    A streamed answer (a live feed) is read up to its head."""
    data = b""
    with raw_connection(port, fresh_address()) as sock:
        sock.settimeout(15)
        try:
            sock.sendall(raw)
            while not _whole(data):
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
        except (TimeoutError, ConnectionResetError):
            pass
    if not data.startswith(b"HTTP/1."):
        return 0, data
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def _whole(data: bytes) -> bool:
    head, found, body = data.partition(b"\r\n\r\n")
    if not found:
        return False
    for line in head.lower().split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name == b"content-length":
            return len(body) >= int(value)
    return True  # no length: a streamed answer, a 101, or a HEAD's


def upgrade_headers() -> str:
    key = base64.b64encode(os.urandom(16)).decode()
    return (
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
    )


def check(status: int, body: bytes, what: str) -> None:
    assert status != 0, f"{what}: no answer"
    assert status < 500, f"{what}: answered {status}: {body[:300]!r}"
    if status >= 400 and body.startswith(b"{"):
        answer = json.loads(body)
        assert answer["code"] in STATUS or status == 422, f"{what}: undocumented code {answer['code']}"


def test_every_route_and_method(stack: Stack, table_id: str) -> None:
    for path in paths(table_id):
        for method in METHODS:
            bodies = (
                (b"", b'{"game": 1}', b"\xff\xfe not json") if method in ("POST", "PUT", "PATCH") else (b"",)
            )
            for body in bodies:
                raw = (
                    f"{method} {path} HTTP/1.1\r\nHost: edge\r\nContent-Type: application/json\r\n"
                    f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
                ).encode() + body
                status, answer = ask(stack.http_port, raw)
                check(status, answer, f"{method} {path} {body!r}")


def test_a_websocket_handshake_on_every_route(stack: Stack, table_id: str) -> None:
    for path in paths(table_id):
        raw = f"GET {path} HTTP/1.1\r\nHost: edge\r\n{upgrade_headers()}\r\n".encode()
        status, body = ask(stack.http_port, raw)
        check(status, body, f"handshake on {path}")
        if status == 101:
            assert path.endswith("/play"), f"{path} accepted a WebSocket"
        elif not path.endswith("/play"):
            assert status == 404 and json.loads(body)["code"] == "not_found", (path, status, body)


@pytest.mark.parametrize(
    "raw",
    [
        b"GET /health HTTP/1.1\r\nHost: edge\r\nUpgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\n"
        b"HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n",
        b"GET /health HTTP/1.1\r\nHost: edge\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
        b"POST /v1/tables HTTP/1.1\r\nHost: edge\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        b"POST /v1/tables HTTP/1.1\r\nHost: edge\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nabcde",
        b"POST /v1/tables HTTP/1.1\r\nHost: edge\r\nContent-Length: -1\r\n\r\n",
        b"GET /health HTTP/1.0\r\n\r\n",
        b"GET /health HTTP/9.9\r\n\r\n",
        b"GET http://elsewhere/health HTTP/1.1\r\nHost: edge\r\n\r\n",
        b"OPTIONS * HTTP/1.1\r\nHost: edge\r\n\r\n",
        b"GET /\x00health HTTP/1.1\r\nHost: edge\r\n\r\n",
        b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03",  # a TLS hello on the plain port
        b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",  # an HTTP/2 preface
        b"GET /health HTTP/1.1\r\nHost: edge\r\nX-Bad: \x01\x02\r\n\r\n",
    ],
)
def test_requests_no_client_should_send(stack: Stack, raw: bytes) -> None:
    status, body = ask(stack.http_port, raw)
    check(status, body, repr(raw[:60]))
    if status >= 400:
        assert json.loads(body)["code"] in STATUS, (raw, status, body)


def test_a_bad_request_is_answered_in_the_error_format(stack: Stack) -> None:
    status, body = ask(stack.http_port, b"GARBAGE\r\n\r\n")
    assert status == 400
    assert json.loads(body) == {
        "status": "rejected",
        "code": "bad_request",
        "message": "This is not a valid HTTP/1.1 request.",
        "details": {},
    }
    with socket.create_connection(("127.0.0.1", stack.http_port)) as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: edge\r\nConnection: close\r\n\r\n")
        assert sock.recv(64).startswith(b"HTTP/1.1 200"), "the gateway stopped answering"
