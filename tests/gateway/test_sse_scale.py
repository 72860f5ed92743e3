"""Live feeds at scale: thousands of subscribers on one gateway, exact resumes
with Last-Event-ID, and a subscriber that stops reading is cut off without
delaying anyone."""

from __future__ import annotations

import asyncio
import json
import re
import resource
import socket
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from services.gateway import feeds
from services.gateway.feeds import MAX_QUEUED
from shared.cli import botclient
from shared.eventstore.keys import GameKeys, partition_of
from shared.infra.launcher import Stack
from shared.infra.redis_client import connect
from shared.kernel.legal_groups import expand
from tests.gateway.clients import fresh_address
from tests.support.waiting import until

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("stack"), pytest.mark.timeout(300)]

SUBSCRIBERS = 2_000
#: A client connection is not reused after this long idle (well under the server's keep-alive).
IDLE_AT_MOST_1_S = httpx.Limits(keepalive_expiry=1.0)
TABLES = 4
#: Per table: spectators, then subscribers of each of its two seats.
AUDIENCES = [None] * 300 + [0] * 100 + [1] * 100


@dataclass
class Frame:
    id: int | None
    event: str
    data: bytes


@dataclass
class Sse:
    """A lean SSE client on one raw connection: httpx is too heavy for thousands."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    status: int = 0
    frames: list[Frame] = field(default_factory=list)
    #: When ``until`` saw its version (perf_counter).
    arrived: float = 0.0
    _buffer: bytes = b""

    @classmethod
    async def open(cls, api: str, path: str, headers: dict[str, str] | None = None) -> Sse:
        """Each from an address of its own, as spectators are (the gateway caps feeds per address)."""
        host, port = _address(api)
        reader, writer = await asyncio.open_connection(host, port, local_addr=(fresh_address(), 0))
        writer.write(_request(api, path, headers))
        return cls(reader, writer)

    @classmethod
    async def over(cls, sock: socket.socket) -> Sse:
        """Start reading a connection that has not read anything yet."""
        reader, writer = await asyncio.open_connection(sock=sock)
        return cls(reader, writer)

    async def head(self) -> int:
        head = await self.reader.readuntil(b"\r\n\r\n")
        self.status = int(head.split(b" ", 2)[1])
        return self.status

    async def next(self) -> Frame | None:
        """The next event (comments skipped); None once the stream has ended."""
        while True:
            while b"\n\n" not in self._buffer:
                size_line = await self.reader.readline()
                if not size_line:
                    return None
                size = int(size_line.strip(), 16)
                if size == 0:
                    return None
                self._buffer += (await self.reader.readexactly(size + 2))[:-2]
            raw, self._buffer = self._buffer.split(b"\n\n", 1)
            fields: dict[bytes, bytes] = {}
            for line in raw.split(b"\n"):
                if not line.startswith(b":"):
                    name, _, value = line.partition(b": ")
                    fields[name] = value
            if fields:
                frame = Frame(
                    int(fields[b"id"]) if b"id" in fields else None,
                    fields.get(b"event", b"").decode(),
                    fields.get(b"data", b""),
                )
                self.frames.append(frame)
                return frame

    async def until(self, version: int, within: float = 30.0) -> None:
        """Read until the event with id ``version`` has arrived."""
        async with asyncio.timeout(within):
            while not self.frames or (self.frames[-1].id or 0) < version:
                if await self.next() is None:
                    raise AssertionError(f"the stream ended before {version}")
        self.arrived = time.perf_counter()

    def events(self) -> list[tuple[int, bytes]]:
        return [(f.id, f.data) for f in self.frames if f.event == "game-event" and f.id is not None]

    def close(self) -> None:
        self.writer.close()


def _address(api: str) -> tuple[str, int]:
    url = urlsplit(api)
    return url.hostname or "127.0.0.1", url.port or 80


def _request(api: str, path: str, headers: dict[str, str] | None = None) -> bytes:
    host, port = _address(api)
    lines = [f"GET {path} HTTP/1.1", f"host: {host}:{port}"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


async def never_reading(api: str, path: str) -> socket.socket:
    """A feed request on a bare socket nothing reads (an asyncio stream would read
    ahead into its own buffer), with a small receive window set before connecting."""
    loop = asyncio.get_running_loop()
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await loop.sock_connect(sock, _address(api))
    await loop.sock_sendall(sock, _request(api, path))
    return sock


def feed_path(table: botclient.Table) -> str:
    return f"/v1/tables/{table.table_id}/feed"


def seat_headers(table: botclient.Table, seat: int | None) -> dict[str, str]:
    return botclient.auth(table.tokens[seat]) if seat is not None else {}


def audience(seat: int | None) -> str:
    return "spectator" if seat is None else f"seat{seat}"


async def stored(
    redis: Any, stack: Stack, table: botclient.Table, seat: int | None
) -> list[tuple[int, bytes]]:
    """The audience's feed as the projector stored it: what a subscriber must get."""
    keys = GameKeys(table.table_id, partition_of(table.table_id, stack.partitions))
    rows = await redis.xrange(keys.audience_feed(audience(seat)))
    return [(int(entry_id.split(b"-")[1]), fields[b"e"]) for entry_id, fields in rows]


