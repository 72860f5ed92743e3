"""The feed hub's shared writes: one encoded chunk per audience and read, written
to every idle subscriber of that audience and to no one else; a subscriber whose
socket does not take it gets its entries through its own queue, in order, and is
cut off alone when it falls too far behind.

The hub alone, on stand-ins for the store's feeds and for the connections (the
real stack's feeds are tests/gateway/test_sse_scale.py's)."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from services.gateway import feeds
from services.gateway.feeds import MAX_QUEUED, WRITE_HIGH_WATER, FeedHub, Page, State, Subscriber
from tests.support.waiting import until

_ID = re.compile(rb"^id: (\d+)$", re.M)


class Store:
    """Every audience's feed of every table: (version, SSE frame), as the projector wrote them."""

    def __init__(self) -> None:
        self.entries: dict[tuple[str, str], list[tuple[int, bytes]]] = {}

    def append(self, table: str, audience: str, version: int, data: bytes) -> None:
        frame = b"id: %d\nevent: game-event\ndata: %s\n\n" % (version, data)
        self.entries.setdefault((table, audience), []).append((version, frame))

    def feed(self, table: str, audience: str) -> Feed:
        return Feed(self, table, audience)


class Feed:
    def __init__(self, store: Store, table: str, audience: str) -> None:
        self.store = store
        self.key = (table, audience)
        self.label = audience

    async def read(self, after: int, count: int) -> Page:
        await asyncio.sleep(0)  # a read is a round trip: others run meanwhile
        rows = [e for e in self.store.entries.get(self.key, []) if e[0] > after][:count]
        return Page(list(rows), more=len(rows) >= count, finished=False)


