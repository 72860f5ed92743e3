"""Self-play benchmark: prints games/s and actions/s per player count.

Run: ``.venv/bin/python -m tests.games.conan.bench_conan [games]``. It lives
here until the project's bench/ folder takes it over.
"""

from __future__ import annotations

import sys
import time

from shared.games.conan import GAME
from shared.kernel.playout import play
from tests.games.contract_checks import seeds


def bench(seats: int, games: int, bot: str = "random") -> tuple[float, float]:
    bots = {s: GAME.bots[bot] for s in range(seats)}
    start = time.perf_counter()
    actions = 0
    for seed in seeds(games, salt=100 + seats):
        p = play(GAME, seats, seed, bots=bots)
        assert GAME.is_over(p.state)
        actions += len(p.steps)
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / elapsed


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    for bot in ("random", "heuristic"):
        for seats in (2, 3, 4):
            gps, aps = bench(seats, games, bot)
            print(f"conan {seats}p {bot:9s}: {gps:7.2f} games/s  {aps:9.0f} actions/s")


if __name__ == "__main__":
    main()
