"""The recovery time of a failover under load, by durability level (``make bench-failover``).

A store of three primaries with a replica each (``Stack(cluster=True,
replicas=1)``), two reducers, and bots playing the fixture game flat out: by
default two per partition, each playing table after table of its own partition
with no pause between moves (the chaos test's load, tests/support/store_faults.py,
without its pace). Then, one after the other, ``--faults`` times: wait until
every partition takes moves and a while more (the rate before), SIGKILL a
primary that serves partitions (not the node named in the store URL; each
fault picks the shard failed least so far), start it again once its replica
has taken over (it rejoins as a replica: under ``replicated`` a shard without
one takes no writes), and wait until the cluster has settled.

For each fault, read from the store's own partition feeds (their entry ids are
append times): the seconds until every partition of the killed node took a
move again; the other partitions' moves/s from the kill until then (at least
3 s) against theirs before; the longest a table of theirs waited. After the
last fault the bots finish their games, and every acknowledged move is looked
for in the store at the version it was acknowledged with: the lost are
counted (under ``replicated`` there must be none; under ``local``
asynchronous replication may lose the last moments, docs/reliability.md).

Each level runs on a stack of its own; the medians are over its faults. The
load average is printed before every level and fault. Timings are printed,
never asserted; figures go to ``var/bench/failover.json``.

    python -m bench.failover                        # local and replicated, 3 kills each, ~4 minutes
    python -m bench.failover --faults 5 --levels replicated
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import statistics
import tempfile
from pathlib import Path
from typing import Any

from rich.table import Table

from bench.common import OUT_DIR, ensure_extra_games, fmt, machine, make_console, write_json
from shared.infra.durability import LEVELS, Level

console = make_console()
PARTITIONS = 8


async def run_level(level: Level, args: argparse.Namespace) -> dict[str, Any]:
    """One stack under ``level``: its faults' costs, and what the store lost."""
    import httpx

    from shared.infra.launcher import Stack
    from shared.infra.redis_client import connect
    from tests.support import store_faults as sf

    root = Path(tempfile.mkdtemp(prefix=f"failover-{level}-", dir=OUT_DIR))
    stack = Stack(
        root,
        partitions=PARTITIONS,
        cluster=True,
        replicas=1,
        reducers=2,
        durability=level,
        node_timeout_ms=args.node_timeout_ms,
        env=sf.ENV,
    )
    await asyncio.to_thread(stack.start, 120)
    store = stack.store
    assert store is not None
    redis = connect(stack.redis_url or "", cluster=True)
    faults: list[dict[str, Any]] = []
    failed: list[int] = []
    try:
        async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
            played: dict[str, sf.Played] = {}
            stop = asyncio.Event()
            bots = [(p, b) for p in range(PARTITIONS) for b in range(args.bots)]
            opened = [asyncio.Event() for _ in bots]
            load = asyncio.gather(
                *(
                    sf.play_in(api, p, PARTITIONS, played, stop, random.Random(p * 100 + b), e, args.pace)
                    for (p, b), e in zip(bots, opened, strict=True)
                )
            )
            await asyncio.wait_for(asyncio.gather(*(e.wait() for e in opened)), 180)
            url_port = store.nodes[0].port
            for n in range(args.faults):
                await sf.every_partition_busy(redis, PARTITIONS)
                await asyncio.sleep(args.before)
                assert not load.done(), "the load stopped early"
                shard = sf.pick(store, PARTITIONS, failed, lambda s: s.primary.port != url_port)
                load_avg = os.getloadavg()
                victims, at_ms = await sf.kill_shard(store, shard, PARTITIONS)
                failed += victims
                paid = await sf.cost(redis, PARTITIONS, victims, at_ms, args.before, 180)
                console.print(
                    f"{level}, kill {n + 1}/{args.faults} (load {load_avg[0]:.2f}): partitions {victims} "
                    f"took moves again after {paid.recovery_s:.1f} s; the others {paid.during_per_s:.0f} "
                    f"moves/s against {paid.before_per_s:.0f} before ({paid.share:.2f}), "
                    f"a table waited {paid.longest_wait_s:.1f} s at most"
                )
                faults.append(
                    {
                        "load_before": load_avg,
                        "victims": victims,
                        "delays_s": paid.delays,
                        "recovery_s": paid.recovery_s,
                        "others_before_per_s": paid.before_per_s,
                        "others_during_per_s": paid.during_per_s,
                        "others_share": paid.share,
                        "longest_wait_s": paid.longest_wait_s,
                    }
                )
                await asyncio.to_thread(sf.settled, store)
            stop.set()  # every game in progress plays to its end
            await load
        acknowledged, lost, vanished = await _losses(redis, played)
    finally:
        await redis.aclose()
        await asyncio.to_thread(stack.stop)
        shutil.rmtree(root / "valkey", ignore_errors=True)
    return {
        "faults": faults,
        "tables": len(played),
        "acknowledged": acknowledged,
        "lost": lost,
        "tables_vanished": vanished,
        "logs": str(root / "logs"),
    }


