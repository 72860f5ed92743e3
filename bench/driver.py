"""The load driver: bots playing whole games through the public HTTP API.

Leaner than ``shared.cli.botclient.play``: a bot reads the view of the seat it
acts for (which lists that seat's legal commands and who is awaited) and
submits one at random with the expected version and ``"view": true``, so the
accepted reply also holds that seat's new view, once the projection shows it.
So a command costs one POST, which doubles as the "projection visible" probe;
a GET is needed only when the next command is another seat's.

With ``transport="ws"`` each seat plays over its play connection instead
(``/v1/tables/{id}/play``, one WebSocket per seat, ``bench.ws_client``): the
command is a message answered by the same reply, and a seat's new view arrives
by itself when another seat moves, so no GET is ever made; only the table's
opening is an HTTP request.

One driver process runs many games on one event loop, each bot on its own
keep-alive connection (``bench.http_client``: a lean client, so that the
driver costs far less than the server it loads); ``bench.pipeline`` starts
several processes when one Python client would be the bottleneck. Counters are shared with the parent for live
progress; latency samples are taken only in the measuring phase.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import msgspec
import uvloop

from bench.http_client import Connection
from bench.ws_client import Socket
from shared.kernel.legal_groups import expand

WARMUP, MEASURE, STOP = 0, 1, 2
# Shared counter slots, per driver.
ACCEPTED, REJECTED, OPENED, FINISHED, ERRORS, REQUESTS = range(6)
SLOTS = 6


@dataclass
class DriverConfig:
    index: int
    api: str
    game: str
    seats: int
    games: int  # concurrent games in this process
    rate: float  # commands/s for this process; 0 = flat out
    seed: int
    max_poll_s: float = 12.0  # beyond the gateway's own 10 s wait
    options: dict[str, Any] = field(default_factory=dict)
    #: "http": a POST per command (and a GET when another seat is next); "ws": play connections.
    transport: str = "http"


@dataclass
class DriverResult:
    index: int
    accept_s: list[float] = field(default_factory=list)  # POST -> accepted reply
    visible_s: list[float] = field(default_factory=list)  # POST -> version visible in the view
    rejected: dict[str, int] = field(default_factory=dict)
    accepted: int = 0
    polls: int = 0  # view GETs made after an accepted reply whose view was behind
    requests: int = 0
    errors: list[str] = field(default_factory=list)
    #: The driver's own event-loop lag (a 10 ms timer's lateness) and, when
    #: paced, how late each command left after its slot: a starved driver
    #: sends late and adds its own wait to the server's tail.
    loop_lag_s: list[float] = field(default_factory=list)
    send_late_s: list[float] = field(default_factory=list)


class _Stop(Exception):
    pass


class Pacer:
    """Spaces this process's commands evenly at ``rate`` per second (0 = no pacing),
    shared by all its bots."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self._next_slot = time.perf_counter()

    async def wait(self) -> float:
        """Wait for this command's slot; how late it is left then (0 unpaced)."""
        if self.rate <= 0:
            return 0.0
        now = time.perf_counter()
        slot = max(now, self._next_slot)
        self._next_slot = slot + 1.0 / self.rate
        if slot > now:
            await asyncio.sleep(slot - now)
            return max(0.0, time.perf_counter() - slot)
        return 0.0


class _View(msgspec.Struct):
    """What a bot reads in a view document; the legal commands stay raw JSON,
    sent back exactly as the server listed them."""

    version: int
    over: bool
    seat: int | None = None
    actors: list[int] = []
    legal: list[msgspec.Raw] = []


_view = msgspec.json.Decoder(_View).decode


class _Opened(msgspec.Struct):
    table_id: str
    version: int
    tokens: list[dict[str, Any]]


_opened = msgspec.json.Decoder(_Opened).decode


class _Accepted(msgspec.Struct):
    version: int
    view: _View


_accepted = msgspec.json.Decoder(_Accepted).decode


class _Error(msgspec.Struct):
    code: str = ""


_error = msgspec.json.Decoder(_Error).decode


class _Frame(msgspec.Struct):
    """A play connection's message: a reply (its answer kept raw, as an HTTP body),
    or the seat's view (``ready``, ``view``)."""

    type: str
    http_status: int = 0
    answer: msgspec.Raw = msgspec.Raw()
    view: _View | None = None


_frame = msgspec.json.Decoder(_Frame).decode


