"""Self-play benchmark for the card game: prints games/s and actions/s.

Not a test (pytest does not collect it). Run from the repository root:
``.venv/bin/python -m tests.games.tigris_cards.bench_selfplay [games] [bot]``.
It belongs in bench/ once that folder exists; it lives here because this
package owns only its own paths.
"""

from __future__ import annotations

import sys
import time

from shared.games.tigris_cards import GAME
from shared.kernel.playout import play
from tests.games.contract_checks import seeds


def bench(games: int, bot: str) -> str:
    chooser = GAME.bots[bot]
    lines = []
    for seat_count in (2, 3, 4):
        actions = events = 0
        start = time.perf_counter()
        for seed in seeds(games, salt=seat_count):
            p = play(GAME, seat_count, seed, bots=dict.fromkeys(range(seat_count), chooser))
            actions += len(p.steps)
            events += len(p.events)
        took = time.perf_counter() - start
        lines.append(
            f"{seat_count} seats, {bot}: {games / took:7.1f} games/s  {actions / took:8.0f} actions/s  "
            f"{actions / games:6.0f} actions/game  {events / games:6.0f} events/game"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(
        bench(int(sys.argv[1]) if len(sys.argv) > 1 else 50, sys.argv[2] if len(sys.argv) > 2 else "random")
    )
