"""Round robin: every player meets every other, as evenly as possible.

The whole schedule is fixed when the tournament starts, so everyone knows
the number of rounds; a player who withdraws later just leaves their seat
empty in the rounds still to come.

- 2-player tables: the circle method. One player stays put while the others
  rotate one place per round; with an odd count a phantom joins and whoever
  meets it has a bye. n-1 rounds for even n, n for odd, every pair exactly
  once, every player at most one bye.
- 3- and 4-player tables: no simple construction covers every count, so each
  round is the table split with the fewest repeated meetings found (the same
  search as Swiss, with every player level), repeated until every pair has
  met at least once (or for ``rounds`` rounds when the organiser caps it).
"""

from __future__ import annotations

from collections.abc import Sequence

from shared.kernel.rng import Rng
from shared.tournaments.pairing.common import (
    History,
    Pairing,
    group_tables,
    history,
    order_seats,
    pair,
    table_sizes,
)


def circle(players: Sequence[str]) -> list[list[tuple[str, str] | tuple[str]]]:
    """Circle-method rounds of pairs; a 1-tuple is a bye."""
    ring: list[str | None] = list(players)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    rounds: list[list[tuple[str, str] | tuple[str]]] = []
    for _ in range(n - 1):
        games: list[tuple[str, str] | tuple[str]] = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is not None and b is not None:
                games.append((a, b))
            elif a is not None or b is not None:
                games.append((a or b,))  # type: ignore[arg-type]
        rounds.append(games)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def _seated(rounds: list[Pairing], tables: Sequence[Sequence[str]], byes: Sequence[str]) -> Pairing:
    hist = history(rounds)
    return Pairing(tables=tuple(order_seats(t, hist) for t in tables), byes=tuple(byes))


def _all_met(players: Sequence[str], hist: History) -> bool:
    return all(pair(a, b) in hist.met for i, a in enumerate(players) for b in players[i + 1 :])


def schedule(
    players: Sequence[str], seats: int, min_size: int, rng: Rng, rounds: int = 0
) -> tuple[Pairing, ...]:
    """Every round of a round robin of ``players`` (seed order)."""
    out: list[Pairing] = []
    if seats == 2:
        for games in circle(players):
            out.append(_seated(out, [g for g in games if len(g) == 2], [g[0] for g in games if len(g) == 1]))
        return tuple(out[:rounds] if rounds else out)
    limit = rounds or len(players) * (len(players) - 1) // 2
    while len(out) < limit:
        hist = history(out)
        if not rounds and _all_met(players, hist):
            break
        sizes, bye_count = table_sizes(len(players), seats, min_size)
        order = sorted(rng.shuffled(players), key=lambda p: hist.byes.get(p, 0))
        byes = order[:bye_count]
        tables = group_tables([p for p in order if p not in byes], sizes, hist)
        out.append(_seated(out, tables, byes))
    return tuple(out)