class SeatSocket:
    """One seat's play connection: the newest view it was sent, and the reply awaited."""

    def __init__(self) -> None:
        self.socket: Socket | None = None
        self.latest: _View | None = None
        self.changed = asyncio.Event()
        self.reply: asyncio.Future[tuple[int, bytes]] | None = None
        self.refused = b""

    async def open(self, url: str, token: str) -> None:
        self.socket = await Socket.open(url, self._message, self._lost)
        self.socket.send(msgspec.json.encode({"token": token}))

    def _message(self, data: bytes) -> None:
        frame = _frame(data)
        if frame.type == "reply":
            if self.reply is not None and not self.reply.done():
                self.reply.set_result((frame.http_status, bytes(frame.answer)))
        elif frame.view is not None:
            self.seen(frame.view)
        else:  # a refusal: the connection ends
            self.refused = bytes(frame.answer)
            self._lost()

    def seen(self, doc: _View) -> None:
        if self.latest is None or doc.version > self.latest.version:
            self.latest = doc
            self.changed.set()

    def _lost(self) -> None:
        self.changed.set()
        if self.reply is not None and not self.reply.done():
            self.reply.set_exception(RuntimeError(f"play connection lost {self.refused[:200]!r}"))

    def close(self) -> None:
        if self.socket is not None:
            self.socket.close()


