"""The gateway under hostile clients while bots play: what the players lose, what the gateway holds.

One stack, bots playing the fixture game through the HTTP API at a steady
rate (``--rate``), measured in alternating pairs of windows: without attackers,
then with ``--per-class`` hostile clients of every class in
tests/gateway/attacks.py at once (pipelining and pings never read, sockets,
slow and oversized heads, hoarded feeds and unauthenticated play connections),
each from an address of its own, run from a separate process. For each window
it prints the players' moves/s and p99 to the accepted reply, and the
gateway's peak resident memory and open files (read from /proc); then the
medians of the pairs and the ratio of moves/s with and without attackers.

Targets (issue #23): the players keep >= 0.8 x their moves/s and the gateway
stays under 512 MB.

    python -m bench.edge_soak [--rate 200] [--pairs 3] [--seconds 12] [--per-class 2]
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench import pipeline
from bench.common import OUT_DIR, ensure_extra_games, machine, write_json
from bench.pipeline import console
from shared.infra.settings import UNTHROTTLED

TARGET_RATIO = 0.8
TARGET_RSS_MB = 512


def _attack_process(
    port: int, table_id: str, token: str, seconds: float, per_class: int, classes: list[str], out: Any
) -> None:
    """Every class of attack, ``per_class`` clients each, for ``seconds``; what they saw goes to ``out``."""
    from tests.gateway.attacks import ATTACKS, Seen, Target
    from tests.gateway.clients import fresh_address

    target = Target(port=port, table_id=table_id, token=token)
    seen: dict[str, Seen] = {name: Seen() for name in classes}
    lock = threading.Lock()

    def run(name: str) -> None:
        result = ATTACKS[name](target, fresh_address(), seconds)
        with lock:
            seen[name].add(result)

    threads = [threading.Thread(target=run, args=(name,)) for name in classes for _ in range(per_class)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    out.put(
        {
            name: {
                "statuses": dict(s.statuses),
                "codes": dict(s.codes),
                "endings": dict(s.endings),
                "sent_mb": s.sent_bytes / 1e6,
            }
            for name, s in seen.items()
        }
    )


class Footprints:
    """The gateway's peak resident memory and open files while a window runs."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak_rss_mb = 0.0
        self.peak_files = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> Footprints:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    def _sample(self) -> None:
        from tests.gateway.clients import footprint

        while not self._stop.is_set():
            now = footprint(self.pid)
            self.peak_rss_mb = max(self.peak_rss_mb, now.rss_mb)
            self.peak_files = max(self.peak_files, now.open_files)
            time.sleep(0.05)


