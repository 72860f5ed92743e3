"""Spectators on one gateway: one move, delivered to every live feed (issue 26).

Starts a real stack (every service a process of its own, ``shared.infra.launcher``),
opens one table of the fixture game and, from a client process of its own, ``N``
spectator feeds (SSE) of that table on its one gateway, each from one of many
loopback addresses (the gateway caps feeds per address, as it does for real
spectators). The client is raw asyncio protocols, no HTTP library, so that 10,000
feeds cost it little. Then it makes ``--moves`` moves, one at a time, and for each
measures from the POST until every feed has received the move's first public
event. Printed for each ``N``, side by side, as the median over ``--runs`` runs
(a fresh stack for each ``N`` in each run, the ``N`` alternated):

* the time until every feed had the move (p50 / p99 over the moves), and until
  99 % of them had it;
* the gateway's resident memory before and after opening the feeds, and the
  difference per feed;
* the load average before each run, and the client's own CPU.

Target (issue 26): 10,000 feeds, p99 < 1 s, with the gateway's RSS printed.

    python -m bench.spectators [--feeds 2000,10000] [--moves 12] [--runs 3]
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import multiprocessing as mp
import os
import re
import resource
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import (
    OUT_DIR,
    Samples,
    ensure_extra_games,
    fmt,
    machine,
    make_console,
    quantile,
    scrape,
    write_json,
)
from shared.infra.settings import UNTHROTTLED

console = make_console()
TARGET_FEEDS = 10_000
TARGET_P99_MS = 1000.0
#: Feeds per loopback address: under the gateway's default cap (feeds_per_address, 64).
PER_ADDRESS = 50
#: Feeds being set up at once (the listen backlog is 2,048).
OPENING = 200
#: The fixture game with hands long enough for every move of a run.
GAME_OPTIONS = {"deck_size": 1000, "hand_size": 200}
_ID = re.compile(rb"\nid: (\d+)\n")


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


# -- the client process ----------------------------------------------------------


class Watch:
    """What every feed of the client has received, and when each passed the move awaited."""

    def __init__(self, feeds: int) -> None:
        self.feeds = feeds
        #: A feed "has the move" once it received an id above this.
        self.threshold = 1 << 62
        self.reached = 0
        self.all_reached = asyncio.Event()
        self.cut = 0
        self.lost = 0


class Feed(asyncio.Protocol):
    """One spectator's SSE connection: only the event ids are looked at."""

    __slots__ = ("arrivals", "head", "opened", "request", "status", "tail", "top", "watch")

    def __init__(self, watch: Watch, request: bytes) -> None:
        self.watch = watch
        self.request = request
        self.opened: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.head = b""
        self.status = 0
        self.tail = b""
        self.top = 0
        #: (a new highest id, when it came): the ids only grow.
        self.arrivals: list[tuple[int, float]] = []

    def connection_made(self, transport: Any) -> None:
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        now = time.monotonic()
        if not self.status:
            self.head += data
            end = self.head.find(b"\r\n\r\n")
            if end < 0:
                return
            self.status = int(self.head.split(b" ", 2)[1])
            data, self.head = self.head[end:], b""
            if not self.opened.done():
                self.opened.set_result(self.status)
        buf = self.tail + data
        self.tail = buf[-48:]
        ids = _ID.findall(buf)
        if ids:
            top = int(ids[-1])
            if top > self.top:
                watch = self.watch
                if self.top <= watch.threshold < top:
                    watch.reached += 1
                    if watch.reached >= watch.feeds:
                        watch.all_reached.set()
                self.top = top
                self.arrivals.append((top, now))
        if b"event: reconnect" in buf:
            self.watch.cut += 1

    def connection_lost(self, exc: Exception | None) -> None:
        self.watch.lost += 1
        if not self.opened.done():
            self.opened.set_result(0)


