"""Round robin: completeness of the circle method, coverage for bigger tables."""

from __future__ import annotations

import itertools
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.kernel.rng import Rng
from shared.tournaments.pairing import round_robin
from shared.tournaments.pairing.common import history, pair


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=2, max_value=17))
def test_circle_method_meets_everyone_exactly_once(n: int) -> None:
    players = [f"p{i:02d}" for i in range(n)]
    rounds = round_robin.schedule(players, 2, 2, Rng(bytes(32), 0))
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = Counter(pair(*t) for r in rounds for t in r.tables)
    assert set(met) == {pair(a, b) for a, b in itertools.combinations(players, 2)}
    assert set(met.values()) == {1}
    for r in rounds:
        seated = [p for t in r.tables for p in t] + list(r.byes)
        assert sorted(seated) == players
        assert len(r.byes) == n % 2
    assert Counter(b for r in rounds for b in r.byes) == (Counter(players) if n % 2 else Counter())
    for counts in history(list(rounds)).seats.values():
        assert abs(counts[0] - counts[1]) <= 1, "who moves first alternates"


@settings(max_examples=25, deadline=None)
@given(
    st.integers(min_value=3, max_value=4),
    st.integers(min_value=3, max_value=12),
    st.binary(min_size=32, max_size=32),
)
def test_bigger_tables_cover_every_pair(seats: int, n: int, seed: bytes) -> None:
    players = [f"p{i:02d}" for i in range(n)]
    min_size = max(2, seats - 1)
    rounds = round_robin.schedule(players, seats, min_size, Rng(seed, 0))
    met = Counter(pair(a, b) for r in rounds for t in r.tables for a, b in itertools.combinations(t, 2))
    assert set(met) == {pair(a, b) for a, b in itertools.combinations(players, 2)}
    for r in rounds:
        assert sorted([p for t in r.tables for p in t] + list(r.byes)) == players
        assert all(min_size <= len(t) <= seats for t in r.tables)
    byes = Counter(b for r in rounds for b in r.byes)
    assert not byes or max(byes.values()) - min(byes.get(p, 0) for p in players) <= 1
    # Lower bound: each round a player meets at most seats-1 new opponents.
    assert len(rounds) >= -(-(n - 1) // (seats - 1))


def test_perfect_schedule_for_nine_players_at_tables_of_three() -> None:
    players = [f"p{i}" for i in range(9)]
    rounds = round_robin.schedule(players, 3, 3, Rng(bytes(32), 0))
    met = Counter(pair(a, b) for r in rounds for t in r.tables for a, b in itertools.combinations(t, 2))
    assert len(rounds) == 4 and set(met.values()) == {1}, "a resolvable design exists and is found"


def test_rounds_cap_the_schedule() -> None:
    players = [f"p{i}" for i in range(8)]
    assert len(round_robin.schedule(players, 2, 2, Rng(bytes(32), 0), rounds=3)) == 3
    assert len(round_robin.schedule(players, 4, 4, Rng(bytes(32), 0), rounds=2)) == 2
