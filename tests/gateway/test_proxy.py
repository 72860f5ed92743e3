"""The proxy in front, as deployed: the real HAProxy binary with
deploy/edge/haproxy.cfg in front of a real stack.

Through it a game is played to the end, over HTTP while its feed (server-sent
events) is watched, and over the seats' play connections (WebSocket); each move's
event must come through the feed before the next move is made, so a proxy that
buffered the stream would stall the test. Then the proxy's own limits are shown
refusing what they should (too many connections from one address, a request
flood, oversized heads and bodies, a head or a body that trickles in), each with
its status and, where HAProxy makes the answer, the gateway's JSON error
format, while a client from another address still gets through. The gateway
trusts the proxy's X-Forwarded-For (``ZIGGURAT_TRUSTED_PROXIES``) and no one
else's: its own per-address budget for opening tables, set low here, refuses
the address behind the proxy and not its neighbour, whatever either claims.
The web client's page and files come through it from the web service
(``python -m services.web``), the API from the gateway.

Each proxy the tests start reads the one configuration file; the numbers a test
needs small come from the environment, as an operator would set them
(``EDGE_*``, see the file). HAProxy comes from Debian's ``haproxy`` package,
installed here when it is missing (as root); elsewhere the test fails saying
how to install it.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from websockets.asyncio.client import ClientConnection, connect

from shared.cli import botclient
from shared.infra.launcher import Stack
from shared.infra.settings import UNTHROTTLED
from shared.infra.valkey_server import free_port, spawn
from shared.kernel.legal_groups import expand
from tests.gateway.clients import async_client, fresh_address, raw_connection
from tests.support.stacks import running_stack

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("haproxy"), pytest.mark.timeout(300)]

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / "deploy" / "edge" / "haproxy.cfg"
INSTALL_HINT = "install Debian's package: `apt-get update && apt-get install -y haproxy` (as root)"
#: Tables one client address may open at the gateway (its own budget, per address).
OPENS = 3
HIGHCARD = {"hand_size": 3, "deck_size": 8}
#: How long any one awaited thing may take on a busy machine before the test fails.
WITHIN_S = 30.0


# ------------------------------------------------------------------ install


def _install_haproxy() -> str:
    if found := shutil.which("haproxy"):
        return found
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        pytest.fail(f"haproxy is not on PATH; {INSTALL_HINT}")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    # Both test workers may get here: one installs, the other waits for it.
    with open("/tmp/ziggurat-apt.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if found := shutil.which("haproxy"):
            return found
        install = ["apt-get", "install", "-y", "-q", "--no-install-recommends", "haproxy"]
        done = subprocess.run(install, env=env, capture_output=True, text=True)
        if done.returncode != 0:  # an old or missing package list: refresh it once
            subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True, text=True)
            done = subprocess.run(install, env=env, capture_output=True, text=True)
    found = shutil.which("haproxy")
    if done.returncode != 0 or not found:
        pytest.fail(f"could not install haproxy ({done.stderr.strip()[-500:]}); {INSTALL_HINT}")
    return found


# ------------------------------------------------------------ stack and proxy


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    env = {
        **UNTHROTTLED,
        # The proxies of this test connect to the gateway from 127.0.0.1; every
        # client of it connects from an address of its own elsewhere in 127/8.
        "ZIGGURAT_TRUSTED_PROXIES": "127.0.0.1/32",
        # The gateway's own per-address budget, low enough to spend in a test.
        "ZIGGURAT_OPEN_RATE_PER_S": "0.001",
        "ZIGGURAT_OPEN_BURST": str(OPENS),
    }
    yield from running_stack(tmp_path_factory, "proxy-stack", env=env)


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """The web service as deployed (``python -m services.web``); its port."""
    port = free_port()
    env = {**os.environ, "ZIGGURAT_HTTP_HOST": "127.0.0.1", "ZIGGURAT_HTTP_PORT": str(port)}
    log = tmp_path_factory.mktemp("web") / "web.log"
    with log.open("wb") as out:
        process = spawn([sys.executable, "-m", "services.web"], env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + WITHIN_S
        while True:
            assert process.poll() is None, f"the web service exited:\n{log.read_text()}"
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                    break
            assert time.monotonic() < deadline, f"the web service did not start:\n{log.read_text()}"
            time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass
class Proxy:
    port: int
    stats_port: int
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def metrics(self) -> str:
        return httpx.get(f"http://127.0.0.1:{self.stats_port}/metrics", timeout=10).text


@contextlib.contextmanager
def running_proxy(
    root: Path, gateway_port: int, web_port: int | None = None, **limits: str
) -> Iterator[Proxy]:
    """HAProxy with deploy/edge/haproxy.cfg in front of ``gateway_port`` and
    ``web_port`` (None: no web service, its backend down); ``limits`` are EDGE_*
    variables (the rest keep the file's defaults)."""
    haproxy = _install_haproxy()
    port, stats_port = free_port(), free_port()
    env = {
        **os.environ,
        "EDGE_BIND": f"127.0.0.1:{port}",
        "EDGE_STATS_BIND": f"127.0.0.1:{stats_port}",
        "EDGE_GATEWAY": f"127.0.0.1:{gateway_port}",
        "EDGE_GATEWAY_SLOTS": "1",
        "EDGE_WEB": f"127.0.0.1:{web_port or free_port()}",
        "EDGE_WEB_SLOTS": "1",
        # Within this machine's open-files limit (HAProxy needs two per connection).
        "EDGE_MAXCONN": "2000",
        **limits,
    }
    log = root / f"haproxy-{port}.log"
    with log.open("wb") as out:
        process = spawn([haproxy, "-db", "-f", str(CONFIG)], env=env, stdout=out, stderr=subprocess.STDOUT)
    proxy = Proxy(port, stats_port, process, log)
    try:
        deadline = time.monotonic() + WITHIN_S
        while True:
            assert process.poll() is None, f"haproxy exited:\n{log.read_text()}"
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://127.0.0.1:{stats_port}/healthz", timeout=2).status_code == 200:
                    break
            assert time.monotonic() < deadline, f"haproxy did not start:\n{log.read_text()}"
            time.sleep(0.1)
        yield proxy
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def through(proxy: Proxy) -> None:
    """Wait until the proxy's health check has the gateway up and a request goes through."""
    deadline = time.monotonic() + WITHIN_S
    while True:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{proxy.url}/health", timeout=5).status_code == 200:
                return
        assert time.monotonic() < deadline, f"nothing went through:\n{proxy.log.read_text()}"
        time.sleep(0.2)


@pytest.fixture(scope="module")
def proxy(stack: Stack, web: int, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxy]:
    """The file's own limits, nothing changed."""
    with running_proxy(tmp_path_factory.mktemp("haproxy"), stack.http_port, web) as proxy:
        through(proxy)
        yield proxy


@contextlib.contextmanager
def proxy_with(stack: Stack, tmp_path: Path, **limits: str) -> Iterator[Proxy]:
    with running_proxy(tmp_path, stack.http_port, **limits) as proxy:
        through(proxy)
        yield proxy


def rejected(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """The answer is a refusal in the gateway's error format; its body."""
    assert response.status_code == status, (response.status_code, response.text)
    assert response.headers["content-type"] == "application/json"
    body: dict[str, Any] = response.json()
    assert body["status"] == "rejected" and body["code"] == code, body
    assert body["message"] and isinstance(body["details"], dict), body
    return body


def health_from(proxy: Proxy, source: str) -> int:
    with httpx.Client(
        base_url=proxy.url, transport=httpx.HTTPTransport(local_address=source), timeout=WITHIN_S
    ) as client:
        return client.get("/health").status_code


# ------------------------------------------------------------- the web client


def answered_by(proxy: Proxy, backend: str) -> int:
    """The 2xx answers the proxy has passed on from ``backend`` so far."""
    line = f'haproxy_backend_http_responses_total{{proxy="{backend}",code="2xx"}} '
    (found,) = [row for row in proxy.metrics().splitlines() if row.startswith(line)]
    return int(float(found.split()[-1]))


def test_the_page_and_its_files_come_through_the_proxy_from_the_web_service(proxy: Proxy) -> None:
    deadline = time.monotonic() + WITHIN_S
    while 'haproxy_server_status{proxy="web",server="web1",state="UP"} 1' not in proxy.metrics():
        assert time.monotonic() < deadline, (
            f"the proxy never found the web service up:\n{proxy.log.read_text()}"
        )
        time.sleep(0.2)
    before = answered_by(proxy, "web"), answered_by(proxy, "gateways")
    with httpx.Client(base_url=proxy.url, timeout=WITHIN_S) as client:
        page = client.get("/")
        assert page.status_code == 200 and page.headers["content-type"] == "text/html; charset=utf-8"
        assert page.headers["cache-control"] == "no-cache"
        assert "script-src 'self'" in page.headers["content-security-policy"]
        version = re.search(r"/static/([0-9a-f]{12})/app\.js", page.text)
        assert version, page.text
        app = client.get(f"/static/{version.group(1)}/app.js", headers={"accept-encoding": "gzip"})
        assert app.status_code == 200 and app.headers["content-type"] == "text/javascript; charset=utf-8"
        assert app.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert app.headers["content-encoding"] == "gzip" and "import" in app.text
        missing = client.get(f"/static/{version.group(1)}/nothing.js")
        assert rejected(missing, 404, "not_found")["message"] == "There is no such file."
        games = client.get("/v1/games")  # the API still goes to the gateway
        assert games.status_code == 200, games.text
    # The page and the script from the web service; only the API from the gateway.
    assert answered_by(proxy, "web") - before[0] == 2
    assert answered_by(proxy, "gateways") - before[1] == 1


# ------------------------------------------------------------- a game, a feed


class Feed:
    """A table's live feed read line by line: each event's id (its version) and name."""

    def __init__(self, lines: AsyncIterator[str]) -> None:
        self.lines = lines
        self.last = 0
        self.ended = False

    async def until(self, version: int) -> None:
        """Read events until one with ``version`` (or the end) has come."""
        event = "message"
        async with asyncio.timeout(WITHIN_S):
            while self.last < version and not self.ended:
                line = await anext(self.lines)
                if line.startswith("id:"):
                    self.last = int(line[3:].strip())
                elif line.startswith("event:"):
                    event = line[6:].strip()
                elif line == "":
                    self.ended = self.ended or event == "end"
                    event = "message"


async def test_a_game_through_the_proxy_comes_through_its_feed_move_by_move(proxy: Proxy) -> None:
    source = fresh_address()
    async with (
        async_client(proxy.url, source, timeout=WITHIN_S) as client,
        async_client(proxy.url, source, timeout=None) as watcher,
    ):
        table = await botclient.open_table(client, "highcard", 2, HIGHCARD)
        async with watcher.stream("GET", f"/v1/tables/{table.table_id}/feed") as response:
            assert response.status_code == 200
            assert response.headers["content-type"].startswith("text/event-stream")
            feed = Feed(response.aiter_lines())
            doc = await botclient.view(client, table, None)
            await feed.until(doc["version"])
            stats = botclient.Stats()
            rng = random.Random(11)
            moves = 0
            while not doc["over"]:
                seat = doc["actors"][0]
                mine = await botclient.view(client, table, seat)
                if mine["version"] != doc["version"]:
                    doc = await botclient.view(client, table, None)
                    continue
                command = rng.choice(expand(mine["legal"]))
                answer = await botclient.submit(client, table, seat, command, mine["version"], stats)
                assert answer.status_code == 200, answer.text
                version = answer.json()["version"]
                # Before anything else is sent: the proxy passed the move's event on
                # as the gateway wrote it (a buffering proxy would hold it back).
                await feed.until(version)
                assert feed.last >= version
                moves += 1
                doc = await botclient.view(client, table, None)
            await feed.until(doc["version"] + 1)  # the game is over: the feed ends
    assert moves >= 2 and doc["over"] and feed.ended


def ws_url(proxy: Proxy, table_id: str) -> str:
    return proxy.url.replace("http://", "ws://") + f"/v1/tables/{table_id}/play"


async def next_frame(ws: ClientConnection) -> dict[str, Any]:
    frame: dict[str, Any] = msgspec.json.decode(await asyncio.wait_for(ws.recv(), WITHIN_S))
    return frame


async def test_a_game_played_over_play_connections_through_the_proxy(proxy: Proxy) -> None:
    source = fresh_address()
    async with async_client(proxy.url, source, timeout=WITHIN_S) as client:
        table = await botclient.open_table(client, "highcard", 2, HIGHCARD)
    async with contextlib.AsyncExitStack() as stack:
        seats = [
            await stack.enter_async_context(
                connect(ws_url(proxy, table.table_id), local_addr=(source, 0), max_size=None)
            )
            for _ in table.tokens
        ]
        docs = []
        for ws, token in zip(seats, table.tokens, strict=True):
            await ws.send(msgspec.json.encode({"token": token}).decode())
            ready = await next_frame(ws)
            assert ready["type"] == "ready", ready
            docs.append(ready["view"])
        moves = 0
        while not docs[0]["over"]:
            actor = docs[0]["actors"][0]
            other = 1 - actor
            while docs[actor]["version"] < docs[other]["version"]:  # a push not read yet
                docs[actor] = (await next_frame(seats[actor]))["view"]
            mine = docs[actor]
            body = {
                "command": expand(mine["legal"])[0],
                "expected_version": mine["version"],
                "view": True,
                "idempotency_key": uuid.uuid4().hex,
            }
            await seats[actor].send(msgspec.json.encode(body).decode())
            reply = await next_frame(seats[actor])
            while reply["type"] == "view":
                reply = await next_frame(seats[actor])
            assert reply["type"] == "reply" and reply["http_status"] == 200, reply
            docs[actor] = reply["answer"]["view"]
            # The other seat is told over its own connection, through the tunnel.
            while docs[other]["version"] < reply["answer"]["version"]:
                frame = await next_frame(seats[other])
                assert frame["type"] == "view", frame
                docs[other] = frame["view"]
            moves += 1
    assert moves >= 2 and docs[0]["over"] and docs[1]["over"]


# ------------------------------------------------- the client's real address


async def test_the_gateway_counts_each_client_behind_the_proxy_by_its_own_address(
    proxy: Proxy, stack: Stack
) -> None:
    body = {"game": "highcard", "seats": 2, "options": HIGHCARD}
    first, neighbour, claimed = fresh_address(), fresh_address(), fresh_address()
    async with (
        async_client(proxy.url, first, timeout=WITHIN_S) as one,
        async_client(proxy.url, neighbour, timeout=WITHIN_S) as other,
    ):
        for _ in range(OPENS):
            assert (await one.post("/v1/tables", json=body)).status_code == 201
        # The gateway's own budget, per address: spent by this client alone ...
        refused = rejected(await one.post("/v1/tables", json=body), 429, "rate_limited")
        assert "tables opened from this address" in refused["message"]
        # ... whatever address it claims (the proxy drops the claim) ...
        spoofed = await one.post("/v1/tables", json=body, headers={"x-forwarded-for": claimed})
        rejected(spoofed, 429, "rate_limited")
        # ... while its neighbour behind the same proxy still has its own.
        assert (await other.post("/v1/tables", json=body)).status_code == 201
    # Straight to the gateway, a client's claim counts for nothing either: only
    # the trusted proxy's X-Forwarded-For is believed.
    direct = fresh_address()
    async with async_client(stack.api, direct, timeout=WITHIN_S) as client:
        for _ in range(OPENS):
            opened = await client.post("/v1/tables", json=body, headers={"x-forwarded-for": fresh_address()})
            assert opened.status_code == 201, opened.text
        again = await client.post("/v1/tables", json=body, headers={"x-forwarded-for": fresh_address()})
        rejected(again, 429, "rate_limited")


# ------------------------------------------------------- the proxy's limits


def send_request(sock: socket.socket, path: str, extra: bytes = b"") -> None:
    sock.sendall(b"GET %s HTTP/1.1\r\nhost: edge\r\n%s\r\n" % (path.encode(), extra))


def read_head(sock: socket.socket) -> bytes:
    """The response's status line and headers (until the blank line, or the close)."""
    sock.settimeout(WITHIN_S)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    return data


def read_all(sock: socket.socket) -> bytes:
    """Everything until the other side closes (bounded by WITHIN_S)."""
    sock.settimeout(WITHIN_S)
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def closed_unanswered(sock: socket.socket) -> bool:
    """Whether the other side closed ``sock`` without a byte (rather than answering)."""
    try:
        return read_all(sock) == b""
    except ConnectionResetError:
        return True


def body_of(raw: bytes) -> dict[str, Any]:
    decoded: dict[str, Any] = msgspec.json.decode(raw.split(b"\r\n\r\n", 1)[1])
    return decoded


def test_an_address_holding_too_many_connections_is_refused_and_its_neighbour_is_not(
    stack: Stack, tmp_path: Path
) -> None:
    cap = 4
    limits = {
        "EDGE_CONNS_PER_CLIENT": str(cap),
        "EDGE_TIMEOUT_HTTP_REQUEST": "3s",
        "EDGE_TIMEOUT_KEEP_ALIVE": "120s",  # the idle connection below stays for the whole test
    }
    with proxy_with(stack, tmp_path, **limits) as proxy:
        table_id = httpx.post(
            f"{proxy.url}/v1/tables", json={"game": "highcard", "seats": 2, "options": HIGHCARD}, timeout=30
        ).json()["table_id"]
        hog, neighbour = fresh_address(), fresh_address()
        held: list[socket.socket] = []
        try:
            for _ in range(cap - 1):  # live feeds, held open
                sock = raw_connection(proxy.port, hog)
                send_request(sock, f"/v1/tables/{table_id}/feed")
                assert read_head(sock).startswith(b"HTTP/1.1 200"), "a feed within the cap"
                held.append(sock)
            idle = raw_connection(proxy.port, hog)  # and one kept alive between requests
            send_request(idle, "/health")
            assert read_head(idle).startswith(b"HTTP/1.1 200")
            held.append(idle)
            with raw_connection(proxy.port, hog) as over:
                send_request(over, "/health")
                answer = read_all(over)  # answered, then closed
            assert answer.startswith(b"HTTP/1.1 429")
            assert b"\r\nretry-after: 1\r\n" in answer.lower()
            refusal = body_of(answer)
            assert refusal["code"] == "too_many_connections" and str(cap) in refusal["message"]
            assert health_from(proxy, neighbour) == 200
            # Far past the cap (twice it), a connection is closed unanswered; the
            # others, which never send a request, get the proxy's 408 in the end.
            # (HAProxy's threads may count them in any order: which one is not said.)
            waiting = [raw_connection(proxy.port, hog) for _ in range(cap + 2)]
            held += waiting
            assert sum(closed_unanswered(sock) for sock in waiting) >= 1
            # The count is of connections open now: one let go, one more is served.
            # (The idle one: the proxy hears its close at once, where it hears a
            # feed's only when it next writes to it, at the feed's next heartbeat.)
            idle.close()
            deadline = time.monotonic() + WITHIN_S
            while health_from(proxy, hog) != 200:
                assert time.monotonic() < deadline
                time.sleep(0.2)
        finally:
            for sock in held:
                sock.close()


def test_a_request_flood_from_one_address_is_refused_and_its_neighbour_is_not(
    stack: Stack, tmp_path: Path
) -> None:
    per_10s = 20
    with proxy_with(stack, tmp_path, EDGE_REQUESTS_PER_10S=str(per_10s)) as proxy:
        flooder, neighbour = fresh_address(), fresh_address()
        statuses = []
        with httpx.Client(
            base_url=proxy.url, transport=httpx.HTTPTransport(local_address=flooder), timeout=WITHIN_S
        ) as client:
            for _ in range(3 * per_10s):
                answer = client.get("/health")
                statuses.append(answer.status_code)
                if answer.status_code == 429:
                    body = rejected(answer, 429, "rate_limited")
                    assert body["details"]["retry_after_s"] == int(answer.headers["retry-after"]) > 0
                    assert answer.headers["connection"] == "close"
        # Within the budget every request went through; past it, refusals.
        assert statuses[:per_10s] == [200] * per_10s
        assert set(statuses) == {200, 429} and 429 in statuses[per_10s:]
        assert health_from(proxy, neighbour) == 200


def test_oversized_heads_and_bodies_are_refused_at_the_proxy(stack: Stack, tmp_path: Path) -> None:
    body_limit = 1024  # the gateway's own is 64 KiB: a refusal below it is the proxy's
    with proxy_with(stack, tmp_path, EDGE_MAX_BODY_BYTES=str(body_limit)) as proxy:
        source, neighbour = fresh_address(), fresh_address()
        with httpx.Client(
            base_url=proxy.url, transport=httpx.HTTPTransport(local_address=source), timeout=WITHIN_S
        ) as client:
            # Headers past the proxy's limit (8 KiB), still inside the gateway's (16 KiB).
            big = client.get("/health", headers={"x-padding": "a" * 10_000})
            assert "8192" in rejected(big, 431, "headers_too_large")["message"]
            # A head larger than HAProxy's buffer: its parser refuses it (its own body).
            assert client.get("/health", headers={"x-padding": "a" * 40_000}).status_code == 400
            options = {"hand_size": 3, "deck_size": 8, "padding": "x" * (2 * body_limit)}
            large = client.post("/v1/tables", json={"game": "highcard", "seats": 2, "options": options})
            assert rejected(large, 413, "body_too_large")["details"] == {"limit": body_limit}
            small = client.post("/v1/tables", json={"game": "highcard", "seats": 2, "options": HIGHCARD})
            assert small.status_code == 201, small.text
        assert health_from(proxy, neighbour) == 200


def test_a_head_or_a_body_that_trickles_in_is_cut_after_the_request_timeout(
    stack: Stack, tmp_path: Path
) -> None:
    with proxy_with(stack, tmp_path, EDGE_TIMEOUT_HTTP_REQUEST="2s") as proxy:
        slow, neighbour = fresh_address(), fresh_address()
        # A head that never ends, one header line at a time (so never idle).
        with raw_connection(proxy.port, slow) as sock:
            sock.sendall(b"GET /health HTTP/1.1\r\nhost: edge\r\n")
            sock.settimeout(0.2)
            sent, answer = 0, b""
            deadline = time.monotonic() + WITHIN_S
            while time.monotonic() < deadline:
                try:
                    sock.sendall(b"x-slow-%d: 1\r\n" % sent)
                    sent += 1
                    chunk = sock.recv(4096)
                except TimeoutError:
                    continue
                except (BrokenPipeError, ConnectionResetError):
                    break
                if not chunk:
                    break
                answer += chunk
            # HAProxy's parser answers it (408, with its own short body) and closes.
            assert answer.startswith(b"HTTP/1.1 408"), answer
            assert sent >= 5, "the head kept coming until it was cut"
            assert health_from(proxy, neighbour) == 200
        # A body that never arrives whole: held at the proxy, then refused in words.
        with raw_connection(proxy.port, slow) as sock:
            sock.sendall(
                b"POST /v1/tables HTTP/1.1\r\nhost: edge\r\ncontent-type: application/json\r\n"
                b'content-length: 200\r\n\r\n{"game": '
            )
            answer = read_all(sock)
        assert answer.startswith(b"HTTP/1.1 408"), answer
        assert body_of(answer)["code"] == "request_timeout"


# ------------------------------------------------------ health, metrics


def test_the_proxy_checks_the_gateways_and_says_so_when_none_is_up(stack: Stack, tmp_path: Path) -> None:
    dead = free_port()  # nothing listens here
    with running_proxy(tmp_path, dead) as proxy:
        # The active check marks it down with no client request at all.
        deadline = time.monotonic() + WITHIN_S
        down = 'haproxy_server_status{proxy="gateways",server="gateway1",state="DOWN"} 1'
        while down not in proxy.metrics():
            assert time.monotonic() < deadline, proxy.log.read_text()
            time.sleep(0.2)
        answer = httpx.get(f"{proxy.url}/health", timeout=WITHIN_S)
        rejected(answer, 503, "unavailable")
        assert answer.headers["retry-after"] == "1"
    with proxy_with(stack, tmp_path) as proxy:
        assert 'haproxy_backend_active_servers{proxy="gateways"} 1' in proxy.metrics()
        assert httpx.get(f"http://127.0.0.1:{proxy.stats_port}/stats", timeout=WITHIN_S).status_code == 200