async def _client(api: str, table: dict[str, Any], feeds: int, moves: int, pipe: Any) -> dict[str, Any]:
    import httpx

    from shared.cli import botclient
    from shared.kernel.legal_groups import expand

    host, port = api.removeprefix("http://").split(":")
    path = f"/v1/tables/{table['table_id']}/feed"
    request = f"GET {path} HTTP/1.1\r\nhost: {host}:{port}\r\naccept: text/event-stream\r\n\r\n".encode()
    loop = asyncio.get_running_loop()
    watch = Watch(feeds)
    gate = asyncio.Semaphore(OPENING)
    opened: list[Feed] = []
    statuses: dict[int, int] = {}

    async def open_one(i: int) -> None:
        k = i // PER_ADDRESS
        source = f"127.{100 + k // 62500}.{k // 250 % 250 + 1}.{k % 250 + 1}"
        async with gate:
            try:
                _, feed = await loop.create_connection(
                    lambda: Feed(watch, request), host, int(port), local_addr=(source, 0)
                )
            except OSError:
                statuses[-1] = statuses.get(-1, 0) + 1
                return
            status = await feed.opened
        statuses[status] = statuses.get(status, 0) + 1
        opened.append(feed)

    started = time.monotonic()
    await asyncio.gather(*(open_one(i) for i in range(feeds)))
    opening_s = time.monotonic() - started
    watch.feeds = sum(1 for f in opened if f.status == 200)
    pipe.send({"opened": watch.feeds, "statuses": statuses, "opening_s": opening_s})
    pipe.recv()  # the parent has measured the gateway with every feed open

    seat_table = botclient.Table(table["table_id"], "highcard", table["tokens"])
    measured: list[dict[str, Any]] = []
    cpu_before = resource.getrusage(resource.RUSAGE_SELF)
    async with httpx.AsyncClient(base_url=api, timeout=60) as client:
        version = 0
        for _ in range(moves):
            url = f"/v1/tables/{seat_table.table_id}/view"
            doc = (await client.get(url, params={"min_version": version})).json()
            seat = doc["actors"][0]
            headers = botclient.auth(seat_table.tokens[seat])
            mine = (await client.get(url, params={"min_version": doc["version"]}, headers=headers)).json()
            command = expand(mine["legal"])[0]
            before = max(doc["version"], version)
            watch.threshold, watch.reached = before, 0
            watch.all_reached.clear()
            sent = time.monotonic()
            r = await client.post(
                f"/v1/tables/{seat_table.table_id}/commands",
                json={"command": command, "expected_version": mine["version"]},
                headers=headers,
            )
            accepted = time.monotonic()
            if r.status_code != 200:
                raise RuntimeError(f"move refused: {r.status_code} {r.text}")
            version = int(r.json()["version"])
            with contextlib.suppress(TimeoutError):  # counted below: feeds that never had it
                await asyncio.wait_for(watch.all_reached.wait(), timeout=60)
            delays = []
            for feed in opened:
                at = bisect.bisect_right(feed.arrivals, (before, float("inf")))
                if at < len(feed.arrivals):
                    delays.append(feed.arrivals[at][1] - sent)
            delays.sort()
            measured.append(
                {
                    "version": version,
                    "accepted_ms": (accepted - sent) * 1e3,
                    "reached": len(delays),
                    "all_ms": delays[-1] * 1e3 if len(delays) == watch.feeds else float("nan"),
                    "p50_ms": quantile(delays, 0.5) * 1e3,
                    "p99_ms": quantile(delays, 0.99) * 1e3,
                }
            )
            await asyncio.sleep(0.2)
    cpu_after = resource.getrusage(resource.RUSAGE_SELF)
    cpu_s = (cpu_after.ru_utime + cpu_after.ru_stime) - (cpu_before.ru_utime + cpu_before.ru_stime)
    return {"moves": measured, "cut": watch.cut, "lost": watch.lost, "client_cpu_s": cpu_s}


def _client_process(api: str, table: dict[str, Any], feeds: int, moves: int, pipe: Any) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    try:
        import uvloop

        runner: Any = uvloop.run
    except ImportError:
        runner = asyncio.run
    pipe.send(runner(_client(api, table, feeds, moves, pipe)))


# -- one run ----------------------------------------------------------------------