def _window(cfg: pipeline.RunConfig, stack: Any, attackers: dict[str, Any] | None) -> dict[str, Any]:
    ctx = mp.get_context("spawn")
    proc = None
    out: Any = ctx.Queue()
    if attackers is not None:
        proc = ctx.Process(target=_attack_process, args=(*attackers["args"], out), daemon=True)
        proc.start()
        time.sleep(1.0)  # under way before the players' window opens
    pid = stack.procs["gateway"].pid
    with Footprints(pid) as peak:
        result = pipeline._drive(cfg, stack)
    seen = None
    if proc is not None:
        seen = out.get(timeout=attackers["args"][3] + 60) if attackers is not None else None
        proc.join(timeout=30)
    return {
        "moves_per_s": result["throughput"]["commands_per_s"],
        "p99_ms": result["latency"]["accepted"].get("p99_ms", float("nan")),
        "peak_rss_mb": peak.peak_rss_mb,
        "peak_open_files": peak.peak_files,
        "driver_errors": result["throughput"]["driver_errors"],
        "attackers_saw": seen,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rate", type=float, default=200.0, help="the players' moves/s (0: flat out)")
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=12.0, help="each window's measured time")
    parser.add_argument("--per-class", type=int, default=2, help="hostile clients of each class")
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument(
        "--classes",
        default="all",
        help="comma-separated attack classes (tests/gateway/attacks.py ATTACKS), or all",
    )
    args = parser.parse_args()
    ensure_extra_games()
    from shared.infra.launcher import Stack

    OUT_DIR.mkdir(parents=True, exist_ok=True)
    root = Path(tempfile.mkdtemp(prefix="run-edge-soak-", dir=OUT_DIR))
    cfg = pipeline.RunConfig(
        label="edge-soak",
        game="highcard",
        seats=2,
        games=args.games,
        drivers=1,
        rate=args.rate,
        duration=args.seconds,
        warmup=2.0,
        partitions=4,
        validators=1,
        reducers=1,
        projectors=1,
        fsync="everysec",
        log_level="warning",
        reference_s=0.0,
    )
    from tests.gateway.attacks import ATTACKS

    classes = list(ATTACKS) if args.classes == "all" else args.classes.split(",")
    # The application's budgets are out of the way (the players are one address at a
    # steady rate); the edge's own limits are the defaults a deployment has.
    app_budgets = {k: v for k, v in UNTHROTTLED.items() if "_PER_ADDRESS_" not in k}
    env = {
        "ZIGGURAT_EXTRA_GAMES": os.environ["ZIGGURAT_EXTRA_GAMES"],
        **app_budgets,
        "ZIGGURAT_LOG_LEVEL": "warning",
    }
    stack = Stack(root, partitions=4, env=env)
    windows: list[dict[str, Any]] = []
    started = os.getloadavg()
    try:
        with console.status("starting Valkey and the services"):
            stack.start(timeout=90)
        import httpx

        opened = httpx.post(
            f"{stack.api}/v1/tables", json={"game": "highcard", "seats": 2}, timeout=30
        ).json()
        attack_args = (
            stack.http_port,
            opened["table_id"],
            opened["tokens"][0]["token"],
            args.seconds + 8.0,
            args.per_class,
            classes,
        )
        for pair in range(args.pairs):
            for attacked in (False, True):
                label = "with attackers" if attacked else "without"
                console.rule(f"pair {pair + 1}/{args.pairs}: {label}")
                window = _window(cfg, stack, {"args": attack_args} if attacked else None)
                window["attacked"] = attacked
                windows.append(window)
                console.print(
                    f"  moves/s {window['moves_per_s']:.0f}, p99 {window['p99_ms']:.1f} ms, "
                    f"gateway peak {window['peak_rss_mb']:.0f} MB, {window['peak_open_files']} open files"
                )
    finally:
        stack.stop()
    _report(windows, args, started)


def _report(
    windows: list[dict[str, Any]], args: argparse.Namespace, load_before: tuple[float, float, float]
) -> None:
    calm = [w for w in windows if not w["attacked"]]
    hostile = [w for w in windows if w["attacked"]]
    med = statistics.median
    ratios = [
        h["moves_per_s"] / c["moves_per_s"] for c, h in zip(calm, hostile, strict=True) if c["moves_per_s"]
    ]
    summary = {
        "moves_per_s": {
            "without": med(w["moves_per_s"] for w in calm),
            "with": med(w["moves_per_s"] for w in hostile),
        },
        "p99_ms": {"without": med(w["p99_ms"] for w in calm), "with": med(w["p99_ms"] for w in hostile)},
        "ratio_per_pair": ratios,
        "ratio_median": med(ratios) if ratios else float("nan"),
        "gateway_peak_rss_mb": max(w["peak_rss_mb"] for w in windows),
        "gateway_peak_open_files": max(w["peak_open_files"] for w in windows),
        "load_before": load_before,
        "load_after": os.getloadavg(),
    }
    console.rule("[bold]edge soak")
    console.print(f"  machine: {machine()}")
    console.print(f"  load average before {load_before}, after {summary['load_after']}")
    console.print(
        f"  players' moves/s, median of {len(calm)}: "
        f"{summary['moves_per_s']['without']:.0f} without attackers, "
        f"{summary['moves_per_s']['with']:.0f} with {args.per_class} of each class "
        f"-> {summary['ratio_median']:.2f} x (per pair {', '.join(f'{r:.2f}' for r in ratios)}; "
        f"target >= {TARGET_RATIO})"
    )
    console.print(
        f"  p99 to the accepted reply: {summary['p99_ms']['without']:.1f} ms without, "
        f"{summary['p99_ms']['with']:.1f} ms with"
    )
    console.print(
        f"  gateway peak: {summary['gateway_peak_rss_mb']:.0f} MB resident (target < {TARGET_RSS_MB}), "
        f"{summary['gateway_peak_open_files']} open files"
    )
    last = hostile[-1]["attackers_saw"] if hostile else None
    if last:
        for name, saw in last.items():
            console.print(
                f"  {name:>22}: answers {saw['statuses']}, codes {saw['codes']}, connections {saw['endings']}"
            )
    write_json("edge_soak", {"windows": windows, "summary": summary})


if __name__ == "__main__":
    main()
