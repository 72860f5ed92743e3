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


def circle(players: Sequence[str]) -> list[list[tuple[str, ...]]]:
    """Circle-method rounds of tables in seat order; a 1-tuple is a bye.

    Everyone but the hub rotates one place per round. A rotating player is
    first when on the upper half of the circle and second on the lower half,
    which it visits equally often; the hub alternates. So every player moves
    first in half their games, give or take one. With an odd count the hub is
    the phantom, so each bye replaces exactly the game that would break that
    balance.
    """
    ring: list[str | None] = [None, *players] if len(players) % 2 else list(players)
    n = len(ring)
    rounds: list[list[tuple[str, ...]]] = []
    for r in range(n - 1):
        games: list[tuple[str, ...]] = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if i == 0 and r % 2:
                a, b = b, a
            games.append(tuple(p for p in (a, b) if p is not None))
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
            byes = tuple(g[0] for g in games if len(g) == 1)
            out.append(Pairing(tables=tuple(g for g in games if len(g) == 2), byes=byes))
        return tuple(out[:rounds] if rounds else out)
    limit = rounds or len(players) * (len(players) - 1) // 2
    while len(out) < limit:
        hist = history(out)
        if not rounds and _all_met(players, hist):
            break
        sizes, bye_count = table_sizes(len(players), seats, min_size)
        order = sorted(rng.shuffled(players), key=lambda p: hist.byes.get(p, 0))
        sitting_out = order[:bye_count]
        tables = group_tables([p for p in order if p not in sitting_out], sizes, hist)
        out.append(_seated(out, tables, sitting_out))
    return tuple(out)
