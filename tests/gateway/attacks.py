"""Clients that do not play fair, one per class of attack on a gateway: its transport
(connections, frames, feeds) and its writes (floods, replayed idempotency keys).

Each attack runs from one source address until its deadline and ends by itself
(the suite and the soak benchmark, bench/edge_soak.py, both use them). What it
saw comes back in a :class:`Seen`: the status lines and refusal codes the
gateway answered, and how its connections ended, so the caller can check that
every refusal was the documented one.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket
import struct
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import httpx

from services.gateway.errors import RULE_STATUS, STATUS
from tests.gateway.clients import client, raw_connection

#: A receive buffer so small that a client that does not read fills it at once.
TINY_RCVBUF = 4096


@dataclass
class Seen:
    """What an attack saw: answers by status and code, and how connections ended."""

    statuses: Counter[int] = field(default_factory=Counter)
    codes: Counter[str] = field(default_factory=Counter)
    endings: Counter[str] = field(default_factory=Counter)
    #: Refusals by a rule of a game or a platform domain (422, their own codes).
    rules: Counter[str] = field(default_factory=Counter)
    sent_bytes: int = 0

    def add(self, other: Seen) -> None:
        self.statuses.update(other.statuses)
        self.codes.update(other.codes)
        self.rules.update(other.rules)
        self.endings.update(other.endings)
        self.sent_bytes += other.sent_bytes


@dataclass(frozen=True)
class Target:
    port: int
    #: A table this attacker may name (its own), and one of its seat tokens.
    table_id: str = "no-such-table"
    token: str | None = None


Attack = Callable[[Target, str, float], Seen]


def answer_of(sock: socket.socket, seen: Seen, timeout: float = 10.0) -> bytes:
    """Read one HTTP answer's head and body (by Content-Length), noting its status and code."""
    sock.settimeout(timeout)
    data = b""
    with contextlib.suppress(OSError):
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    if b"\r\n\r\n" not in data:
        seen.endings["no_answer"] += 1
        return data
    head, body = data.split(b"\r\n\r\n", 1)
    status = int(head.split(b" ", 2)[1])
    seen.statuses[status] += 1
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    with contextlib.suppress(OSError):
        while len(body) < length:
            chunk = sock.recv(65536)
            if not chunk:
                break
            body += chunk
    if body.startswith(b"{"):
        with contextlib.suppress(ValueError):
            code = json.loads(body).get("code")
            if code:
                seen.codes[code] += 1
    return data


def _connect(target: Target, source: str, seen: Seen, rcvbuf: int | None = None) -> socket.socket | None:
    try:
        return raw_connection(target.port, source, rcvbuf=rcvbuf)
    except OSError:
        seen.endings["connect_failed"] += 1
        return None


def _one_after_another(
    target: Target, source: str, deadline: float, seen: Seen, rcvbuf: int | None = None
) -> Iterator[socket.socket]:
    """A new connection each time the last one is done with, until the deadline."""
    while time.monotonic() < deadline:
        sock = _connect(target, source, seen, rcvbuf)
        if sock is None:
            time.sleep(0.05)
            continue
        with sock:
            yield sock


def _push(sock: socket.socket, data: bytes, seen: Seen, deadline: float) -> str:
    """Send ``data`` over and over without reading, until the deadline or the gateway ends it."""
    sock.settimeout(0.2)
    while time.monotonic() < deadline:
        try:
            seen.sent_bytes += sock.send(data)
        except TimeoutError:
            continue  # the gateway stopped reading: keep trying, as an attacker would
        except OSError:
            return "cut"
    return "held"


def pipelining_without_reading(target: Target, source: str, seconds: float) -> Seen:
    """HTTP/1.1 requests pipelined on one connection whose answers are never read."""
    seen = Seen()
    deadline = time.monotonic() + seconds
    requests = b"".join(
        f"GET {path} HTTP/1.1\r\nHost: edge\r\n\r\n".encode()
        for path in ("/health", "/openapi.json", f"/v1/tables/{target.table_id}/view", "/v1/games")
    )
    for sock in _one_after_another(target, source, deadline, seen, TINY_RCVBUF):
        seen.endings[_push(sock, requests * 64, seen, deadline)] += 1
    return seen