async def next_command(
    api: httpx.AsyncClient, table: botclient.Table, version: int = 0
) -> tuple[str, dict[str, Any], dict[str, str]]:
    """A legal move at the table once its views show ``version``: (url, body, headers)."""
    url = f"/v1/tables/{table.table_id}/view"
    doc = (await api.get(url, params={"min_version": version})).json()
    seat = doc["actors"][0]
    headers = botclient.auth(table.tokens[seat])
    mine = (await api.get(url, params={"min_version": doc["version"]}, headers=headers)).json()
    return f"/v1/tables/{table.table_id}/commands", {"command": expand(mine["legal"])[0]}, headers


async def move(api: httpx.AsyncClient, table: botclient.Table, version: int = 0) -> int:
    """One legal move at the table after ``version``; returns its last version."""
    url, body, headers = await next_command(api, table, version)
    r = await api.post(url, json=body, headers=headers)
    assert r.status_code == 200, r.text
    return int(r.json()["version"])


async def open_subscribers(stack: Stack) -> int:
    """Gateway's count of open feeds (all audiences)."""
    async with httpx.AsyncClient(timeout=10) as client:
        text = (await client.get(stack.metrics_urls()["gateway"])).text
    return int(sum(float(v) for v in re.findall(r"^ziggurat_feed_subscribers\{[^}]*\} (\S+)$", text, re.M)))


async def wait_for_subscribers(stack: Stack, wanted: int, within: float = 20.0) -> None:
    counts: list[int] = []

    async def settled() -> bool:
        counts.append(await open_subscribers(stack))
        return counts[-1] == wanted

    assert await until(settled, within, every_s=0.1), f"{counts[-1]} feeds open, expected {wanted}"


def lift_open_files_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] > 2 * SUBSCRIBERS + 200, "too few files allowed"


async def test_two_thousand_subscribers_each_get_a_new_move_and_only_their_audience(stack: Stack) -> None:
    lift_open_files_limit()
    redis = connect(stack.redis_url or "")
    # Its connections idle while the feeds are opened, for longer than the server keeps
    # an idle connection (5 s); the gateway, busy with 2,000 requests, may run that
    # timer only when the next request is already on its way: a closed connection
    # must not be reused.
    async with httpx.AsyncClient(base_url=stack.api, timeout=60, limits=IDLE_AT_MOST_1_S) as api:
        tables = [await botclient.open_table(api, "highcard", 2, {"hand_size": 5}) for _ in range(TABLES)]
        before = await open_subscribers(stack)
        plan = [(table, seat) for table in tables for seat in AUDIENCES]
        assert len(plan) == SUBSCRIBERS
        versions = {t.table_id: (await botclient.view(api, t, None))["version"] for t in tables}
        gate = asyncio.Semaphore(200)  # connections being set up at once (the listen backlog)

        async def subscribe(table: botclient.Table, seat: int | None) -> Sse:
            async with gate:
                sse = await Sse.open(stack.api, feed_path(table), seat_headers(table, seat))
                assert await sse.head() == 200
                return sse

        clients_before = len(await redis.client_list())
        started = time.perf_counter()
        subscribers = await asyncio.gather(*(subscribe(t, s) for t, s in plan))
        connected_s = time.perf_counter() - started
        await wait_for_subscribers(stack, before + SUBSCRIBERS)
        redis_clients = len(await redis.client_list())

        # A move at every table; each one's first event is public, so every subscriber gets it.
        targets = {t.table_id: versions[t.table_id] + 1 for t in tables}
        readers = [
            asyncio.create_task(sse.until(targets[table.table_id], within=60))
            for sse, (table, _) in zip(subscribers, plan, strict=True)
        ]
        commands = [await next_command(api, table, versions[table.table_id]) for table in tables]
        moved = time.perf_counter()
        answers = await asyncio.gather(*(api.post(url, json=body, headers=h) for url, body, h in commands))
        answered = time.perf_counter() - moved
        assert all(r.status_code == 200 for r in answers)
        await asyncio.gather(*readers)
        delivered = max(sse.arrived for sse in subscribers) - moved
        print(
            f"\n{SUBSCRIBERS} subscribers connected in {connected_s:.2f}s; a move at each of "
            f"{TABLES} tables, accepted in {answered * 1000:.0f} ms, reached all of them in "
            f"{delivered * 1000:.0f} ms; Redis clients: {redis_clients}"
        )

        # No subscriber holds a Redis connection: the store sees the services' few. Their
        # pools may grow while the subscribers' first reads run (up to 200 at once, more of
        # them in flight on a loaded machine), never by one connection a subscriber.
        assert redis_clients - clients_before < SUBSCRIBERS // 10, (clients_before, redis_clients)
        expected = {(t.table_id, s): await stored(redis, stack, t, s) for t in tables for s in (None, 0, 1)}
        for sse, (table, seat) in zip(subscribers, plan, strict=True):
            got = sse.events()
            want = [e for e in expected[table.table_id, seat] if e[0] <= targets[table.table_id]]
            assert got == want, (table.table_id, seat)
            kinds = [json.loads(data)["event"] for _, data in got]
            dealt = [e["seat"] for e in kinds if e["type"] == "highcard.dealt"]
            assert dealt == ([] if seat is None else [seat]), "a seat's hand went to another audience"
        for sse in subscribers:
            sse.close()
        await wait_for_subscribers(stack, before)
    await redis.aclose()


