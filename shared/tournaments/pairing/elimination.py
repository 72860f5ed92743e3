"""Single elimination with k qualifiers per table.

Each round seats the players still in at tables as equal as possible (at
most ``seats`` each), spreading the strongest over the tables in snake
order (1 2 3 3 2 1 ...) so they meet as late as possible. The best ``k`` of
every table go through; a table too small to eliminate anybody (``k`` or
fewer players) is not played and its players go through on a bye; should
every table be that small, the top seeds take byes and the others play full
tables. When everybody left fits at one table, that table is the final.

Who goes through at a table: better place, then higher game score, then
better seed. Qualifiers are seeded for the next round by their place at
their table (byes count as winners), then by seed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from shared.tournaments.commands import Placing
from shared.tournaments.pairing.common import History, Pairing, order_seats


def snake(players: Sequence[str], tables: int) -> list[list[str]]:
    out: list[list[str]] = [[] for _ in range(tables)]
    for i, p in enumerate(players):
        lap, pos = divmod(i, tables)
        out[pos if lap % 2 == 0 else tables - 1 - pos].append(p)
    return out


def pair(players: Sequence[str], seats: int, qualifiers: int, hist: History) -> Pairing:
    """One elimination round of ``players``, strongest first."""
    if len(players) <= 1:
        return Pairing(tables=(), byes=tuple(players))
    count = -(-len(players) // seats)
    groups = snake(players, count)
    if count > 1 and all(len(g) <= qualifiers for g in groups):
        # Equal tables would all be too small to eliminate anyone: play full
        # tables of the lowest seeds instead, and give the top seeds the byes.
        full = len(players) // seats
        cut = len(players) - full * seats
        groups = [[], *snake(players[cut:], full)]
        groups[0] = list(players[:cut])
    tables, byes = [], []
    for group in groups:
        if count > 1 and len(group) <= qualifiers:
            byes.extend(group)
        else:
            tables.append(order_seats(group, hist))
    return Pairing(tables=tuple(tables), byes=tuple(byes))


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
