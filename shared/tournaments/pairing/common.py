"""What every pairing method shares: history, table sizes, seat order, search."""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from shared.kernel.messages import Record

#: Search steps for a round without repeats before falling back to repair.
#: Exhaustive for a dozen players; bounded for hundreds.
SEARCH_BUDGET = 20_000


class Pairing(Record, frozen=True):
    #: Tables in board order; each lists players in seat order.
    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()


@dataclass(frozen=True)
class History:
    """What earlier rounds tell the pairing."""

    #: Sorted pair -> how often the two shared a table.
    met: Mapping[tuple[str, str], int] = field(default_factory=dict)
    #: Player -> how often they sat in each seat position (0 moves first).
    seats: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    byes: Mapping[str, int] = field(default_factory=dict)

    def times_met(self, a: str, b: str) -> int:
        return self.met.get(pair(a, b), 0)

    def seat_count(self, player: str, position: int) -> int:
        counts = self.seats.get(player, ())
        return counts[position] if position < len(counts) else 0


def pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def history(rounds: Sequence[Pairing], width: int = 4) -> History:
    """Fold earlier rounds (as pairings) into a :class:`History`."""
    met: dict[tuple[str, str], int] = defaultdict(int)
    seats: dict[str, list[int]] = defaultdict(lambda: [0] * width)
    byes: dict[str, int] = defaultdict(int)
    for rnd in rounds:
        for table in rnd.tables:
            for i, p in enumerate(table):
                seats[p][i] += 1
            for a, b in itertools.combinations(table, 2):
                met[pair(a, b)] += 1
        for p in rnd.byes:
            byes[p] += 1
    return History(met=dict(met), seats={p: tuple(c) for p, c in seats.items()}, byes=dict(byes))


def table_sizes(players: int, seats: int, min_size: int) -> tuple[tuple[int, ...], int]:
    """(table sizes, largest first, as equal as possible; number of byes).

    Uses as many tables as the players fill to at least ``min_size`` (but no
    more than needed at ``seats`` each), so byes only happen when short
    tables cannot absorb the remainder.
    """
    tables = min(-(-players // seats), players // min_size)
    if tables <= 0:
        return (), players
    seated = min(players, tables * seats)
    base, extra = divmod(seated, tables)
    return tuple(base + 1 if i < extra else base for i in range(tables)), players - seated


def order_seats(players: Sequence[str], hist: History) -> tuple[str, ...]:
    """Seat order for one table that spreads who moves first over the rounds.

    Minimises how often each player has already had the seat they get (then
    the squares of those counts, so nobody takes the brunt); among equals the
    order given (rank order) wins, so the result is deterministic.
    """

    def cost(perm: tuple[str, ...]) -> tuple[int, int]:
        counts = [hist.seat_count(p, i) for i, p in enumerate(perm)]
        return sum(counts), sum(c * c for c in counts)

    return min(itertools.permutations(players), key=cost)


def repeats(group: Sequence[str], hist: History) -> int:
    return sum(hist.times_met(a, b) for a, b in itertools.combinations(group, 2))


class _Budget:
    def __init__(self, steps: int) -> None:
        self.left = steps

    def spend(self) -> bool:
        self.left -= 1
        return self.left >= 0


def _mates(
    pool: Sequence[str],
    start: int,
    need: int,
    table: list[str],
    cost: int,
    allowed: int,
    hist: History,
    budget: _Budget,
) -> Iterator[tuple[list[str], int]]:
    """Table-mates from ``pool`` in rank order (nearest first), within ``allowed`` repeats."""
    if need == 0:
        yield list(table), cost
        return
    for i in range(start, len(pool) - need + 1):
        if not budget.spend():
            return
        extra = sum(hist.times_met(pool[i], p) for p in table)
        if cost + extra > allowed:
            continue
        table.append(pool[i])
        yield from _mates(pool, i + 1, need - 1, table, cost + extra, allowed, hist, budget)
        table.pop()


def _fill(
    ranked: list[str], sizes: list[int], allowed: int, hist: History, budget: _Budget
) -> list[list[str]] | None:
    if not ranked:
        return []
    first, rest = ranked[0], ranked[1:]
    for size in sorted(set(sizes), reverse=True):
        for mates, cost in _mates(rest, 0, size - 1, [first], 0, allowed, hist, budget):
            left = [p for p in rest if p not in mates]
            sizes_left = list(sizes)
            sizes_left.remove(size)
            found = _fill(left, sizes_left, allowed - cost, hist, budget)
            if found is not None:
                return [mates, *found]
            if budget.left < 0:
                return None
    return None


def _greedy(ranked: Sequence[str], sizes: Sequence[int], hist: History) -> list[list[str]]:
    """Top-down, each seat going to the nearest-ranked player adding the fewest repeats."""
    left = list(ranked)
    tables: list[list[str]] = []
    for size in sorted(sizes, reverse=True):
        table = [left.pop(0)]
        while len(table) < size:
            best = min(range(len(left)), key=lambda i: (sum(hist.times_met(left[i], p) for p in table), i))
            table.append(left.pop(best))
        tables.append(table)
    return tables


def _swap_gain(ti: list[str], tj: list[str], a: int, b: int, hist: History) -> int:
    new_i = [*ti[:a], tj[b], *ti[a + 1 :]]
    new_j = [*tj[:b], ti[a], *tj[b + 1 :]]
    return repeats(ti, hist) + repeats(tj, hist) - repeats(new_i, hist) - repeats(new_j, hist)


def _improve_once(tables: list[list[str]], hist: History) -> bool:
    """Make the first swap (nearest tables first) that lowers the repeats."""
    for i, ti in enumerate(tables):
        if not repeats(ti, hist):
            continue
        for j in sorted(range(len(tables)), key=lambda j: (abs(j - i), j)):
            tj = tables[j]
            for a, b in itertools.product(range(len(ti)), range(len(tj))):
                if j != i and _swap_gain(ti, tj, a, b, hist) > 0:
                    ti[a], tj[b] = tj[b], ti[a]
                    return True
    return False


def _repair(tables: list[list[str]], ranked: Sequence[str], hist: History) -> list[list[str]]:
    # Each swap strictly lowers the repeat count, so this ends.
    while _improve_once(tables, hist):
        pass
    position = {p: i for i, p in enumerate(ranked)}
    return [sorted(t, key=position.__getitem__) for t in tables]


def group_tables(
    ranked: Sequence[str], sizes: Sequence[int], hist: History, budget: int = SEARCH_BUDGET
) -> list[list[str]]:
    """Split ``ranked`` (best first) into tables of ``sizes`` with few repeats.

    Top-down: the best unseated player takes the nearest-ranked players none
    of the table has met. The search backtracks until it finds a round with
    no repeat at all, which it always does when one exists and the field is
    small enough to search within ``budget`` (a dozen players or so; large
    fields usually find one at once in early rounds). Past the budget, a
    greedy split is repaired by swapping players between nearby tables while
    that lowers the number of repeats: not provably minimal, but fast and
    close to the top-down order.
    """
    found = _fill(list(ranked), list(sizes), 0, hist, _Budget(budget))
    if found is not None:
        return found
    return _repair(_greedy(ranked, sizes, hist), ranked, hist)