async def _open_table(api: str) -> dict[str, Any]:
    import httpx

    from shared.cli import botclient

    async with httpx.AsyncClient(base_url=api, timeout=30) as client:
        table = await botclient.open_table(client, "highcard", 2, GAME_OPTIONS)
        await botclient.view(client, table, None)
    return {"table_id": table.table_id, "tokens": table.tokens}


def run_one(feeds: int, moves: int) -> dict[str, Any]:
    """A fresh stack, ``feeds`` spectator feeds of one table, ``moves`` moves."""
    import psutil

    from shared.infra.launcher import Stack

    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="spectators-", dir=_var()) as root:
        stack = Stack(root=Path(root), partitions=1, env=dict(UNTHROTTLED)).start()
        try:
            gateway = stack.procs["gateway"].pid
            assert gateway is not None
            table = asyncio.run(_open_table(stack.api))
            time.sleep(0.5)
            rss_before = rss_mb(gateway)
            ours, theirs = mp.get_context("spawn").Pipe()
            proc = mp.get_context("spawn").Process(
                target=_client_process, args=(stack.api, table, feeds, moves, theirs), daemon=True
            )
            proc.start()
            opened = ours.recv()
            time.sleep(1.0)
            rss_open = rss_mb(gateway)
            metrics_url = stack.metrics_urls()["gateway"]
            scraped = scrape(metrics_url)
            cpu = psutil.Process(gateway).cpu_times()
            ours.send("go")
            result = ours.recv()
            cpu_after = psutil.Process(gateway).cpu_times()
            rss_after = rss_mb(gateway)
            pauses = _pauses(scraped, scrape(metrics_url))
            proc.join(timeout=30)
        finally:
            stack.stop()
    held = opened["opened"]
    return {
        "feeds": feeds,
        "opened": held,
        "statuses": opened["statuses"],
        "opening_s": opened["opening_s"],
        "load_before": load,
        "load_after": os.getloadavg(),
        "rss_mb": {"before": rss_before, "open": rss_open, "after_moves": rss_after},
        "kib_per_feed": (rss_open - rss_before) * 1024 / held if held else float("nan"),
        "gateway_pauses": pauses,
        "gateway_cpu_s": cpu_after.user + cpu_after.system - cpu.user - cpu.system,
        **result,
    }


def _pauses(before: Samples, after: Samples) -> dict[str, float]:
    """The gateway's full collections and its event loop's lag while the moves were made."""
    full = (("generation", "2"),)
    loop: tuple[tuple[str, str], ...] = ()

    def grew(name: str, labels: tuple[tuple[str, str], ...]) -> float:
        return after.get((name, labels), 0.0) - before.get((name, labels), 0.0)

    return {
        "full_gc_count": grew("ziggurat_gc_pause_seconds_count", full),
        "full_gc_ms": grew("ziggurat_gc_pause_seconds_sum", full) * 1e3,
        "loop_lag_over_100ms": grew("ziggurat_event_loop_lag_seconds_count", loop)
        - grew("ziggurat_event_loop_lag_seconds_bucket", (("le", "0.1"), *loop)),
    }


def _var() -> Path:
    path = OUT_DIR
    path.mkdir(parents=True, exist_ok=True)
    return path


def summarize(run: dict[str, Any]) -> dict[str, float]:
    """One run's figures: over its moves, the time until every feed had each."""
    every = sorted(m["all_ms"] for m in run["moves"])
    feed_p99 = sorted(m["p99_ms"] for m in run["moves"])
    return {
        "all_p50_ms": quantile(every, 0.5),
        "all_p99_ms": quantile(every, 0.99),
        "feed_p99_p50_ms": quantile(feed_p99, 0.5),
        "accepted_p50_ms": statistics.median(m["accepted_ms"] for m in run["moves"]),
        "kib_per_feed": run["kib_per_feed"],
        "rss_before_mb": run["rss_mb"]["before"],
        "rss_open_mb": run["rss_mb"]["open"],
        "load": run["load_before"][0],
        "client_cpu_ms_per_move": run["client_cpu_s"] * 1e3 / max(1, len(run["moves"])),
        "gateway_cpu_ms_per_move": run["gateway_cpu_s"] * 1e3 / max(1, len(run["moves"])),
        "gateway_cpu_us_per_feed": run["gateway_cpu_s"] * 1e6 / max(1, len(run["moves"]) * run["opened"]),
        "missing": sum(run["opened"] - m["reached"] for m in run["moves"]),
        "full_gc_count": run["gateway_pauses"]["full_gc_count"],
        "full_gc_ms": run["gateway_pauses"]["full_gc_ms"],
        "loop_lag_over_100ms": run["gateway_pauses"]["loop_lag_over_100ms"],
    }


