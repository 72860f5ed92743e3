"""The load driver: bots playing whole games through the public HTTP API.

Leaner than ``shared.cli.botclient.play``: a bot reads the view of the seat it
acts for (which lists that seat's legal commands and who is awaited), submits
one at random with the expected version, and then polls the same view until
the accepted version is visible. So every command costs one POST and, usually,
one or two GETs, and the poll doubles as the "projection visible" probe.

One driver process runs many games on one event loop over a keep-alive
connection pool; ``bench.pipeline`` starts several processes when one Python
client would be the bottleneck. Counters are shared with the parent for live
progress; latency samples are taken only in the measuring phase.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import time
import types
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx

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
    max_poll_s: float = 2.0


@dataclass
class DriverResult:
    index: int
    accept_s: list[float] = field(default_factory=list)  # POST -> accepted reply
    visible_s: list[float] = field(default_factory=list)  # POST -> version visible in the view
    rejected: dict[str, int] = field(default_factory=dict)
    accepted: int = 0
    polls: int = 0  # view GETs made while waiting for a version
    requests: int = 0
    errors: list[str] = field(default_factory=list)


class _Stop(Exception):
    pass


class Pacer:
    """Spaces this process's commands evenly at ``rate`` per second (0 = no pacing),
    shared by all its bots."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self._next_slot = time.perf_counter()

    async def wait(self) -> None:
        if self.rate <= 0:
            return
        now = time.perf_counter()
        slot = max(now, self._next_slot)
        self._next_slot = slot + 1.0 / self.rate
        if slot > now:
            await asyncio.sleep(slot - now)


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

    def count(self, slot: int, n: int = 1) -> None:
        self.shared[self.base + slot] += n

    @property
    def measuring(self) -> bool:
        return bool(self.phase.value == MEASURE)

    def check(self) -> None:
        if self.phase.value == STOP:
            raise _Stop

    async def request(self, client: httpx.AsyncClient, method: str, url: str, **kw: Any) -> httpx.Response:
        self.count(REQUESTS)
        self.result.requests += 1
        return await client.request(method, url, **kw)

    async def view(self, client: httpx.AsyncClient, table: str, token: str) -> dict[str, Any]:
        r = await self.request(
            client, "GET", f"/v1/tables/{table}/view", headers={"authorization": f"Bearer {token}"}
        )
        r.raise_for_status()
        doc: dict[str, Any] = r.json()
        return doc

    async def view_at(
        self, client: httpx.AsyncClient, table: str, token: str, version: int
    ) -> tuple[dict[str, Any], int]:
        """Poll the seat's view until it shows ``version`` (back-off 0.5 ms to 4 ms)."""
        deadline = time.perf_counter() + self.cfg.max_poll_s
        pause = 0.0005
        polls = 0
        while True:
            doc = await self.view(client, table, token)
            polls += 1
            if doc["version"] >= version or time.perf_counter() > deadline:
                return doc, polls
            self.check()
            await asyncio.sleep(pause)
            pause = min(pause * 2, 0.004)

    async def play_forever(self, client: httpx.AsyncClient, rng: random.Random) -> None:
        with contextlib.suppress(_Stop):
            while True:
                self.check()
                try:
                    await self.play_one(client, rng)
                except (_Stop, asyncio.CancelledError):
                    raise
                except Exception as exc:  # keep the load going; report what broke
                    self.count(ERRORS)
                    if len(self.result.errors) < 20:
                        self.result.errors.append(repr(exc)[:300])
                    await asyncio.sleep(0.05)

    async def play_one(self, client: httpx.AsyncClient, rng: random.Random) -> None:
        r = await self.request(
            client, "POST", "/v1/tables", json={"game": self.cfg.game, "seats": self.cfg.seats}
        )
        r.raise_for_status()
        body = r.json()
        self.count(OPENED)
        table = body["table_id"]
        tokens = [t["token"] for t in body["tokens"]]
        known = int(body["version"])
        doc, _ = await self.view_at(client, table, tokens[0], known)
        while not doc["over"]:
            self.check()
            seat = rng.choice(doc["actors"])
            if doc["seat"] != seat:
                doc, _ = await self.view_at(client, table, tokens[seat], known)
                continue
            if not doc["legal"]:  # a projection behind the known version: look again
                await asyncio.sleep(0.002)
                doc, _ = await self.view_at(client, table, tokens[seat], known + 1)
                continue
            command = rng.choice(doc["legal"])
            await self.pacer.wait()
            started = time.perf_counter()
            r = await self.request(
                client,
                "POST",
                f"/v1/tables/{table}/commands",
                json={"command": command, "expected_version": doc["version"]},
                headers={"authorization": f"Bearer {tokens[seat]}", "idempotency-key": uuid.uuid4().hex},
            )
            replied = time.perf_counter()
            if r.status_code == 200:
                known = int(r.json()["version"])
                self.count(ACCEPTED)
                doc, polls = await self.view_at(client, table, tokens[seat], known)
                if self.measuring:
                    self.result.accepted += 1
                    self.result.accept_s.append(replied - started)
                    self.result.visible_s.append(time.perf_counter() - started)
                    self.result.polls += polls
            else:
                self.count(REJECTED)
                code = _code(r)
                if self.measuring:
                    self.result.rejected[code] = self.result.rejected.get(code, 0) + 1
                doc, _ = await self.view_at(client, table, tokens[seat], known)
        self.count(FINISHED)


def _code(r: httpx.Response) -> str:
    try:
        return str(r.json().get("code", r.status_code))
    except ValueError:
        return str(r.status_code)


def _stub_sniffio() -> None:
    """httpcore asks ``sniffio`` which event loop runs, on every request. anyio 4.16
    no longer depends on sniffio, so it is absent here and the failed import
    scans sys.path each time: about 1 ms of CPU per request, more than the
    request itself. A stub that answers "asyncio" removes that cost."""
    try:
        import sniffio  # noqa: F401
    except ImportError:
        stub = types.ModuleType("sniffio")
        stub.current_async_library = lambda: "asyncio"  # type: ignore[attr-defined]
        sys.modules["sniffio"] = stub


async def _main(cfg: DriverConfig, shared: Any, phase: Any, results: Any) -> None:
    result = DriverResult(cfg.index)
    # One small keep-alive pool per game: httpcore's pool scans all its
    # connections for every request, which grows with the pool's size.
    limits = httpx.Limits(max_connections=2, max_keepalive_connections=2)
    timeout = httpx.Timeout(30.0)
    pacer = Pacer(cfg.rate)
    async with contextlib.AsyncExitStack() as stack:
        bots = []
        for i in range(cfg.games):
            client = await stack.enter_async_context(
                # plain HTTP on loopback: verify=False skips loading a CA bundle per client
                httpx.AsyncClient(base_url=cfg.api, limits=limits, timeout=timeout, verify=False)
            )
            bot = Bot(cfg, shared, phase, result, pacer)
            rng = random.Random(cfg.seed * 10_007 + i)
            bots.append(asyncio.create_task(bot.play_forever(client, rng)))
        await asyncio.gather(*bots)
    results.put(result)


def run(cfg: DriverConfig, shared: Any, phase: Any, results: Any) -> None:
    """Entry point of a driver process."""
    _stub_sniffio()
    try:
        import uvloop

        uvloop.run(_main(cfg, shared, phase, results))
    except ImportError:
        asyncio.run(_main(cfg, shared, phase, results))
