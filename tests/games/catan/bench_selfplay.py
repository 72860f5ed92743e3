"""Benchmark (not a test): actions/s and games/s of random 4-seat games.

Run: ``.venv/bin/python -m tests.games.catan.bench_selfplay [games]``. Prints
Cities & Knights and, beside it, the base game alone.
"""

from __future__ import annotations

import sys
import time

from shared.games.catan import CATAN, CATAN_CK
from shared.kernel.playout import play
from tests.games.contract_checks import seeds


def bench(game, games: int) -> str:
    start = time.perf_counter()
    actions = 0
    for seed in seeds(games, salt=99):
        actions += len(play(game, 4, seed).steps)
    elapsed = time.perf_counter() - start
    return f"{game.key:9s} {games} games  {games / elapsed:6.2f} games/s  {actions / elapsed:8.0f} actions/s"


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print(bench(CATAN_CK, n))
    print(bench(CATAN, n))