def _handshake(sock: socket.socket, path: str, seen: Seen) -> bool:
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET {path} HTTP/1.1\r\nHost: edge\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    sock.settimeout(10)
    head = b""
    with contextlib.suppress(OSError):
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(1)
            if not chunk:
                break
            head += chunk
    if not head.startswith(b"HTTP/1.1 101"):
        seen.endings["handshake_refused"] += 1
        return False
    return True


def frame(opcode: int, payload: bytes) -> bytes:
    """A masked client frame (the mask of zeros leaves the payload as it is)."""
    size = len(payload)
    if size < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | size)
    else:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, size)
    return head + b"\x00\x00\x00\x00" + payload


def ping_flood(target: Target, source: str, seconds: float, hello: bool = False) -> Seen:
    """WebSocket pings as fast as the socket takes them, the pongs never read; with
    ``hello``, after authenticating with the target's seat token."""
    seen = Seen()
    deadline = time.monotonic() + seconds
    pings = frame(0x9, b"p" * 125) * 256
    for sock in _one_after_another(target, source, deadline, seen, TINY_RCVBUF):
        if not _handshake(sock, f"/v1/tables/{target.table_id}/play", seen):
            time.sleep(0.05)
            continue
        if hello and target.token is not None:
            sock.sendall(frame(0x1, json.dumps({"token": target.token}).encode()))
        seen.endings[_push(sock, pings, seen, deadline)] += 1
    return seen


def ping_flood_with_hello(target: Target, source: str, seconds: float) -> Seen:
    return ping_flood(target, source, seconds, hello=True)


def _hoard(
    target: Target,
    source: str,
    seconds: float,
    count: int,
    start: Callable[[socket.socket, Seen], None],
    rcvbuf: int | None = None,
) -> tuple[Seen, list[socket.socket]]:
    """Open up to ``count`` connections from one address (``start`` sends on each what the
    attack sends), hold them until the deadline, then close them. The caller looks at the
    held sockets through ``start``'s notes."""
    seen = Seen()
    deadline = time.monotonic() + seconds
    held: list[socket.socket] = []
    try:
        for _ in range(count):
            if time.monotonic() >= deadline:
                break
            if (sock := _connect(target, source, seen, rcvbuf)) is not None:
                held.append(sock)
                start(sock, seen)
        for sock in held:  # refusals are sent at once: read what has come
            sock.settimeout(0.05)
            with contextlib.suppress(OSError):
                if data := sock.recv(65536, socket.MSG_PEEK):
                    _note(data, seen)
        time.sleep(max(0.0, deadline - time.monotonic()))
    finally:
        for sock in held:
            sock.close()
    return seen, held


def _note(data: bytes, seen: Seen) -> None:
    """The status and refusal code of an HTTP answer, or the code of a play connection's last message."""
    if data.startswith(b"HTTP/1.1 ") and len(data) > 12:
        seen.statuses[int(data[9:12])] += 1
    if b'"code":"' in data:
        seen.codes[data.split(b'"code":"', 1)[1].split(b'"', 1)[0].decode()] += 1


def socket_hoarding(target: Target, source: str, seconds: float, count: int = 400) -> Seen:
    """Open as many sockets as the gateway lets one address have, and send nothing on them."""
    return _hoard(target, source, seconds, count, lambda sock, seen: None)[0]


def slow_headers(target: Target, source: str, seconds: float) -> Seen:
    """Slowloris: a request head sent a byte at a time, never finished."""
    seen = Seen()
    deadline = time.monotonic() + seconds
    for sock in _one_after_another(target, source, deadline, seen):
        sock.settimeout(0.5)
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: edge\r\n")
        answered = False
        while time.monotonic() < deadline and not answered:
            try:
                sock.sendall(b"X")
                if sock.recv(1, socket.MSG_PEEK):
                    answer_of(sock, seen)
                    answered = True
            except TimeoutError:
                continue
            except OSError:
                seen.endings["cut"] += 1
                break
        if answered:
            seen.endings["answered"] += 1
    return seen


def oversized_headers(target: Target, source: str, seconds: float) -> Seen:
    """Request heads far over any sensible size, one connection after another."""
    seen = Seen()
    deadline = time.monotonic() + seconds
    filler = "".join(f"X-Filler-{i}: {'z' * 200}\r\n" for i in range(200))
    for sock in _one_after_another(target, source, deadline, seen):
        with contextlib.suppress(OSError):
            sock.sendall(f"GET /health HTTP/1.1\r\nHost: edge\r\n{filler}\r\n".encode())
        answer_of(sock, seen)
    return seen


