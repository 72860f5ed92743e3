"""Issue #15's targets, measured in one invocation and printed side by side (``make bench``).

Runs, one after the other so they share the machine's background load (printed):

1. Tigris flat out, AOF ``everysec``: commands/s and the CPU per command of
   the server side (every service and Valkey; not the load driver);
2. Tigris flat out, AOF ``always``: its ratio to (1);
3. Tigris paced at half of (1)'s rate: p99 from the POST to the reply (the
   reply holds the seat's new view, so "accepted" is also "visible");
4. Tigris flat out on a store with a replica (one primary, one replica), under
   the durability levels ``local`` and ``replicated``: their ratio, one run
   each (``make bench-durability`` runs every level, several times);
5. the fixture game flat out, ``everysec``, as ``make bench-peer`` plays it
   (50-card hands, a play connection per seat): its CPU per command;
6. unless ``--quick``: Catan against catanatron (``bench.catan_peer``), the
   projection rebuild (``bench.replay``) and a failover under load, one kill
   of a primary under ``local`` and one under ``replicated`` (``bench.failover``;
   ``make bench-failover`` kills three under each, for medians); ``make
   bench-peer`` measures the fixture game against boardgame.io and needs
   Node.js, so it is its own target; and the bot levels against each other
   (``bench.bots``, ``--bots-games`` per pairing: ``hard`` against ``medium``);
   and spectators on one gateway (``bench.spectators``, ``--spectator-runs``):
   2,000 and 10,000 live feeds of one table, a move delivered to every one.

Then one table: each metric, the figure, the target, and by how much it is met
or missed. Timings are printed, never asserted. Figures go to
``var/bench/targets.json``.

    python -m bench.targets                  # everything, about 10 minutes
    python -m bench.targets --quick          # the pipeline runs only
"""

from __future__ import annotations

import argparse
import json
import os
from dataclasses import dataclass
from typing import Any

from rich.table import Table

from bench import durability, failover, peer
from bench.common import OUT_DIR, ensure_extra_games, fmt, machine, make_console, write_json

console = make_console()


@dataclass(frozen=True)
class Target:
    metric: str
    value: float | None
    target: float
    unit: str
    #: True when a larger figure is better.
    higher: bool

    @property
    def met(self) -> bool | None:
        if self.value is None:
            return None
        return self.value >= self.target if self.higher else self.value <= self.target

    @property
    def ratio(self) -> float | None:
        """The figure over its target (above 1 is met for throughput, below 1 for costs)."""
        return None if self.value is None or not self.target else self.value / self.target


def server_cpu_ms(run: dict[str, Any]) -> float:
    """CPU per command of the server side: every service and Valkey, not the driver or the bench."""
    return float(run["server_ms_per_command"])


def _pipeline(
    label: str,
    game: str,
    fsync: str,
    rate: float,
    args: argparse.Namespace,
    options: dict[str, Any] | None = None,
    transport: str | None = None,
) -> dict[str, Any]:
    from bench.pipeline import RunConfig, print_run, run_once
    from shared.games import registry

    seats = max(2, registry.get(game).min_seats)
    cfg = RunConfig(
        label=label,
        game=game,
        seats=seats,
        games=args.games,
        drivers=1,
        rate=rate,
        duration=args.duration,
        warmup=args.warmup,
        partitions=4,
        validators=1,
        reducers=1,
        projectors=1,
        fsync=fsync,
        log_level="info",
        reference_s=0,
        read_models=args.read_models,
        transport=transport or args.transport,
        options=options or {},
    )
    run = run_once(cfg)
    print_run(run)
    return run


def measure(args: argparse.Namespace) -> dict[str, Any]:
    runs: dict[str, Any] = {}
    runs["tigris_everysec"] = _pipeline("tigris-everysec", "tigris", "everysec", 0, args)
    runs["tigris_always"] = _pipeline("tigris-always", "tigris", "always", 0, args)
    half = runs["tigris_everysec"]["throughput"]["commands_per_s"] / 2
    runs["tigris_half"] = _pipeline(f"tigris-everysec-{half:.0f}per-s", "tigris", "everysec", half, args)
    # On a store with a replica: local against replicated, one run each (`make
    # bench-durability` runs every level, several times, for medians).
    for level in ("local", "replicated"):
        runs[f"tigris_replica_{level}"] = durability.run(
            level, args_for_durability(args), f"tigris-replica-{level}"
        )
    # The fixture game as `make bench-peer` plays it against boardgame.io: its
    # long hands and its play connections, so the CPU per move compares.
    runs["fixture_everysec"] = _pipeline(
        "highcard-everysec", "highcard", "everysec", 0, args, json.loads(peer.GAME_OPTIONS), peer.TRANSPORT
    )
    out: dict[str, Any] = {"pipeline": runs}
    if not args.quick:
        from bench import catan_peer

        out["catan"] = catan_peer.run(args.catan_games, args.catan_reps, name="targets-catan")
        out["rebuild"] = _rebuild()
        out["failover"] = failover.measure(failover.parse(["--faults", "1"]))
        failover.report(out["failover"])
        from bench import bots

        out["bots"] = bots.run(args.bots_games)
        from bench import spectators

        out["spectators"] = spectators.run([2000, spectators.TARGET_FEEDS], 12, args.spectator_runs)
    return out


def _rebuild() -> dict[str, Any]:
    from bench import replay

    replay.main(["--repeat", "3", "--live", "0", "--cold-repeat", "1", "--name", "targets-replay"])
    result: dict[str, Any] = json.loads((OUT_DIR / "targets-replay.json").read_text())
    return result