async def test_a_reconnect_with_last_event_id_gets_exactly_what_it_missed(stack: Stack) -> None:
    redis = connect(stack.redis_url or "")
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        table = await botclient.open_table(api, "highcard", 2, {"hand_size": 6})
        last = 0
        for _ in range(3):
            last = await move(api, table, last)
        for seat in (None, 0):
            first = await Sse.open(stack.api, feed_path(table), seat_headers(table, seat))
            assert await first.head() == 200
            entries = await stored(redis, stack, table, seat)
            middle = entries[len(entries) // 2][0]
            await first.until(middle)
            first.close()
            assert first.events() == [e for e in entries if e[0] <= middle]
            for _ in range(2):
                last = await move(api, table, last)

            headers = {**seat_headers(table, seat), "last-event-id": str(middle)}
            again = await Sse.open(stack.api, feed_path(table), headers)
            assert await again.head() == 200
            await again.until(last)
            again.close()
            entries = await stored(redis, stack, table, seat)
            assert again.events() == [e for e in entries if middle < e[0] <= last], "a repeat or a gap"

        # The header and ?after= together: the larger wins.
        entries = await stored(redis, stack, table, None)
        low, high = entries[1][0], entries[3][0]
        for query, header in ((low, high), (high, low)):
            sse = await Sse.open(
                stack.api, f"{feed_path(table)}?after={query}", {"last-event-id": str(header)}
            )
            assert await sse.head() == 200
            await sse.until(entries[-1][0])
            sse.close()
            assert sse.events() == [e for e in entries if e[0] > high]

        for bad in ("abc", "-1", "1.5", "007", "1e3", "9" * 20, "", "1 2", b"\xd9\xa3"):
            r = await api.get(feed_path(table), headers={"last-event-id": bad})
            assert (r.status_code, r.json()["code"]) == (400, "bad_request"), (bad, r.text)
    await redis.aclose()


async def test_a_subscriber_that_stops_reading_delays_no_one_and_is_cut_off(stack: Stack) -> None:
    redis = connect(stack.redis_url or "")
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        table = await botclient.open_table(api, "highcard", 2, {"deck_size": 1000, "hand_size": 500})
        hands = [list((await botclient.view(api, table, s))["view"]["hand"]) for s in (0, 1)]
        to_play = (await botclient.view(api, table, None))["view"]["to_play"]
        before = await open_subscribers(stack)
        fast = await Sse.open(stack.api, feed_path(table))
        assert await fast.head() == 200
        # Never read: the kernel's buffers fill, then the gateway's, then its queue.
        silent = await never_reading(stack.api, feed_path(table))
        await wait_for_subscribers(stack, before + 2)

        lags: list[float] = []
        cut_at = None
        for number in range(1, 1001):
            card = hands[to_play].pop(0)
            sent = time.perf_counter()
            r = await api.post(
                f"/v1/tables/{table.table_id}/commands",
                json={"command": {"type": "highcard.play", "card": card}},
                headers=botclient.auth(table.tokens[to_play]),
            )
            assert r.status_code == 200, r.text
            body = r.json()
            await fast.until(body["version"], within=10)
            lags.append(time.perf_counter() - sent)
            taken = [e.get("event", e) for e in body["events"]]
            taken = [e["seat"] for e in taken if e["type"] == "highcard.trick_taken"]
            to_play = taken[0] if taken else 1 - to_play
            if number % 20 == 0 and await open_subscribers(stack) == before + 1:
                cut_at = number
                break
        assert cut_at is not None, "the subscriber that never read was not cut off"
        assert not (await botclient.view(api, table, None))["over"]

        # What it was sent before the cut, then the last event, then the end of the connection.
        slow = await Sse.over(silent)
        assert await slow.head() == 200
        async with asyncio.timeout(10):
            with pytest.raises(AssertionError, match="ended"):
                await slow.until(10**9)
        *events, farewell = slow.frames
        assert farewell.event == "reconnect", farewell
        note = json.loads(farewell.data)
        assert note["reason"] == "slow"
        got = [(f.id, f.data) for f in events if f.event == "game-event"]
        assert got and note["last_event_id"] == got[-1][0]
        entries = await stored(redis, stack, table, None)
        assert got == entries[: len(got)]
        assert len(entries) - len(got) > MAX_QUEUED, "cut off before its queue was full"

        # Resumed with Last-Event-ID, it loses nothing.
        resumed = await Sse.open(stack.api, feed_path(table), {"last-event-id": str(note["last_event_id"])})
        assert await resumed.head() == 200
        await resumed.until(entries[-1][0])
        resumed.close()
        assert got + resumed.events() == entries
        fast.close()
        lags.sort()
        print(
            f"\ncut off after {cut_at} moves ({len(got)} of {len(entries)} entries taken); the other "
            f"subscriber's lag: median {lags[len(lags) // 2] * 1000:.1f} ms, max {lags[-1] * 1000:.1f} ms"
        )
        assert lags[-1] < 2.0, "a slow subscriber held back another"
        await wait_for_subscribers(stack, before)
    await redis.aclose()


class _Quiet:
    """A feed with nothing new, for the hub alone (no stack)."""

    key = ("quiet", "spectator")
    label = "spectator"

    async def read(self, after: int, count: int) -> feeds.Page:
        return feeds.Page([], more=False, finished=False)


class _Connection:
    """Stands in for uvicorn's transport: once closed, a pending send returns."""

    def __init__(self) -> None:
        self.written = b""
        self.closed = asyncio.Event()
        self.aborted = False

    def write(self, data: bytes) -> None:
        self.written += data

    def is_closing(self) -> bool:
        return self.closed.is_set()

    def get_write_buffer_size(self) -> int:
        return feeds.WRITE_HIGH_WATER  # nothing written to it goes out

    def close(self) -> None:
        self.closed.set()

    def abort(self) -> None:
        self.aborted = True
        self.closed.set()


async def test_an_idle_feed_gets_heartbeats_and_a_write_that_never_goes_out_is_cut(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(feeds, "TICK_S", 0.02)
    monkeypatch.setattr(feeds, "HEARTBEAT_S", 0.1)
    monkeypatch.setattr(feeds, "STALL_S", 0.3)
    monkeypatch.setattr(feeds, "GRACE_S", 0.1)

    class Changes:
        def listen(self, listener: Any) -> None:
            pass

    hub = feeds.FeedHub(Changes())
    bodies: list[bytes] = []

    async def send(message: Any) -> None:
        bodies.append(message["body"])

    idle = feeds.Subscriber(_Quiet(), 0, None)
    serving = asyncio.create_task(hub.serve(idle, send))

    async def heartbeats() -> bool:
        return bodies.count(feeds.HEARTBEAT) >= 2

    assert await until(heartbeats, 5, every_s=0.02), bodies

    connection = _Connection()
    stuck = feeds.Subscriber(_Quiet(), 7, connection)

    async def never_goes_out(message: Any) -> None:
        await connection.closed.wait()  # like uvicorn's: waits for the socket to drain
        hub.client_left(stuck)

    blocked = asyncio.create_task(hub.serve(stuck, never_goes_out))
    await asyncio.wait_for(blocked, timeout=3)  # cut after STALL_S, then aborted after GRACE_S
    assert connection.written.endswith(
        b'event: reconnect\ndata: {"reason":"stalled","last_event_id":7}\n\n\r\n'
    )
    assert idle.state is feeds.State.LIVE, "the other subscriber was not affected"
    hub.client_left(idle)
    await asyncio.wait_for(serving, timeout=1)