def feed_hoarding(target: Target, source: str, seconds: float, count: int = 100) -> Seen:
    """Open many live feeds of a table from one address and never read them."""

    def ask(sock: socket.socket, seen: Seen) -> None:
        sock.sendall(f"GET /v1/tables/{target.table_id}/feed HTTP/1.1\r\nHost: edge\r\n\r\n".encode())

    return _hoard(target, source, seconds, count, ask, TINY_RCVBUF)[0]


def unauthenticated_play(target: Target, source: str, seconds: float, count: int = 40) -> Seen:
    """Open play connections and never send the token."""

    def upgrade(sock: socket.socket, seen: Seen) -> None:
        if _handshake(sock, f"/v1/tables/{target.table_id}/play", seen):
            seen.endings["upgraded"] += 1

    return _hoard(target, source, seconds, count, upgrade)[0]


def _api(target: Target, source: str) -> httpx.Client:
    return client(f"http://127.0.0.1:{target.port}", source, timeout=10)


def _answered(r: httpx.Response, seen: Seen) -> None:
    seen.statuses[r.status_code] += 1
    if r.status_code >= 400 and r.headers.get("content-type", "").startswith("application/json"):
        with contextlib.suppress(ValueError):
            code = r.json().get("code", "")
            # A rule's own refusal (a game's, an arena's: 422) is not a platform code.
            (seen.rules if r.status_code == RULE_STATUS and code not in STATUS else seen.codes)[code] += 1


def write_flood(target: Target, source: str, seconds: float) -> Seen:
    """An account that writes as fast as it can: arena joins and leaves, key rotations,
    invitations, each growing a stream if nothing stopped it."""
    seen = Seen()
    deadline = time.monotonic() + seconds
    with _api(target, source) as api:
        r = api.post("/v1/players", json={"name": f"flood {source}", "bot": True})
        _answered(r, seen)
        if r.status_code != 201:
            return seen
        player, key = r.json()["player_id"], r.json()["player_key"]
        r = api.post("/v1/arenas", json={"game": "highcard", "seats": 2, "seconds": 600})
        _answered(r, seen)
        arena = r.json().get("arena_id") if r.status_code == 201 else None
        while time.monotonic() < deadline:
            auth = {"authorization": f"Bearer {key}"}
            if arena is not None:
                for action in ("join", "leave"):
                    _answered(api.post(f"/v1/arenas/{arena}/{action}", headers=auth), seen)
            invite = {"game": "highcard", "seats": [{"player_id": player}, {"bot": "random"}]}
            _answered(api.post("/v1/casual", json=invite, headers=auth), seen)
            r = api.post(f"/v1/players/{player}/key", headers=auth)
            _answered(r, seen)
            if r.status_code == 200:
                key = r.json()["player_key"]
    return seen


def replayed_keys(target: Target, source: str, seconds: float) -> Seen:
    """One Idempotency-Key sent with every kind of write and many different bodies."""
    seen = Seen()
    deadline = time.monotonic() + seconds
    headers = {"idempotency-key": "the-same-key-every-time"}
    bodies = [
        ("/v1/tables", {"game": "highcard", "seats": 2}),
        ("/v1/tables", {"game": "highcard", "seats": 3}),
        ("/v1/tournaments", {"game": "highcard", "name": "replayed", "rounds": 1}),
        ("/v1/players", {"name": "replayed", "bot": True}),
        (f"/v1/tables/{target.table_id}/commands", {"command": {"type": "x.y"}, "expected_version": 10**6}),
    ]
    with _api(target, source) as api:
        while time.monotonic() < deadline:
            for path, body in bodies:
                auth = {"authorization": f"Bearer {target.token}"} if "commands" in path else {}
                _answered(api.post(path, json=body, headers={**headers, **auth}), seen)
    return seen


#: Every attack, by name: the suite runs each, the soak benchmark all at once.
ATTACKS: dict[str, Attack] = {
    "pipelining": pipelining_without_reading,
    "pings": ping_flood,
    "pings_after_hello": ping_flood_with_hello,
    "sockets": socket_hoarding,
    "slow_headers": slow_headers,
    "oversized_headers": oversized_headers,
    "feeds": feed_hoarding,
    "unauthenticated_play": unauthenticated_play,
    "write_flood": write_flood,
    "replayed_keys": replayed_keys,
}
