"""Swiss pairing for 2-, 3- and 4-player tables.

1. Byes first, when the players do not fill the tables: fewest byes so far
   first (nobody gets a second bye while someone has none), then the fewest
   points, then the lowest rank. The chess convention of giving the bye to
   the bottom of the field keeps it from deciding the top places.
2. The rest are ranked by points, with a shuffle breaking ties (round one is
   a random draw).
3. Tables are formed top-down: the best unseated player sits with the
   nearest-ranked players none of them has met; repeats only happen when the
   search shows they cannot be avoided (see :func:`common.group_tables`).
4. Within each table the seat order spreads who moves first over the rounds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from shared.kernel.rng import Rng
from shared.tournaments.pairing.common import History, Pairing, group_tables, order_seats, table_sizes


def choose_byes(ranked: Sequence[str], count: int, points: Mapping[str, int], hist: History) -> list[str]:
    """The ``count`` players who sit out; ``ranked`` is best first."""
    position = {p: i for i, p in enumerate(ranked)}
    fairest = sorted(ranked, key=lambda p: (hist.byes.get(p, 0), points.get(p, 0), -position[p]))
    return fairest[:count]


def rank(players: Sequence[str], points: Mapping[str, int], rng: Rng) -> list[str]:
    """Best first by points; the shuffle decides among equal points."""
    return sorted(rng.shuffled(players), key=lambda p: -points.get(p, 0))


def pair(
    players: Sequence[str],
    points: Mapping[str, int],
    hist: History,
    seats: int,
    min_size: int,
    rng: Rng,
) -> Pairing:
    """Pair one Swiss round of ``players`` (the active ones, any order)."""
    sizes, bye_count = table_sizes(len(players), seats, min_size)
    ranked = rank(players, points, rng)
    byes = choose_byes(ranked, bye_count, points, hist)
    playing = [p for p in ranked if p not in byes]
    tables = group_tables(playing, sizes, hist)
    return Pairing(
        tables=tuple(order_seats(t, hist) for t in tables),
        byes=tuple(p for p in ranked if p in byes),
    )
