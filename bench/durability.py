"""Tigris flat out under each durability level, as a ratio to ``local`` (``make bench-durability``).

Every run plays on the same kind of store: a one-shard cluster, one primary and
one replica (``Stack(replicas=1)``), so what changes between levels is only what
the servers and the reducer do for it (docs/reliability.md, "Durability levels"):
``local`` (AOF everysec, no wait), ``fsync`` (AOF always), ``replicated``
(``WAIT 1`` per batch), ``replicated-fsync`` (AOF always and ``WAITAOF 1 1`` per
batch). The pipeline benchmark's driver plays (``bench.pipeline.run_once``).

Runs go in rounds, each round one run of every level in a rotated order, so
the machine's drift spreads over all levels; a level's ratio is the median,
over the rounds, of its throughput over ``local``'s in the same round. The
load average is printed before every run (a shared machine skews every
figure). Target: ``replicated`` >= 0.8 x ``local``. Timings are printed,
never asserted; figures go to ``var/bench/durability.json``.

    python -m bench.durability                       # 3 rounds of the four levels, ~5 minutes
    python -m bench.durability --rounds 5 --duration 20
    python -m bench.durability --levels local,replicated
"""

from __future__ import annotations

import argparse
import os
import statistics
from typing import Any

from rich.table import Table

from bench.common import ensure_extra_games, fmt, machine, make_console, write_json
from shared.infra.durability import LEVELS

console = make_console()
#: The issue's target for the replicated level, as a ratio to local.
TARGET = ("replicated", 0.8)


def run(level: str, args: argparse.Namespace, label: str) -> dict[str, Any]:
    from bench.pipeline import RunConfig, run_once
    from shared.games import registry

    cfg = RunConfig(
        label=label,
        game=args.game,
        seats=max(2, registry.get(args.game).min_seats),
        games=args.games,
        drivers=1,
        rate=0,
        duration=args.duration,
        warmup=args.warmup,
        partitions=4,
        validators=1,
        reducers=1,
        projectors=1,
        fsync="everysec",
        log_level="info",
        reference_s=0,
        read_models=args.read_models,
        replicas=1,
        durability=level,
    )
    return run_once(cfg)


def measure(args: argparse.Namespace) -> dict[str, Any]:
    levels: list[str] = args.levels
    rounds: list[dict[str, dict[str, Any]]] = []
    for r in range(args.rounds):
        shift = r % len(levels)
        order = levels[shift:] + levels[:shift]
        done: dict[str, dict[str, Any]] = {}
        for level in order:
            load = os.getloadavg()
            console.print(f"round {r + 1}/{args.rounds}, {level}: load average {load[0]:.2f} {load[1]:.2f}")
            result = run(level, args, f"durability-{level}-{r + 1}")
            done[level] = {
                "load_before": load,
                "commands_per_s": result["throughput"]["commands_per_s"],
                "accepted_p50_ms": result["latency"]["accepted"]["p50_ms"],
                "accepted_p99_ms": result["latency"]["accepted"]["p99_ms"],
                "rejections": result["rejections_client"],
                "cpu_ms_per_command": result["cpu_ms_per_command"],
                "valkey_ms_per_command": result["valkey_ms_per_command"],
                "mean_batch": result["mean_batch"],
            }
        rounds.append(done)
    return {"machine": machine(), "config": vars(args), "rounds": rounds, "levels": summarise(levels, rounds)}


def summarise(levels: list[str], rounds: list[dict[str, dict[str, Any]]]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for level in levels:
        rates = [r[level]["commands_per_s"] for r in rounds]
        ratios = [
            r[level]["commands_per_s"] / r["local"]["commands_per_s"]
            for r in rounds
            if "local" in r and r["local"]["commands_per_s"]
        ]
        out[level] = {
            "median_commands_per_s": statistics.median(rates),
            "ratio_to_local": statistics.median(ratios) if ratios else float("nan"),
            "median_p99_ms": statistics.median(r[level]["accepted_p99_ms"] for r in rounds),
            # Less at the mercy of other work on the machine than the rate.
            "median_server_cpu_ms": statistics.median(server_cpu_ms(r[level]) for r in rounds),
        }
    return out


def server_cpu_ms(run: dict[str, Any]) -> float:
    """CPU per command of every service and Valkey node (not the driver or the bench)."""
    return float(run["server_ms_per_command"])


def report(result: dict[str, Any]) -> None:
    load = os.getloadavg()
    table = Table(
        title=f"Tigris flat out by durability level, 1 primary + 1 replica (load average now {load[0]:.2f})"
    )
    columns = (
        "level",
        "commands/s by round",
        "median /s",
        "median ratio to local",
        "p99 accepted (ms)",
        "server CPU per command (ms)",
    )
    for col in columns:
        table.add_column(col, justify="left" if col == "level" else "right")
    for level, summary in result["levels"].items():
        rates = ", ".join(fmt(r[level]["commands_per_s"], 0) for r in result["rounds"])
        table.add_row(
            level,
            rates,
            fmt(summary["median_commands_per_s"], 0),
            fmt(summary["ratio_to_local"], 2),
            fmt(summary["median_p99_ms"], 1),
            fmt(summary["median_server_cpu_ms"], 2),
        )
    console.print(table)
    level, target = TARGET
    if level in result["levels"] and "local" in result["levels"]:
        ratio = result["levels"][level]["ratio_to_local"]
        met = "[green]met[/]" if ratio >= target else "[red]not met[/]"
        console.print(f"target: {level} >= {target} x local: {ratio:.2f} x, {met}")


def main(argv: list[str] | None = None) -> int:
    ensure_extra_games()
    ap = argparse.ArgumentParser(prog="python -m bench.durability", description=__doc__.split("\n\n")[0])
    ap.add_argument("--levels", default=",".join(LEVELS), help="comma-separated (local is always run)")
    ap.add_argument("--rounds", type=int, default=3, help="runs of each level (default 3)")
    ap.add_argument("--duration", type=float, default=8.0, help="measured seconds per run (default 8)")
    ap.add_argument("--warmup", type=float, default=3.0, help="unmeasured seconds first (default 3)")
    ap.add_argument("--games", type=int, default=48, help="concurrent games (default 48)")
    ap.add_argument("--game", default="tigris")
    ap.add_argument(
        "--read-models",
        default="separate",
        help="separate (their own Valkey, no AOF, unreplicated: the default, as in bench.pipeline) or same",
    )
    ap.add_argument("--name", default="durability", help="result file var/bench/<name>.json")
    args = ap.parse_args(argv)
    levels = [x.strip() for x in args.levels.split(",") if x.strip()]
    if unknown := set(levels) - set(LEVELS):
        ap.error(f"unknown levels {sorted(unknown)}; choose from {', '.join(LEVELS)}")
    args.levels = ["local", *(x for x in levels if x != "local")]
    result = measure(args)
    report(result)
    console.print(f"figures: {write_json(args.name, result)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
