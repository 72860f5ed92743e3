"""Replay benchmark: projection rebuild speed, and memory per live game.

1. Fills a fresh Valkey with finished random games of every registered game
   (100,000+ events by default). Each command is planned by the reducer's own
   ``services.reducer.plan.plan`` and appended through
   ``shared.eventstore.store.EventStore.append_many``, in batches, exactly as
   the reducer writes, and the game is indexed as the gateway does.
2. Rebuilds every game's projections with ``ziggurat rebuild --write``'s own
   code (``shared.cli.audit.rebuild_games``: read the logs of a group of games
   in one round trip, fold them, build every audience's view and feed with
   ``shared.readmodels.build.build``, and write them through the
   projector's script, ``ReadModelWriter.add``, a group per transaction), and
   prints events/s per game; then the same work without the writes, game by
   game, split into read+decode, fold and build, to show where the time goes.
3. Loads N live (unfinished) games per game into a
   ``shared.eventstore.tables.TableCache``, as a reducer does after a restart,
   and measures the memory per live table, by RSS delta and by tracemalloc,
   and how many live games fit in 2 GB.

    python -m bench.replay                       # 120,000 events, 300 live tables per game
    python -m bench.replay --events 200000 --live 1000 --games tigris,catan
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
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
    for i in range(0, len(steps), chunk):
        outcomes = await store.append_many([s.plan.request for s in steps[i : i + chunk]])
        bad = [o for o in outcomes if o.status != "appended"]
        if bad:
            raise RuntimeError(f"append refused while filling: {bad[0]}")
    first = steps[0].msg
    await store.index_game(first.game_id, first.partition, time.time_ns() // 1_000_000)


async def rebuild(redis: Any, store: Any, written: dict[str, dict[str, Any]]) -> dict[str, Any]:
    from shared.cli.audit import rebuild_games
    from shared.eventstore.keys import GameKeys
    from shared.eventstore.tables import decode_all, fold_all
    from shared.readmodels.build import build

    out: dict[str, Any] = {}
    total_events = sum(i["events"] for i in written.values())
    total_games = sum(len(i["finished"]) for i in written.values())
    with _progress() as progress:
        task = progress.add_task(
            "rebuilding projections (ziggurat rebuild --write)", total=total_games, info=""
        )
        for key, info in written.items():
            progress.update(task, info=key)
            games = [GameKeys(gid, part) for gid, part, _ in info["finished"]]
            t = time.perf_counter()
            stuck = await rebuild_games(redis, games, True, lambda n: progress.advance(task, n))
            rebuild_s = time.perf_counter() - t
            if stuck:
                raise RuntimeError(f"rebuild could not rewrite {stuck[:3]}")
            read_s = fold_s = decode_s = build_s = 0.0
            for gid, part, _ in info["finished"]:
                t0 = time.perf_counter()
                envs = await store.read(GameKeys(gid, part))
                t1 = time.perf_counter()
                table = fold_all(envs)
                t2 = time.perf_counter()
                assert table is not None
                events = decode_all(table.game, envs)
                t3 = time.perf_counter()
                build(
                    gid, table, [(e.version, e.server_time, ev) for e, ev in zip(envs, events, strict=True)]
                )
                t4 = time.perf_counter()
                read_s += t1 - t0
                fold_s += t2 - t1
                decode_s += t3 - t2
                build_s += t4 - t3
            n = info["events"]
            out[key] = {
                "games": len(info["finished"]),
                "events": n,
                "rebuild_s": rebuild_s,
                "rebuild_events_per_s": n / rebuild_s,
                "read_decode_events_per_s": n / read_s,
                "fold_events_per_s": n / fold_s,
                "decode_events_per_s": n / decode_s,
                "build_events_per_s": n / build_s,
                "compute_events_per_s": n / (read_s + fold_s + decode_s + build_s),
            }
    total_s = sum(r["rebuild_s"] for r in out.values())
    out["all"] = {
        "games": sum(r["games"] for r in out.values()),
        "events": total_events,
        "rebuild_s": total_s,
        "rebuild_events_per_s": total_events / total_s,
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
        rebuilt = await rebuild(redis, store, written)
        mem = memory(server.url, written, args.live)
    finally:
        await redis.aclose()
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
    return {"fill": {"events": total, "seconds": fill_s}, "rebuild": rebuilt, "memory": mem}


def report(result: dict[str, Any]) -> None:
    rb = result["rebuild"]
    table = Table(title=f"projection rebuild from {result['fill']['events']:,} events (one process)")
    cols = (
        "game",
        "games",
        "events",
        "rebuild ev/s",
        "no-write ev/s",
        "read ev/s",
        "fold ev/s",
        "build ev/s",
    )
    for col in cols:
        table.add_column(col, justify="left" if col == "game" else "right")
    for key, r in rb.items():
        if key == "all":
            continue
        table.add_row(
            key,
            str(r["games"]),
            f"{r['events']:,}",
            fmt(r["rebuild_events_per_s"], 0),
            fmt(r["compute_events_per_s"], 0),
            fmt(r["read_decode_events_per_s"], 0),
            fmt(r["fold_events_per_s"], 0),
            fmt(r["build_events_per_s"], 0),
        )
    a = rb["all"]
    table.add_row(
        "all", str(a["games"]), f"{a['events']:,}", fmt(a["rebuild_events_per_s"], 0), "", "", "", ""
    )
    console.print(table)
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
    ap.add_argument("--live", type=int, default=300, help="live tables loaded per game for the memory figure")
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