def args_for_durability(args: argparse.Namespace) -> argparse.Namespace:
    """The pipeline runs' settings, as bench.durability takes them."""
    return argparse.Namespace(
        game="tigris",
        games=args.games,
        duration=args.duration,
        warmup=args.warmup,
        read_models=args.read_models,
    )


def targets(out: dict[str, Any]) -> list[Target]:
    runs = out["pipeline"]
    everysec = runs["tigris_everysec"]["throughput"]["commands_per_s"]
    always = runs["tigris_always"]["throughput"]["commands_per_s"]
    on_replica = runs["tigris_replica_local"]["throughput"]["commands_per_s"]
    replicated = runs["tigris_replica_replicated"]["throughput"]["commands_per_s"]
    rows = [
        Target("Tigris flat out, AOF everysec (commands/s)", everysec, 1500, "/s", True),
        Target("Tigris AOF always / everysec", always / everysec if everysec else None, 0.8, "x", True),
        Target(
            "Tigris durability replicated / local, 1 primary + 1 replica",
            replicated / on_replica if on_replica else None,
            0.8,
            "x",
            True,
        ),
        Target(
            f"p99 POST to accepted at half saturation ({runs['tigris_half']['config']['rate']:.0f}/s, ms)",
            runs["tigris_half"]["latency"]["accepted"]["p99_ms"],
            15,
            "ms",
            False,
        ),
        Target(
            "CPU per command, fixture game (ms)", server_cpu_ms(runs["fixture_everysec"]), 0.8, "ms", False
        ),
        Target("CPU per command, Tigris (ms)", server_cpu_ms(runs["tigris_everysec"]), 0.8, "ms", False),
    ]
    catan = out.get("catan")
    if catan:
        rows.append(
            Target(
                "Catan vs catanatron, games/s, like for like",
                catan["catan uniform_ratio"]["games_per_s"],
                1,
                "x",
                True,
            )
        )
        rows.append(
            Target(
                "Catan vs catanatron, games/s, our random bot",
                catan["catan_ratio"]["games_per_s"],
                1,
                "x",
                True,
            )
        )
    if fail := out.get("failover"):
        lost = fail["levels"]["replicated"]["lost"]
        rows.append(Target("acknowledged moves lost when a primary dies, replicated", lost, 0, "", False))
    rebuild = out.get("rebuild")
    if rebuild:
        rate = rebuild["rebuild"]["aof"]["all"]["plain"]["rebuild_events_per_s"]
        rows.append(Target("projection rebuild (events/s)", rate, 150_000, "/s", True))
    for pair in out.get("bots", {}).get("pairings", ()):
        if pair["tested"] == "hard":
            name = f"{pair['game']}, {pair['seats']} seats: hard's win rate against medium"
            rows.append(Target(name, pair["win_rate"], pair["target"], "x", True))
            name = f"{pair['game']}: hard's CPU per move, p95 (ms)"
            rows.append(Target(name, pair["cpu_ms_per_move"]["hard"]["p95"], 250, "ms", False))
    if watched := out.get("spectators"):
        from bench import spectators

        at = watched["medians"][spectators.TARGET_FEEDS]
        name = f"{spectators.TARGET_FEEDS:,} spectator feeds: move -> every feed, p99 (ms)"
        rows.append(Target(name, at["all_p99_ms"], spectators.TARGET_P99_MS, "ms", False))
    return rows


def report(rows: list[Target], load: tuple[float, float, float]) -> None:
    table = Table(title=f"issue #15 targets (load average before {load[0]:.2f})")
    for col in ("metric", "measured", "target", "measured / target", "met"):
        table.add_column(col, justify="left" if col == "metric" else "right")
    for t in rows:
        digits = 2 if t.unit in ("x", "ms") else 0
        met = {True: "[green]yes[/]", False: "[red]no[/]", None: "-"}[t.met]
        bound = ">=" if t.higher else "<="
        table.add_row(
            t.metric, fmt(t.value, digits), f"{bound} {fmt(t.target, digits)}", fmt(t.ratio, 2), met
        )
    console.print(table)


def main(argv: list[str] | None = None) -> int:
    ensure_extra_games()
    ap = argparse.ArgumentParser(prog="python -m bench.targets", description=__doc__.split("\n\n")[0])
    ap.add_argument("--duration", type=float, default=20.0, help="measured seconds per pipeline run")
    ap.add_argument("--warmup", type=float, default=4.0)
    ap.add_argument("--games", type=int, default=64, help="concurrent games per pipeline run")
    ap.add_argument("--quick", action="store_true", help="the pipeline runs only")
    ap.add_argument(
        "--read-models",
        default="separate",
        choices=("same", "separate"),
        help="the game read models on the store's Valkey or on their own without AOF (default)",
    )
    ap.add_argument(
        "--transport",
        default="http",
        choices=("http", "ws"),
        help="how the load driver's seats play: a request per move, or a play connection each",
    )
    ap.add_argument("--catan-games", type=int, default=20)
    ap.add_argument("--catan-reps", type=int, default=3)
    ap.add_argument("--bots-games", type=int, default=4, help="games per pairing of bot levels")
    ap.add_argument("--spectator-runs", type=int, default=1, help="runs of bench.spectators (medians)")
    args = ap.parse_args(argv)
    load = os.getloadavg()
    out = measure(args)
    rows = targets(out)
    report(rows, load)
    path = write_json(
        "targets",
        {
            "machine": machine(),
            "load_average": {"before": load, "after": os.getloadavg()},
            "targets": [{**t.__dict__, "met": t.met, "ratio": t.ratio} for t in rows],
            **out,
        },
    )
    console.print(f"figures written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