class Bot:
    def __init__(
        self, cfg: DriverConfig, shared: Any, phase: Any, result: DriverResult, pacer: Pacer
    ) -> None:
        self.cfg = cfg
        self.shared = shared
        self.phase = phase
        self.result = result
        self.pacer = pacer
        self.base = cfg.index * SLOTS
        self.http = Connection(cfg.api)
        self.ws_base = cfg.api.replace("http://", "ws://", 1)
        self.sockets: dict[str, SeatSocket] = {}  # by token, for the table being played
        self._open_body = msgspec.json.encode({"game": cfg.game, "seats": cfg.seats, "options": cfg.options})

    def count(self, slot: int, n: int = 1) -> None:
        self.shared[self.base + slot] += n

    @property
    def measuring(self) -> bool:
        return bool(self.phase.value == MEASURE)

    def check(self) -> None:
        if self.phase.value == STOP:
            raise _Stop

    async def request(
        self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        self.count(REQUESTS)
        self.result.requests += 1
        return await self.http.request(method, path, body, headers)

    async def view(self, table: str, token: str, min_version: int = 0) -> _View:
        path = f"/v1/tables/{table}/view"
        if min_version:
            path += f"?min_version={min_version}"
        status, body = await self.request("GET", path, headers=_auth(token))
        if status != 200:
            raise RuntimeError(f"view answered {status}: {body[:200]!r}")
        return _view(body)

    async def view_at(self, table: str, token: str, version: int) -> tuple[_View, int]:
        """The seat's view once it shows ``version``: the gateway holds the request
        until the projection catches up (``min_version``), so one GET usually does.
        Over play connections, the view the seat's connection was last sent, once it
        shows ``version`` (no request: the gateway pushes each new one)."""
        if self.cfg.transport == "ws":
            return await self.pushed(table, token, version), 0
        deadline = time.perf_counter() + self.cfg.max_poll_s
        polls = 0
        while True:
            doc = await self.view(table, token, version)
            polls += 1
            if doc.version >= version or doc.over or time.perf_counter() > deadline:
                return doc, polls
            self.check()

    async def seat_socket(self, table: str, token: str) -> SeatSocket:
        seat = self.sockets.get(token)
        if seat is None:
            seat = self.sockets[token] = SeatSocket()
            await seat.open(f"{self.ws_base}/v1/tables/{table}/play", token)
        return seat

    async def pushed(self, table: str, token: str, version: int) -> _View:
        seat = await self.seat_socket(table, token)
        async with asyncio.timeout(self.cfg.max_poll_s):
            while True:
                doc = seat.latest
                if doc is not None and (doc.version >= version or doc.over):
                    return doc
                if seat.socket is None or seat.socket.closed:
                    raise RuntimeError(f"play connection closed {seat.refused[:200]!r}")
                seat.changed.clear()
                await seat.changed.wait()

    async def submit(self, table: str, token: str, body: bytes, key: str) -> tuple[int, bytes]:
        """A command with its new view: (HTTP status, answer), by POST or over the seat's connection."""
        if self.cfg.transport != "ws":
            headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": key}
            return await self.request("POST", f"/v1/tables/{table}/commands", body, headers)
        self.count(REQUESTS)
        self.result.requests += 1
        seat = await self.seat_socket(table, token)
        assert seat.socket is not None
        seat.reply = asyncio.get_running_loop().create_future()
        seat.socket.send(body[:-1] + b',"idempotency_key":"%s"}' % key.encode())
        async with asyncio.timeout(self.cfg.max_poll_s + 20):
            status, answer = await seat.reply
        if status == 200:  # the reply's view is the connection's newest too
            seat.seen(_accepted(answer).view)
        return status, answer

    def leave_table(self) -> None:
        for seat in self.sockets.values():
            seat.close()
        self.sockets.clear()

    async def play_forever(self, rng: random.Random) -> None:
        with contextlib.suppress(_Stop):
            while True:
                self.check()
                try:
                    await self.play_one(rng)
                except (_Stop, asyncio.CancelledError):
                    raise
                except Exception as exc:  # keep the load going; report what broke
                    self.count(ERRORS)
                    if len(self.result.errors) < 20:
                        self.result.errors.append(repr(exc)[:300])
                    await asyncio.sleep(0.05)
        self.leave_table()
        self.http.close()

    async def play_one(self, rng: random.Random) -> None:
        self.leave_table()  # the previous table's connections
        status, body = await self.request("POST", "/v1/tables", self._open_body)
        if status != 201:
            raise RuntimeError(f"open answered {status}: {body[:200]!r}")
        opened = _opened(body)
        self.count(OPENED)
        table = opened.table_id
        tokens = [t["token"] for t in opened.tokens]
        known = opened.version
        doc, _ = await self.view_at(table, tokens[0], known)
        while not doc.over:
            self.check()
            seat = rng.choice(doc.actors)
            if doc.seat != seat:
                doc, _ = await self.view_at(table, tokens[seat], known)
                continue
            if not doc.legal:  # a projection behind the known version: look again
                await asyncio.sleep(0.002)
                doc, _ = await self.view_at(table, tokens[seat], known + 1)
                continue
            command = msgspec.json.encode(rng.choice(expand(map(msgspec.json.decode, doc.legal))))
            late = await self.pacer.wait()
            started = time.perf_counter()
            status, body = await self.submit(
                table,
                tokens[seat],
                b'{"command":%s,"expected_version":%d,"view":true}' % (bytes(command), doc.version),
                uuid.uuid4().hex,
            )
            replied = time.perf_counter()
            if status == 200:
                accepted = _accepted(body)
                known, doc, polls = accepted.version, accepted.view, 0
                self.count(ACCEPTED)
                if doc.version < known and not doc.over:  # the gateway's wait ran out
                    doc, polls = await self.view_at(table, tokens[seat], known)
                if self.measuring:
                    self.result.accepted += 1
                    if self.pacer.rate > 0:
                        self.result.send_late_s.append(late)
                    self.result.accept_s.append(replied - started)
                    self.result.visible_s.append(time.perf_counter() - started)
                    self.result.polls += polls
            else:
                self.count(REJECTED)
                code = _code(status, body)
                if self.measuring:
                    self.result.rejected[code] = self.result.rejected.get(code, 0) + 1
                doc, _ = await self.view_at(table, tokens[seat], known)
        self.count(FINISHED)


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _code(status: int, body: bytes) -> str:
    try:
        return _error(body).code or str(status)
    except msgspec.DecodeError:
        return str(status)


async def _main(cfg: DriverConfig, shared: Any, phase: Any, results: Any) -> None:
    result = DriverResult(cfg.index)
    pacer = Pacer(cfg.rate)
    bots = []
    for i in range(cfg.games):
        bot = Bot(cfg, shared, phase, result, pacer)
        rng = random.Random(cfg.seed * 10_007 + i)
        bots.append(asyncio.create_task(bot.play_forever(rng)))
    probe = asyncio.create_task(_loop_lag(phase, result))
    await asyncio.gather(*bots)
    probe.cancel()
    results.put(result)


async def _loop_lag(phase: Any, result: DriverResult, period_s: float = 0.01) -> None:
    """The driver's own loop lag while measuring (the services' is their metric)."""
    while phase.value != STOP:
        due = time.perf_counter() + period_s
        await asyncio.sleep(period_s)
        if phase.value == MEASURE:
            result.loop_lag_s.append(max(0.0, time.perf_counter() - due))


def run(cfg: DriverConfig, shared: Any, phase: Any, results: Any) -> None:
    """Entry point of a driver process."""
    uvloop.run(_main(cfg, shared, phase, results))