def report(results: dict[int, list[dict[str, Any]]]) -> dict[int, dict[str, float]]:
    from rich.table import Table

    medians: dict[int, dict[str, float]] = {}
    for n, runs in results.items():
        sums = [summarize(r) for r in runs]
        medians[n] = {k: statistics.median(s[k] for s in sums) for k in sums[0]}
        for i, (r, s) in enumerate(zip(runs, sums, strict=True)):
            console.print(
                f"  N={n:,} run {i + 1}: every feed p50/p99 "
                f"{fmt(s['all_p50_ms'])} / {fmt(s['all_p99_ms'])} ms, "
                f"RSS {fmt(s['rss_before_mb'])} -> {fmt(s['rss_open_mb'])} MB "
                f"({fmt(s['kib_per_feed'])} KiB/feed), "
                f"opened {r['opened']:,} in {r['opening_s']:.1f} s {r['statuses']}, cut {r['cut']}, "
                f"load {r['load_before'][0]:.2f}"
            )
    table = Table(title=f"spectators on one gateway, median of {len(next(iter(results.values())))} run(s)")
    table.add_column("figure")
    for n in results:
        table.add_column(f"N = {n:,}", justify="right")
    rows = [
        ("move -> every feed, p50 over moves (ms)", "all_p50_ms", 1),
        ("move -> every feed, p99 over moves (ms)", "all_p99_ms", 1),
        ("move -> 99 % of feeds, median over moves (ms)", "feed_p99_p50_ms", 1),
        ("POST -> accepted, median (ms)", "accepted_p50_ms", 1),
        ("gateway RSS before feeds (MB)", "rss_before_mb", 1),
        ("gateway RSS with the feeds open (MB)", "rss_open_mb", 1),
        ("gateway memory per feed (KiB)", "kib_per_feed", 1),
        ("gateway CPU per move (ms; the moves' own requests included)", "gateway_cpu_ms_per_move", 1),
        ("... per feed (µs)", "gateway_cpu_us_per_feed", 2),
        ("client CPU per move (ms)", "client_cpu_ms_per_move", 1),
        ("feeds that missed a move", "missing", 0),
        ("gateway's full GC passes during the moves", "full_gc_count", 0),
        ("... their time in all (ms)", "full_gc_ms", 1),
        ("gateway event loop lags over 100 ms during the moves", "loop_lag_over_100ms", 0),
        ("load average (1 min) before", "load", 2),
    ]
    for label, key, digits in rows:
        table.add_row(label, *(fmt(medians[n][key], digits) for n in results))
    console.print(table)
    return medians


def run(feeds: list[int], moves: int, runs: int) -> dict[str, Any]:
    ensure_extra_games()
    results: dict[int, list[dict[str, Any]]] = {n: [] for n in feeds}
    for i in range(runs):
        order = feeds if i % 2 == 0 else feeds[::-1]
        for n in order:
            console.print(f"run {i + 1}/{runs}: {n:,} feeds (load {os.getloadavg()[0]:.2f})")
            results[n].append(run_one(n, moves))
    medians = report(results)
    out = {"machine": machine(), "runs": results, "medians": medians}
    write_json("spectators", out)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.spectators", description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--feeds", default=f"2000,{TARGET_FEEDS}", help="comma-separated feed counts, side by side"
    )
    ap.add_argument("--moves", type=int, default=12, help="moves measured per run")
    ap.add_argument("--runs", type=int, default=3, help="runs of every feed count (medians)")
    args = ap.parse_args(argv)
    run([int(n) for n in args.feeds.split(",")], args.moves, args.runs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
