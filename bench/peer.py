"""Ziggurat against boardgame.io on the same game, machine, load and duration (``make bench-peer``).

The peer is boardgame.io 0.50.2's own server (one Node process) playing the
fixture game's shape (``bench/peer/game.js``: a deck shuffled by the server,
secret hands stripped by ``playerView``, server-only moves), once with its
in-memory storage and once with its FlatFile storage, loaded by
``bench/peer/load.js`` (boardgame.io clients over socket.io, flat out). Then
``bench.pipeline`` plays the same game with the same options, concurrency and
duration through our whole pipeline (AOF ``everysec``), its bots on play
connections (``--transport ws``, one WebSocket per seat, as boardgame.io's
clients keep one socket.io connection each) or a POST per command
(``--transport http``; ``ws,http`` runs both). All run back to
back in one invocation, so their ratios share the machine's background load,
which is printed with them.

Printed per run: moves/s, p50/p99 from a move to the mover seeing its result,
and CPU per move of the server side (boardgame.io: its one process; ours: every
service plus Valkey). The ratios are ours over each peer. Figures go to
``var/bench/peer.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil

from bench.common import OUT_DIR, fmt, machine, make_console, write_json

PEER = Path(__file__).resolve().parent / "peer"
console = make_console()


def ensure_node_modules() -> None:
    if (PEER / "node_modules" / "boardgame.io").is_dir():
        return
    if not shutil.which("npm"):
        sys.exit("bench-peer needs Node.js and npm (Debian: apt-get install nodejs npm)")
    console.print("installing boardgame.io (npm ci, pinned by bench/peer/package-lock.json)")
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=PEER, check=True)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run_peer(storage: str, args: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    data = Path(tempfile.mkdtemp(prefix="bgio-", dir=OUT_DIR))
    server = subprocess.Popen(
        ["node", "server.js", str(port), storage, str(data)],
        cwd=PEER,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert server.stdout is not None
        if not server.stdout.readline().startswith("ready"):
            raise RuntimeError(f"boardgame.io server ({storage}) did not start")
        proc = psutil.Process(server.pid)
        load = subprocess.Popen(
            [
                "node",
                "load.js",
                str(port),
                str(args.games),
                str(args.seats),
                str(args.warmup),
                str(args.duration),
                args.options,
            ],
            cwd=PEER,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert load.stdout is not None
        with console.status(f"boardgame.io ({storage}): warming up {args.warmup:g} s"):
            line = load.stdout.readline()
        if line.strip() != "measuring":
            raise RuntimeError(f"load client: {line!r}")
        cpu0, busy0 = sum(proc.cpu_times()[:2]), _busy()
        with console.status(f"boardgame.io ({storage}): measuring {args.duration:g} s"):
            line = load.stdout.readline()
        cpu1, busy1 = sum(proc.cpu_times()[:2]), _busy()
        figures = json.loads(load.stdout.readline())
        load.wait(timeout=30)
        moves = figures["moves"] or 1
        wall = figures["seconds"]
        return {
            "label": f"boardgame.io {storage}",
            "moves_per_s": figures["moves_per_s"],
            "p50_ms": figures["p50_ms"],
            "p99_ms": figures["p99_ms"],
            "cpu_ms_per_move": 1e3 * (cpu1 - cpu0) / moves,
            "games_finished": figures["games_finished"],
            "errors": figures["errors"],
            "machine_busy_pct": 100 * (busy1 - busy0) / wall,
        }
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(data, ignore_errors=True)


def _busy() -> float:
    t = psutil.cpu_times()
    return float(t.user + t.nice + t.system + getattr(t, "irq", 0) + getattr(t, "softirq", 0))


def run_ours(args: argparse.Namespace, transport: str, layout: str) -> dict[str, Any]:
    name = f"peer-ziggurat-{transport}-{layout}"
    cmd = [
        sys.executable,
        "-m",
        "bench.pipeline",
        "--game",
        "highcard",
        "--seats",
        str(args.seats),
        "--games",
        str(args.games),
        "--duration",
        str(args.duration),
        "--warmup",
        str(args.warmup),
        "--fsync",
        "everysec",
        "--reference-seconds",
        "0",
        "--options",
        args.options,
        "--name",
        name,
        "--transport",
        transport,
        "--layout",
        layout,
    ]
    subprocess.run(cmd, check=True, stdout=None if args.verbose else subprocess.DEVNULL)
    run = json.loads((OUT_DIR / f"{name}.json").read_text())["runs"][0]
    visible = run["latency"]["visible"]
    return {
        "label": f"ziggurat (everysec, {transport}" + (", stages together)" if layout == "together" else ")"),
        "moves_per_s": run["throughput"]["commands_per_s"],
        "p50_ms": visible.get("p50_ms"),
        "p99_ms": visible.get("p99_ms"),
        # The server side only, as for boardgame.io: not our load driver nor this bench.
        "cpu_ms_per_move": run["server_ms_per_command"],
        "games_finished": run["throughput"]["games_finished"],
        "errors": run["throughput"]["driver_errors"],
        "machine_busy_pct": run["machine_busy_pct"],
    }


def _ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None


#: The game both servers play: 50 cards a hand, so that table openings do not dominate.
GAME_OPTIONS = '{"deck_size": 200, "hand_size": 50}'
#: How our bots play by default: a play connection per seat, as boardgame.io's clients do.
TRANSPORT = "ws"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=64, help="concurrent games (default 64)")
    ap.add_argument("--seats", type=int, default=2)
    ap.add_argument("--duration", type=float, default=20.0, help="measured seconds per run")
    ap.add_argument("--warmup", type=float, default=4.0)
    ap.add_argument(
        "--options",
        default=GAME_OPTIONS,
        help="the game's options, the same for both servers (default: 50 cards a hand, so "
        "table openings do not dominate)",
    )
    ap.add_argument("--verbose", action="store_true", help="show the pipeline benchmark's own output")
    ap.add_argument(
        "--transport",
        default=TRANSPORT,
        help="how our bots play: ws (a play connection per seat; default), http, or ws,http (both)",
    )
    ap.add_argument(
        "--layout",
        default="together",
        help="our stages: together (one process, as `make run` hosts them; default), "
        "separate (a process each), or both",
    )
    args = ap.parse_args(argv)
    layouts = [x.strip() for x in args.layout.split(",") if x.strip()]
    if not layouts or any(x not in ("separate", "together") for x in layouts):
        ap.error("--layout takes separate, together, or both comma-separated")
    transports = [t.strip() for t in args.transport.split(",") if t.strip()]
    if not transports or any(t not in ("http", "ws") for t in transports):
        ap.error("--transport takes ws, http, or both comma-separated")
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    ensure_node_modules()
    peers = [run_peer("memory", args), run_peer("flatfile", args)]
    mine = []
    for transport in transports:
        for layout in layouts:
            with console.status(f"ziggurat ({transport}, {layout}): the whole pipeline on the same game"):
                mine.append(run_ours(args, transport, layout))
    runs = [*peers, *mine]
    console.print(
        f"\n[bold]highcard, {args.games} concurrent games of {args.seats} seats, {args.options}, "
        f"{args.duration:g} s each, load average {os.getloadavg()[0]:.2f}[/bold]"
    )
    for r in runs:
        console.print(
            f"  {r['label']:<26} {fmt(r['moves_per_s'], 0):>7} moves/s   p50 {fmt(r['p50_ms'])} ms"
            f"   p99 {fmt(r['p99_ms'])} ms   CPU {fmt(r['cpu_ms_per_move'], 3)} ms/move"
            f"   machine busy {fmt(r['machine_busy_pct'], 0)} %   errors {r['errors']}"
        )
    ratios = {
        f"{ours['label']} / {peer['label']}": {
            "throughput": _ratio(ours["moves_per_s"], peer["moves_per_s"]),
            "cpu_per_move": _ratio(ours["cpu_ms_per_move"], peer["cpu_ms_per_move"]),
        }
        for ours in mine
        for peer in peers
    }
    for label, ratio in ratios.items():
        console.print(
            f"  {label}: {fmt(ratio['throughput'], 2)} x the moves/s, "
            f"{fmt(ratio['cpu_per_move'], 2)} x the CPU per move"
        )
    path = write_json("peer", {"machine": machine(), "when": time.time(), "runs": runs, "ratios": ratios})
    console.print(f"figures written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