class Socket:
    """Stands in for a connection's transport: every write kept (the objects too),
    and a write buffer a test fills and drains."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.backlog = 0
        self.drained = asyncio.Event()
        self.drained.set()
        self.closed = False

    def write(self, data: bytes) -> None:
        if not self.closed:  # as a transport's: nothing goes out after a close
            self.writes.append(data)

    def get_write_buffer_size(self) -> int:
        return self.backlog

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True
        self.drained.set()  # as uvicorn's: a send waiting for a drain returns once closed

    def abort(self) -> None:
        self.close()

    def stop_reading(self) -> None:
        """The client stops reading: the buffer is full, and a write waits for a drain."""
        self.backlog = 10 * WRITE_HIGH_WATER
        self.drained.clear()

    def read_again(self) -> None:
        self.backlog = 0
        self.drained.set()

    def stream(self) -> bytes:
        """The response body the client reads: the chunks joined, their framing removed."""
        raw, body = b"".join(self.writes), b""
        while raw:
            size_line, _, raw = raw.partition(b"\r\n")
            size = int(size_line, 16)
            if size == 0:
                break
            body, raw = body + raw[:size], raw[size + 2 :]
        return body

    def versions(self) -> list[int]:
        return [int(v) for v in _ID.findall(self.stream())]


class Changes:
    def listen(self, listener: Any) -> None:
        self.notify = listener


def connect(hub: FeedHub, feed: Feed, after: int = 0) -> tuple[Subscriber, Socket, asyncio.Task[None]]:
    """A subscriber served by the hub, whose response goes out as uvicorn sends it:
    chunked, on its socket, each send waiting while the socket does not drain."""
    socket = Socket()
    sub = Subscriber(feed, after, socket)

    async def send(message: Any) -> None:
        await socket.drained.wait()
        body = message["body"]
        socket.write(
            (b"%x\r\n%s\r\n" % (len(body), body) if body else b"")
            + (b"" if message["more_body"] else b"0\r\n\r\n")
        )

    return sub, socket, asyncio.create_task(hub.serve(sub, send))


def one_table() -> tuple[Store, Changes, FeedHub]:
    """A hub over a store whose table ``t`` has one spectator entry."""
    store = Store()
    store.append("t", "spectator", 1, b"{}")
    changes = Changes()
    return store, changes, FeedHub(changes)


async def leave(hub: FeedHub, clients: list[tuple[Subscriber, Any, asyncio.Task[None]]]) -> None:
    """Each client gone, its task ended."""
    for sub, _, task in clients:
        hub.client_left(sub)
        await asyncio.wait_for(task, 1)


async def settle(condition: Any, what: str) -> None:
    async def holds() -> bool:
        return bool(condition())

    assert await until(holds, 10, every_s=0.01), what


async def test_one_chunk_per_audience_reaches_its_own_subscribers_and_no_one_else() -> None:
    store = Store()
    for table in ("t", "u"):
        store.append(table, "spectator", 1, b'{"public":"%s-opened"}' % table.encode())
        for seat in (0, 1):
            store.append(table, f"seat{seat}", 1, b'{"public":"%s-opened"}' % table.encode())
            store.append(table, f"seat{seat}", 2, b'{"secret":"%s-hand-of-%d"}' % (table.encode(), seat))
    changes = Changes()
    hub = FeedHub(changes)
    audiences = [(t, a) for t in ("t", "u") for a in ("spectator", "seat0", "seat1")]
    clients = {key: [connect(hub, store.feed(*key)) for _ in range(20)] for key in audiences}
    await settle(
        lambda: all(sub.state is State.LIVE for subs in clients.values() for sub, _, _ in subs),
        "every subscriber caught up and joined its audience's channel",
    )

    # A move at each table: a public event for all, a hidden one for one seat.
    for table in ("t", "u"):
        for audience in ("spectator", "seat0", "seat1"):
            store.append(table, audience, 3, b'{"public":"%s-played"}' % table.encode())
        store.append(table, "seat1", 4, b'{"secret":"%s-drew-for-1"}' % table.encode())
    changes.notify(["t", "u"])
    await settle(
        lambda: all(
            s.versions()[-1:] == [store.entries[k][-1][0]] for k, subs in clients.items() for _, s, _ in subs
        ),
        "every subscriber got the move",
    )

    for key, subs in clients.items():
        want = b"".join(frame for _, frame in store.entries[key])
        live = [socket.writes[-1] for _, socket, _ in subs]
        for _, socket, _ in subs:
            assert socket.stream() == want, key
        # Written by the hub from one object for the whole audience ...
        assert all(chunk is live[0] for chunk in live), key
        # ... which no subscriber of another audience or table was written.
        for other, others in clients.items():
            if other != key:
                assert all(socket.writes[-1] is not live[0] for _, socket, _ in others), (key, other)
        for _, socket, _ in subs:
            text = socket.stream()
            for table in ("t", "u"):
                for seat in (0, 1):
                    if key != (table, f"seat{seat}"):
                        assert b"%s-hand-of-%d" % (table.encode(), seat) not in text, (key, table, seat)
            if key[1] != "seat1":
                assert b"drew-for-1" not in text, key
            assert (b"u-" in text) == (key[0] == "u"), key
    for subs in clients.values():
        await leave(hub, subs)


async def test_a_subscriber_that_stops_reading_is_cut_alone_and_the_others_get_every_move() -> None:
    store, changes, hub = one_table()
    readers = [connect(hub, store.feed("t", "spectator")) for _ in range(10)]
    slow, slow_socket, slow_task = connect(hub, store.feed("t", "spectator"))
    everyone = [*readers, (slow, slow_socket, slow_task)]
    await settle(lambda: all(sub.state is State.LIVE for sub, _, _ in everyone), "all joined")

    slow_socket.stop_reading()
    version = 1
    while slow.state is not State.CUT:
        assert version < 4 * MAX_QUEUED, "the subscriber that stopped reading was never cut off"
        version += 1
        store.append("t", "spectator", version, b'{"move":%d}' % version)
        changes.notify(["t"])
        # Every reader has the move before the next is made, whatever the slow one holds.
        await settle(lambda v=version: all(s.versions()[-1] == v for _, s, _ in readers), f"move {version}")
    assert slow.reason == "slow"
    assert version - 1 > MAX_QUEUED, "cut off before its queue was full"

    # More moves: the readers still get each, and only once.
    for _ in range(5):
        version += 1
        store.append("t", "spectator", version, b'{"move":%d}' % version)
        changes.notify(["t"])
    await settle(lambda: all(s.versions()[-1] == version for _, s, _ in readers), "moves after the cut")
    for _, socket, _ in readers:
        assert socket.versions() == list(range(1, version + 1))

    # What the cut one was sent: a prefix of the feed without a gap, then the last event.
    got = slow_socket.versions()
    assert got == list(range(1, len(got) + 1))
    assert slow_socket.stream().endswith(
        b'event: reconnect\ndata: {"reason":"slow","last_event_id":%d}\n\n' % got[-1]
    )
    assert slow_socket.closed
    await leave(hub, [(slow, slow_socket, slow_task), *readers])


async def test_a_subscriber_whose_socket_is_full_for_a_while_gets_every_entry_once_and_in_order() -> None:
    store, changes, hub = one_table()
    sub, socket, task = connect(hub, store.feed("t", "spectator"))
    other, other_socket, other_task = connect(hub, store.feed("t", "spectator"))
    await settle(lambda: sub.state is State.LIVE and other.state is State.LIVE, "joined")

    version = 1
    for phase in range(6):
        # Alternately: the socket full (entries wait in its queue, its own write
        # waits for a drain) and reading again (the hub writes to it itself).
        if phase % 2 == 0:
            socket.stop_reading()
        else:
            socket.read_again()
        for _ in range(3):
            version += 1
            store.append("t", "spectator", version, b'{"move":%d}' % version)
            changes.notify(["t"])
            await settle(lambda v=version: other_socket.versions()[-1] == v, f"move {version}")
    socket.read_again()
    await settle(lambda: socket.versions()[-1:] == [version], "the queued entries went out")
    assert socket.versions() == list(range(1, version + 1)), "a repeat, a gap or out of order"
    assert sub.state is State.LIVE
    await leave(hub, [(sub, socket, task), (other, other_socket, other_task)])


@pytest.fixture(autouse=True)
def _quick_ticks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(feeds, "TICK_S", 0.02)