async def _losses(redis: Any, played: dict[str, Any]) -> tuple[int, int, int]:
    """Acknowledged moves, those of them the store lacks at their version, and
    tables whose opening was lost (their moves counted among those)."""
    from shared.eventstore.keys import GameKeys, partition_of
    from shared.eventstore.store import EventStore
    from tests.support.store_faults import lost_moves

    store = EventStore(redis)
    acknowledged = lost = 0
    for table_id, p in played.items():
        envelopes = await store.read(GameKeys(table_id, partition_of(table_id, PARTITIONS)))
        table_acknowledged, table_lost = lost_moves(p, envelopes)
        acknowledged += table_acknowledged
        lost += len(table_lost)
    return acknowledged, lost, sum(p.vanished for p in played.values())


def summarise(runs: dict[str, dict[str, Any]]) -> dict[str, dict[str, float]]:
    return {
        level: {
            "median_recovery_s": statistics.median(f["recovery_s"] for f in run["faults"]),
            "max_recovery_s": max(f["recovery_s"] for f in run["faults"]),
            "median_others_share": statistics.median(f["others_share"] for f in run["faults"]),
            "median_longest_wait_s": statistics.median(f["longest_wait_s"] for f in run["faults"]),
            "lost": run["lost"],
            "acknowledged": run["acknowledged"],
        }
        for level, run in runs.items()
    }


def report(result: dict[str, Any]) -> None:
    cfg = result["config"]
    table = Table(
        title=(
            "A primary SIGKILLed under load: 3 primaries x 1 replica, "
            f"node timeout {cfg['node_timeout_ms']} ms, "
            f"{cfg['bots']} bots per partition x {PARTITIONS} (load average now {os.getloadavg()[0]:.2f})"
        )
    )
    columns = (
        "level",
        "its partitions take moves again (s, by kill)",
        "median (s)",
        "others' rate during / before (by kill)",
        "median",
        "longest table wait, median (s)",
        "acknowledged moves lost",
    )
    for col in columns:
        table.add_column(col, justify="left" if col == "level" else "right")
    for level, s in result["levels"].items():
        faults = result["runs"][level]["faults"]
        table.add_row(
            level,
            ", ".join(fmt(f["recovery_s"], 1) for f in faults),
            fmt(s["median_recovery_s"], 1),
            ", ".join(
                f"{fmt(f['others_during_per_s'], 0)}/{fmt(f['others_before_per_s'], 0)}" for f in faults
            ),
            fmt(s["median_others_share"], 2),
            fmt(s["median_longest_wait_s"], 1),
            f"{s['lost']} of {s['acknowledged']}",
        )
    console.print(table)


def measure(args: argparse.Namespace) -> dict[str, Any]:
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    runs: dict[str, dict[str, Any]] = {}
    for level in args.levels:
        load = os.getloadavg()
        console.print(f"{level}: load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
        runs[level] = {"load_before": load, **asyncio.run(run_level(level, args))}
    return {"machine": machine(), "config": vars(args), "runs": runs, "levels": summarise(runs)}


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m bench.failover", description=__doc__.split("\n\n")[0])
    ap.add_argument("--levels", default="local,replicated", help=f"comma-separated, of {', '.join(LEVELS)}")
    ap.add_argument("--faults", type=int, default=3, help="primaries killed per level, one after the other")
    ap.add_argument("--bots", type=int, default=2, help="bots per partition (default 2)")
    ap.add_argument(
        "--pace", type=float, default=0.0, help="seconds each bot waits between moves (default 0)"
    )
    ap.add_argument("--before", type=float, default=6.0, help="seconds of the rate before each kill")
    ap.add_argument(
        "--node-timeout-ms",
        type=int,
        default=2000,
        help="cluster-node-timeout (default 2000, as the chaos test; 5000 deployed)",
    )
    ap.add_argument("--name", default="failover", help="result file var/bench/<name>.json")
    args = ap.parse_args(argv)
    args.levels = [x.strip() for x in args.levels.split(",") if x.strip()]
    if unknown := set(args.levels) - set(LEVELS):
        ap.error(f"unknown levels {sorted(unknown)}; choose from {', '.join(LEVELS)}")
    return args


def main(argv: list[str] | None = None) -> int:
    ensure_extra_games()
    args = parse(argv)
    result = measure(args)
    report(result)
    console.print(f"figures: {write_json(args.name, result)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
