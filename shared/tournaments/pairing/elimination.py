"""Single elimination with k qualifiers per table.

Each round seats the players still in at tables as equal as possible (at
most ``seats``, at least ``min_table_size`` and always more than ``k``, so
that every table eliminates somebody), spreading the strongest over the
tables in snake order (1 2 3 3 2 1 ...) so they meet as late as possible.
When the field does not fill such tables, the top seeds go through on a bye
(the bracket convention). The best ``k`` of every table go through. When
everybody left fits at one table, that table is the final, however few they
are: pick ``k`` so that the final suits the game.

Who goes through at a table: better place, then higher game score, then
better seed. Qualifiers are seeded for the next round by their place at
their table (byes count as winners), then by seed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from shared.tournaments.commands import Placing
from shared.tournaments.pairing.common import History, Pairing, order_seats, table_sizes


def snake(players: Sequence[str], tables: int) -> list[list[str]]:
    out: list[list[str]] = [[] for _ in range(tables)]
    for i, p in enumerate(players):
        lap, pos = divmod(i, tables)
        out[pos if lap % 2 == 0 else tables - 1 - pos].append(p)
    return out


def pair(players: Sequence[str], seats: int, min_size: int, qualifiers: int, hist: History) -> Pairing:
    """One elimination round of ``players``, strongest first."""
    if len(players) <= seats:
        return Pairing(tables=(order_seats(players, hist),) if len(players) > 1 else (), byes=())
    # A table of k or fewer would eliminate nobody, so it is never formed.
    sizes, bye_count = table_sizes(len(players), seats, max(min_size, qualifiers + 1))
    byes, rest = players[:bye_count], players[bye_count:]
    tables = tuple(order_seats(group, hist) for group in snake(rest, len(sizes)))
    return Pairing(tables=tables, byes=tuple(byes))


def qualified(
    results: Sequence[tuple[Placing, ...]], byes: Sequence[str], qualifiers: int, seeds: Mapping[str, int]
) -> list[str]:
    """Who goes through from a finished round, seeded for the next one."""
    through: list[tuple[int, int, str]] = [(1, seeds[p], p) for p in byes]
    for placings in results:
        best = sorted(placings, key=lambda pl: (pl.place, -pl.score, seeds[pl.player_id]))
        through.extend((pl.place, seeds[pl.player_id], pl.player_id) for pl in best[:qualifiers])
    return [p for _, _, p in sorted(through)]


def is_final(pairing: Pairing) -> bool:
    return len(pairing.tables) == 1 and not pairing.byes
