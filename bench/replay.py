"""Replay benchmark: projection rebuild speed, cold table loads, and memory per live game.

1. Fills a fresh Valkey with finished random games of every registered game
   (100,000+ events by default). Each command is planned by the reducer's own
   ``services.reducer.plan.plan`` and appended through
   ``shared.eventstore.store.EventStore.append_many``, in batches, exactly as
   the reducer writes, and the game is indexed as the gateway does.
2. Rebuilds every game's projections with ``ziggurat rebuild --write``'s own
   code (``shared.readmodels.rebuilder.rebuild_games``: read the logs of a group of games
   in one round trip, build each game's read models in one pass with
   ``shared.readmodels.rebuild.models_from_log``, and write them as plain
   commands, ``shared.readmodels.writer.rewrite_commands``, a group per
   transaction over the thin client, the feeds staged ahead of it), in this
   process ("plain") and shared out to ``--workers`` processes ("pool"), and
   the same with the feeds appended inside the transaction, as before round 3
   ("multi"), alternating, and prints events/s per game and
   the CPU per event of this process, the pool's workers and Valkey; then the
   read alone and the models alone. ``--baseline`` also times the writes used
   before (the projector's script through redis-py, "script"), alternating,
   ``--repeat`` times each. ``--aof-off`` measures everything again with the
   server's AOF switched off (what read models on a Valkey of their own,
   without AOF, would cost).
3. Loads cold tables of 1,000+ events into a ``TableCache``, from their whole
   stream and from a snapshot (written as the reducer writes it, at the last
   multiple of ``snapshot_every``) plus the events after it.
4. Loads N live (unfinished) games per game into a
   ``shared.eventstore.tables.TableCache``, as a reducer does after a restart,
   and measures the memory per live table, by RSS delta and by tracemalloc,
   and how many live games fit in 2 GB.

    python -m bench.replay                       # 120,000 events, 300 live tables per game
    python -m bench.replay --baseline --repeat 3 --live 0 --aof-off
    python -m bench.replay --events 200000 --live 1000 --games tigris,catan
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import resource
import shutil
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from bench.common import OUT_DIR, ensure_extra_games, fmt, machine, make_console, scripted_game, write_json

console = make_console()
PARTITIONS = 4
TWO_GB = 2 * 2**30
MAX_LIVE_ACTIONS = 150


def _progress() -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[info]}"),
        console=console,
    )


async def fill(
    store: Any, keys_: list[str], events_target: int, live_per_game: int, seed: int
) -> dict[str, dict[str, Any]]:
    """Write finished games (and a few live ones) of every game; returns what was written."""
    from shared.games import registry

    share = events_target // len(keys_) + 1
    written: dict[str, dict[str, Any]] = {}
    rng = random.Random(seed)
    with _progress() as progress:
        task = progress.add_task("filling the store", total=events_target, info="")
        for key in keys_:
            game = registry.get(key)
            seats = max(2, game.min_seats)
            info: dict[str, Any] = {"finished": [], "live": [], "events": 0, "lengths": []}
            n = 0
            while info["events"] < share:
                steps = list(scripted_game(key, seats, seed + n, partitions=PARTITIONS))
                n += 1
                await _write(store, steps)
                events = sum(len(s.plan.request.envelopes) for s in steps)
                info["events"] += events
                info["lengths"].append(len(steps) - 1)
                info["finished"].append((steps[0].msg.game_id, steps[0].msg.partition, events))
                progress.update(task, advance=events, info=f"{key}: {n} games")
            typical = statistics.median(info["lengths"])
            for i in range(live_per_game):
                # mid-game; random bots can make a game far longer than people do
                stop = max(1, min(MAX_LIVE_ACTIONS, int(typical * rng.uniform(0.3, 0.7))))
                steps = list(scripted_game(key, seats, seed + 10_000 + i, PARTITIONS, stop_after=stop))
                await _write(store, steps)
                info["live"].append((steps[0].msg.game_id, steps[0].msg.partition))
            written[key] = info
    return written


async def _write(store: Any, steps: list[Any], chunk: int = 64) -> None:
    """Append a game's commands in order, ``chunk`` per pipeline: like a reducer
    batch, the appends of one game chain their expected versions."""
    from shared.eventstore import game_index
    from shared.eventstore.keys import GameKeys

    for i in range(0, len(steps), chunk):
        outcomes = await store.append_many([s.plan.request for s in steps[i : i + chunk]])
        bad = [o for o in outcomes if o.status != "appended"]
        if bad:
            raise RuntimeError(f"append refused while filling: {bad[0]}")
    first = steps[0].msg
    await game_index.index(store.redis, GameKeys(first.game_id, first.partition), time.time_ns() // 1_000_000)


def _cpu(server_pid: int) -> tuple[float, float, float]:
    """CPU seconds so far: this process, its finished children (a pool's
    workers, counted once the pool has shut down), and the server."""
    import psutil  # type: ignore[import-untyped]

    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    server = psutil.Process(server_pid).cpu_times()
    return (
        me.ru_utime + me.ru_stime,
        children.ru_utime + children.ru_stime,
        server.user + server.system,
    )


async def rebuild(
    redis: Any,
    url: str,
    server_pid: int,
    written: dict[str, dict[str, Any]],
    paths: list[str],
    repeat: int,
    workers: int,
) -> dict[str, Any]:
    """``ziggurat rebuild --write`` over every finished game, per game type, for
    each of ``paths`` ("plain", "multi", "pool", "script"), alternating, ``repeat`` times,
    with the CPU each path cost per event."""
    import redis.asyncio as aioredis

    from shared.eventstore.keys import GameKeys
    from shared.readmodels.rebuild import models_from_log
    from shared.readmodels.rebuilder import rebuild_games

    # The writes used before this round: the projector's script, through redis-py.
    script_client = aioredis.Redis.from_url(url)
    clients = {
        "plain": (redis, 1),
        "multi": (redis, 1),
        "pool": (redis, workers),
        "script": (script_client, 1),
    }
    # Every game in one rebuild, as ``ziggurat rebuild --write`` does (its CPU
    # is measured), then each game type's alone (its rate per game).
    batches = {"all": [g for info in written.values() for g in info["finished"]]}
    batches |= {key: info["finished"] for key, info in written.items()}
    times: dict[str, dict[str, list[float]]] = {p: {k: [] for k in batches} for p in paths}
    cpu: dict[str, list[float]] = {p: [0.0, 0.0, 0.0] for p in paths}
    events_done = dict.fromkeys(paths, 0)
    models_s: dict[str, float] = {}
    read: dict[str, float] = {}
    total_games = sum(len(i["finished"]) for i in written.values())
    load = [os.getloadavg()[0]]
    try:
        with _progress() as progress:
            task = progress.add_task(
                "rebuilding projections (ziggurat rebuild --write)",
                total=2 * total_games * len(paths) * repeat,
                info="",
            )
            for round_ in range(repeat):
                for path in paths if round_ % 2 == 0 else paths[::-1]:
                    client, n_workers = clients[path]
                    for key, finished in batches.items():
                        progress.update(task, info=f"{path}: {key}")
                        games = [GameKeys(gid, part) for gid, part, _ in finished]
                        before = _cpu(server_pid)
                        t = time.perf_counter()
                        stuck = await rebuild_games(
                            client,
                            games,
                            True,
                            lambda n: progress.advance(task, n),
                            workers=n_workers,
                            staged=path != "multi",
                        )
                        times[path][key].append(time.perf_counter() - t)
                        after = _cpu(server_pid)
                        if key == "all":
                            for i in range(3):
                                cpu[path][i] += after[i] - before[i]
                            events_done[path] += sum(events for _, _, events in finished)
                        if stuck:
                            raise RuntimeError(f"rebuild could not rewrite {stuck[:3]}")
            load.append(os.getloadavg()[0])
            # The same work without the writes: the read, then the models alone.
            for key, info in written.items():
                logs = []
                t = time.perf_counter()
                for gid, part, _ in info["finished"]:
                    rows = await redis.xrange(GameKeys(gid, part).events)
                    logs.append((gid, [fields[b"e"] for _, fields in rows]))
                read[key] = time.perf_counter() - t
                t = time.perf_counter()
                for gid, log in logs:
                    models_from_log(gid, log)
                models_s[key] = time.perf_counter() - t
    finally:
        await script_client.aclose()
    out: dict[str, Any] = {}
    for key, info in written.items():
        n = info["events"]
        out[key] = {
            "games": len(info["finished"]),
            "events": n,
            "read_events_per_s": n / read[key],
            "models_events_per_s": n / models_s[key],
        }
        for path in paths:
            median = statistics.median(times[path][key])
            out[key][path] = {"rebuild_s": median, "rebuild_events_per_s": n / median}
    total = sum(i["events"] for i in written.values())
    out["all"] = {"games": total_games, "events": total, "load": load}
    for path in paths:
        seconds = statistics.median(times[path]["all"])
        me, children, server = (c / events_done[path] * 1e6 for c in cpu[path])
        out["all"][path] = {
            "rebuild_s": seconds,
            "rebuild_events_per_s": total / seconds,
            "cpu_us_per_event": {"rebuild": me, "workers": children, "valkey": server},
        }
    return out


async def cold_loads(
    redis: Any, store: Any, written: dict[str, dict[str, Any]], min_events: int, repeat: int
) -> dict[str, Any]:
    """Time to load a cold table into a ``TableCache``, from its whole stream and
    from a snapshot plus the events after it.

    For each game type, the finished games of at least ``min_events`` events
    (the longest one if none is that long). Each gets the snapshot the reducer
    would hold at its version: at the last multiple of ``snapshot_every``,
    written with the reducer's own ``snapshots.encode``.
    """
    from shared.eventstore import snapshots
    from shared.eventstore.keys import GameKeys
    from shared.eventstore.tables import TableCache, fold_all
    from shared.infra.settings import Settings

    every = Settings().snapshot_every
    out: dict[str, Any] = {}
    for key, info in written.items():
        long_ = [g for g in info["finished"] if g[2] >= min_events] or [
            max(info["finished"], key=lambda g: g[2])
        ]
        long_ = long_[:8]
        keys = [GameKeys(gid, part) for gid, part, _ in long_]
        for k in keys:
            envelopes = await store.read(k)
            at = len(envelopes) // every * every
            if at:
                raw = await redis.xrange(k.events, min=f"0-{at}", max=f"0-{at}")
                table = fold_all(envelopes[:at])
                assert table is not None
                await store.save_snapshot(k, at, snapshots.encode(table, raw[0][1][b"e"]))
        figures: dict[str, float] = {}
        for label, use in (("replay", False), ("snapshot", True)):
            samples = []
            for _ in range(repeat):
                cache = TableCache(store, snapshots=use)
                t = time.perf_counter()
                loaded = await cache.refresh(keys)
                samples.append((time.perf_counter() - t) / len(keys))
                assert all(loaded[k.game_id] is not None for k in keys)
            figures[label] = statistics.median(samples)
        out[key] = {
            "tables": len(keys),
            "mean_events": statistics.fmean(g[2] for g in long_),
            "replay_ms": figures["replay"] * 1000,
            "snapshot_ms": figures["snapshot"] * 1000,
            "speedup": figures["replay"] / figures["snapshot"],
        }
    return out


def _memory_child(url: str, key: str, sources: list[tuple[str, int]], live: int, out: Any) -> None:
    """In a fresh interpreter: RSS delta of ``live`` tables, then tracemalloc."""
    asyncio.run(_memory_child_async(url, key, sources, live, out))


async def _memory_child_async(
    url: str, key: str, sources: list[tuple[str, int]], live: int, out: Any
) -> None:
    import psutil

    from shared.eventstore.keys import GameKeys
    from shared.eventstore.store import EventStore
    from shared.eventstore.tables import TableCache
    from shared.infra.redis_client import connect

    redis = connect(url)
    store = EventStore(redis)
    keys = [GameKeys(g, p) for g, p in sources]
    raw = [await redis.xrange(k.events) for k in keys]  # bytes only: decoded afresh per table
    versions = [len(r) for r in raw]
    await redis.aclose()
    from shared.eventstore.store import decode_envelope

    def load(cache: TableCache, n: int = live) -> None:
        for i in range(n):
            rows = raw[i % len(raw)]
            cache.apply(f"live-{i}", [decode_envelope(f[b"e"]) for _, f in rows])

    # warm the code paths (imports, codecs, interned strings) before measuring
    load(TableCache(store, capacity=len(raw) + 1), len(raw))
    gc.collect()
    proc = psutil.Process()
    cache = TableCache(store, capacity=live + 1)
    base = proc.memory_info().rss
    load(cache)
    gc.collect()
    rss = (proc.memory_info().rss - base) / live
    del cache
    gc.collect()
    cache = TableCache(store, capacity=live + 1)
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    load(cache)
    gc.collect()
    traced = (tracemalloc.get_traced_memory()[0] - base) / live
    tracemalloc.stop()
    out.put({"key": key, "rss": rss, "traced": traced, "mean_version": statistics.fmean(versions)})


def memory(url: str, written: dict[str, dict[str, Any]], live: int) -> dict[str, Any]:
    """Bytes per live table held in a TableCache, each game measured in a fresh process."""
    import multiprocessing as mp

    ctx = mp.get_context("spawn")
    out: dict[str, Any] = {}
    with _progress() as progress:
        task = progress.add_task(
            f"{live} live tables per game, in a fresh process", total=len(written), info=""
        )
        for key, info in written.items():
            progress.update(task, info=key)
            q: Any = ctx.Queue()
            child = ctx.Process(target=_memory_child, args=(url, key, info["live"], live, q), daemon=True)
            child.start()
            try:
                r = q.get(timeout=600)
            finally:
                child.join(timeout=10)
                if child.is_alive():
                    child.terminate()
            per_game = max(r["rss"], r["traced"])
            out[key] = {
                "rss_bytes_per_game": r["rss"],
                "tracemalloc_bytes_per_game": r["traced"],
                "live_tables": live,
                "mean_version": r["mean_version"],
                "games_in_2gb": int(TWO_GB / per_game) if per_game > 0 else None,
            }
            progress.update(task, advance=1)
    return out


async def run(args: argparse.Namespace) -> dict[str, Any]:
    from shared.eventstore.store import EventStore
    from shared.games import registry
    from shared.infra.redis_client import connect
    from shared.infra.valkey_server import ValkeyServer, free_port

    keys_ = [k for k in args.games.split(",") if k] or registry.available()
    paths = ["plain", "multi", "pool", "script"] if args.baseline else ["plain", "multi", "pool"]
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    root = tempfile.mkdtemp(prefix="replay-", dir=OUT_DIR)
    server = ValkeyServer(Path(root), port=free_port(), fsync="everysec")
    server.start()
    redis = connect(server.url)
    try:
        store = EventStore(redis)
        t = time.perf_counter()
        written = await fill(store, keys_, args.events, args.live_sources, args.seed)
        fill_s = time.perf_counter() - t
        total = sum(i["events"] for i in written.values())
        rate = total / fill_s
        console.print(
            f"store filled: {total:,} events in {fill_s:.1f} s ({rate:,.0f} events/s planned+appended)"
        )
        assert server.process is not None
        pid = server.process.pid
        rebuilt = {"aof": await rebuild(redis, server.url, pid, written, paths, args.repeat, args.workers)}
        if args.aof_off:
            await redis.config_set("appendonly", "no")
            rebuilt["no-aof"] = await rebuild(
                redis, server.url, pid, written, paths, args.repeat, args.workers
            )
            await redis.config_set("appendonly", "yes")
        cold = await cold_loads(redis, store, written, args.cold_events, args.cold_repeat)
        mem = memory(server.url, written, args.live) if args.live else {}
    finally:
        await redis.aclose()
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
    return {
        "fill": {"events": total, "seconds": fill_s},
        "rebuild": rebuilt,
        "cold_load": cold,
        "memory": mem,
    }


PATHS = ("plain", "multi", "pool", "script")


def report(result: dict[str, Any]) -> None:
    for mode, rb in result["rebuild"].items():
        _report_rebuild(result["fill"]["events"], mode, rb)
    _report_rest(result)


def _report_rebuild(events: int, mode: str, rb: dict[str, Any]) -> None:
    paths = [p for p in PATHS if p in rb["all"]]
    aof = "AOF on (everysec)" if mode == "aof" else "AOF off"
    load = " to ".join(f"{x:.1f}" for x in rb["all"].get("load", []))
    title = f"projection rebuild from {events:,} events, {aof}: events/s (median; load average {load})"
    table = Table(title=title)
    cols = ["game", "games", "events", *paths]
    if "multi" in paths:
        cols.append("plain / multi")
    if "script" in paths:
        cols += [f"{p} / script" for p in paths if p != "script"]
    cols += ["models alone", "read alone"]
    for col in cols:
        table.add_column(col, justify="left" if col == "game" else "right")
    for key, r in rb.items():
        row = [key, str(r["games"]), f"{r['events']:,}"]
        row += [fmt(r[p]["rebuild_events_per_s"], 0) for p in paths]
        if "multi" in paths:
            row.append(f"{r['plain']['rebuild_events_per_s'] / r['multi']['rebuild_events_per_s']:.2f}x")
        if "script" in paths:
            base = r["script"]["rebuild_events_per_s"]
            row += [f"{r[p]['rebuild_events_per_s'] / base:.2f}x" for p in paths if p != "script"]
        row += [fmt(r.get("models_events_per_s"), 0), fmt(r.get("read_events_per_s"), 0)]
        table.add_row(*row)
    console.print(table)
    ut = Table(title=f"CPU per event rebuilt, {aof} (all rounds)")
    for col in ("path", "rebuild process µs", "pool workers µs", "Valkey µs", "total µs"):
        ut.add_column(col, justify="left" if col == "path" else "right")
    for p in paths:
        c = rb["all"][p]["cpu_us_per_event"]
        ut.add_row(
            p, fmt(c["rebuild"], 1), fmt(c["workers"], 1), fmt(c["valkey"], 1), fmt(sum(c.values()), 1)
        )
    console.print(ut)


def _report_rest(result: dict[str, Any]) -> None:
    ct = Table(title="loading a cold table into a TableCache (median per table)")
    for col in ("game", "tables", "mean events", "whole stream ms", "snapshot + tail ms", "speed-up"):
        ct.add_column(col, justify="left" if col == "game" else "right")
    for key, c in result["cold_load"].items():
        ct.add_row(
            key,
            str(c["tables"]),
            fmt(c["mean_events"], 0),
            fmt(c["replay_ms"], 2),
            fmt(c["snapshot_ms"], 2),
            f"{c['speedup']:.1f}x",
        )
    console.print(ct)
    if not result["memory"]:
        return
    mt = Table(title="memory per live game in a TableCache (reducer, validator and projector each hold one)")
    for col in ("game", "mean version", "RSS bytes/game", "tracemalloc bytes/game", "live games in 2 GB"):
        mt.add_column(col, justify="left" if col == "game" else "right")
    for key, m in result["memory"].items():
        mt.add_row(
            key,
            fmt(m["mean_version"], 0),
            fmt(m["rss_bytes_per_game"], 0),
            fmt(m["tracemalloc_bytes_per_game"], 0),
            f"{m['games_in_2gb']:,}" if m["games_in_2gb"] else "-",
        )
    console.print(mt)


def main(argv: list[str] | None = None) -> int:
    ensure_extra_games()
    ap = argparse.ArgumentParser(prog="python -m bench.replay", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default="", help="comma-separated game keys (default: every available game)")
    ap.add_argument("--events", type=int, default=120_000, help="events of finished games to write")
    ap.add_argument(
        "--baseline",
        action="store_true",
        help="also time the rebuild's previous writes (the projector's script), alternately",
    )
    ap.add_argument("--workers", type=int, default=2, help="processes of the pool path")
    ap.add_argument("--aof-off", action="store_true", help="measure the rebuild again with AOF off")
    ap.add_argument("--repeat", type=int, default=1, help="rebuilds per path (the median is shown)")
    ap.add_argument("--cold-events", type=int, default=1_000, help="cold tables loaded have this many events")
    ap.add_argument("--cold-repeat", type=int, default=15, help="cold loads per game and way (median shown)")
    ap.add_argument(
        "--live", type=int, default=300, help="live tables loaded per game for the memory figure (0: skip)"
    )
    ap.add_argument("--live-sources", type=int, default=8, help="distinct unfinished games per game")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--name", default="replay", help="result file var/bench/<name>.json")
    args = ap.parse_args(argv)
    result = asyncio.run(run(args))
    report(result)
    path = write_json(args.name, {"machine": machine(), **result})
    console.print(f"figures written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
