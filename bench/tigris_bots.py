"""Tigris bots and engine speed, on one core.

1. Random self-play throughput: games/s and actions/s (every action includes
   the legal-move generation the random bot needs), median of several runs.
2. Greedy against random in two-player games (seats alternate), with a live
   progress count and the greedy bot's win rate (a shared first place is not a win).

    .venv/bin/python bench/tigris_bots.py [--games 200] [--runs 5] [--speed-games 20]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shared.games.tigris import GAME
from shared.kernel.playout import play


def seed(i: int, salt: int) -> bytes:
    return (i + salt * 1_000_003).to_bytes(8, "big") * 4


def speed_run(games: int, seats: int, salt: int) -> tuple[float, float, float]:
    """Games/s and actions/s by CPU time (one core, immune to a busy machine), and
    games/s by wall-clock time."""
    start, cpu = time.perf_counter(), time.process_time()
    actions = 0
    for i in range(games):
        actions += len(play(GAME, seats, seed(i, salt)).steps)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - start
    return games / cpu, actions / cpu, games / wall


def speed(runs: int, games: int) -> None:
    for seats in (2, 4):
        results = [speed_run(games, seats, salt=100 + r) for r in range(runs)]
        gps = statistics.median(r[0] for r in results)
        aps = statistics.median(r[1] for r in results)
        wall = statistics.median(r[2] for r in results)
        print(
            f"random self-play, {seats} seats: {gps:.2f} games/s, {aps:,.0f} actions/s of CPU "
            f"({wall:.2f} games/s wall clock; median of {runs} runs of {games} games)"
        )


def match(games: int) -> None:
    wins = ties = 0
    start, cpu = time.perf_counter(), time.process_time()
    for i in range(games):
        greedy = i % 2
        bots = {greedy: GAME.bots["greedy"], 1 - greedy: GAME.bots["random"]}
        result = GAME.result(play(GAME, 2, seed(i, 7), bots=bots).state)
        assert result is not None
        first = [s.seat for s in result.standings if s.place == 1]
        wins += first == [greedy]
        ties += len(first) > 1
        rate = time.perf_counter() - start
        print(
            f"\rgreedy vs random: {i + 1}/{games} games, {wins} won ({(i + 1) / rate:.2f} games/s)",
            end="",
            flush=True,
        )
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(
        f"\ngreedy win rate: {wins / games:.1%} ({wins}/{games}, {ties} shared first places), "
        f"{games / cpu:.2f} games/s of CPU, {games / elapsed:.2f} games/s wall clock"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="greedy-vs-random games")
    parser.add_argument("--runs", type=int, default=5, help="speed runs (the median is shown)")
    parser.add_argument("--speed-games", type=int, default=20, help="games per speed run")
    args = parser.parse_args()
    speed(args.runs, args.speed_games)
    match(args.games)


if __name__ == "__main__":
    main()
