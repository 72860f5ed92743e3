"""Swiss pairing properties over random fields, histories and table sizes."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.kernel.rng import Rng
from shared.tournaments.pairing import common, swiss
from shared.tournaments.pairing.common import (
    History,
    Pairing,
    group_tables,
    history,
    order_seats,
    repeats,
    table_sizes,
)


def _partition_free(players: list[str], sizes: list[int], hist: History) -> bool:
    """Brute force: can ``players`` fill ``sizes`` with no two who met before?"""
    if not players:
        return True
    first, rest = players[0], players[1:]
    for size in set(sizes):
        for mates in itertools.combinations(rest, size - 1):
            table = (first, *mates)
            if repeats(table, hist):
                continue
            left = [p for p in rest if p not in mates]
            remaining = list(sizes)
            remaining.remove(size)
            if _partition_free(left, remaining, hist):
                return True
    return False


def _check_round(players: Sequence[str], pairing: Pairing, hist: History, seats: int, min_size: int) -> None:
    seated = [p for t in pairing.tables for p in t] + list(pairing.byes)
    assert sorted(seated) == sorted(players), "every player seated once or given a bye"
    sizes = [len(t) for t in pairing.tables]
    expected, bye_count = table_sizes(len(players), seats, min_size)
    assert sorted(sizes, reverse=True) == list(expected)
    assert all(min_size <= s <= seats for s in sizes)
    assert not sizes or max(sizes) - min(sizes) <= 1, "tables as equal as possible"
    assert len(pairing.byes) == bye_count
    playing = [p for t in pairing.tables for p in t]
    if pairing.byes and playing:
        assert max(hist.byes.get(p, 0) for p in pairing.byes) <= min(hist.byes.get(p, 0) for p in playing)
    for table in pairing.tables:
        assert _seat_cost(table, hist) == min(_seat_cost(p, hist) for p in itertools.permutations(table))


def _seat_cost(table: Sequence[str], hist: History) -> int:
    """How often the players already had the seats they get (spread means low)."""
    return sum(hist.seat_count(p, i) for i, p in enumerate(table))


fields = st.tuples(
    st.integers(min_value=2, max_value=4),  # seats per table
    st.integers(min_value=0, max_value=2),  # how many seats short a table may be
    st.integers(min_value=2, max_value=13),  # players
    st.integers(min_value=1, max_value=6),  # rounds
    st.binary(min_size=32, max_size=32),
)


@settings(max_examples=60, deadline=None)
@given(fields)
def test_swiss_rounds_keep_every_promise(case: tuple[int, int, int, int, bytes]) -> None:
    seats, short, n, rounds, seed = case
    min_size = max(2, seats - short)
    players = [f"p{i}" for i in range(n)]
    if n < min_size:
        return
    results = Rng(seed, 10_000)
    points = dict.fromkeys(players, 0)
    past: list[Pairing] = []
    for r in range(rounds):
        hist = history(past)
        pairing = swiss.pair(players, points, hist, seats, min_size, Rng(seed, r))
        _check_round(players, pairing, hist, seats, min_size)
        playing = [p for t in pairing.tables for p in t]
        if len(playing) <= 9 and any(repeats(t, hist) for t in pairing.tables):
            sizes = [len(t) for t in pairing.tables]
            assert not _partition_free(playing, sizes, hist), "a repeat was avoidable"
        for table in pairing.tables:
            for p in table:
                points[p] += results.below(seats)
        past.append(pairing)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=1, max_value=6).map(lambda k: 2 * k + 1), st.binary(min_size=32, max_size=32))
def test_byes_rotate_before_anyone_gets_a_second(n: int, seed: bytes) -> None:
    players = [f"p{i}" for i in range(n)]
    points = {p: i for i, p in enumerate(players)}
    past: list[Pairing] = []
    for r in range(n):
        past.append(swiss.pair(players, points, history(past), 2, 2, Rng(seed, r)))
    assert sorted(b for rnd in past for b in rnd.byes) == sorted(players), "n odd rounds: one bye each"


def test_tables_follow_the_score_order_when_nobody_has_met() -> None:
    players = [f"p{i}" for i in range(8)]
    points = {p: 10 - i for i, p in enumerate(players)}
    pairing = swiss.pair(players, points, History(), 4, 4, Rng(bytes(32), 0))
    assert [sorted(t) for t in pairing.tables] == [players[:4], players[4:]]


def test_the_leaders_dodge_each_other_after_meeting() -> None:
    players = ["a", "b", "c", "d"]
    points = {"a": 3, "b": 3, "c": 0, "d": 0}
    past = [Pairing(tables=(("a", "b"), ("c", "d")))]
    pairing = swiss.pair(players, points, history(past), 2, 2, Rng(bytes(32), 1))
    assert {frozenset(t) for t in pairing.tables} == {frozenset("ac"), frozenset("bd")} or {
        frozenset(t) for t in pairing.tables
    } == {frozenset("ad"), frozenset("bc")}


def test_who_moved_first_moves_second_next() -> None:
    past = [Pairing(tables=(("a", "b"),)), Pairing(tables=(("a", "c"),))]
    assert order_seats(["a", "b"], history(past)) == ("b", "a")
    assert order_seats(["a", "c"], history(past)) == ("c", "a")


def test_bye_goes_to_the_bottom_of_the_field() -> None:
    players = ["a", "b", "c"]
    points = {"a": 2, "b": 1, "c": 0}
    pairing = swiss.pair(players, points, History(), 2, 2, Rng(bytes(32), 0))
    assert pairing.byes == ("c",)


def test_table_sizes() -> None:
    assert table_sizes(16, 4, 4) == ((4, 4, 4, 4), 0)
    assert table_sizes(7, 4, 4) == ((4,), 3)
    assert table_sizes(7, 4, 3) == ((4, 3), 0)
    assert table_sizes(5, 4, 3) == ((4,), 1)
    assert table_sizes(5, 2, 2) == ((2, 2), 1)
    assert table_sizes(1, 2, 2) == ((), 1)


def test_seat_order_spreads_over_a_long_swiss() -> None:
    # Not a theorem (four players who all moved first may meet), so this is a
    # regression figure over fixed seeds: after 2·s rounds nobody's count in
    # any seat differs from their count in another by more than two.
    for seats in (2, 3, 4):
        for trial in range(10):
            players = [f"p{i}" for i in range(16)]
            points = dict.fromkeys(players, 0)
            scores, past = Rng(bytes(32), trial), []
            for r in range(2 * seats):
                pairing = swiss.pair(
                    players, points, history(past), seats, seats, Rng(bytes([trial]) * 32, r)
                )
                for table in pairing.tables:
                    for p in table:
                        points[p] += scores.below(seats)
                past.append(pairing)
            for counts in history(past).seats.values():
                assert max(counts[:seats]) - min(counts[:seats]) <= 2


def test_large_fields_pair_without_repeats() -> None:
    players = [f"p{i:03d}" for i in range(64)]
    points = dict.fromkeys(players, 0)
    scores, past = Rng(bytes(32), 77), []
    for r in range(6):
        pairing = swiss.pair(players, points, history(past), 4, 4, Rng(bytes(32), r))
        _check_round(players, pairing, history(past), 4, 4)
        for table in pairing.tables:
            for p in table:
                points[p] += scores.below(4)
        past.append(pairing)
    assert set(history(past).met.values()) == {1}


@settings(max_examples=40, deadline=None)
@given(
    st.integers(min_value=2, max_value=4),
    st.integers(min_value=2, max_value=8),
    st.binary(min_size=32, max_size=32),
)
def test_repair_fallback_is_a_valid_split_no_worse_than_greedy(seats: int, tables: int, seed: bytes) -> None:
    players = [f"p{i:02d}" for i in range(seats * tables)]
    rng = Rng(seed, 0)
    past = [Pairing(tables=tuple(tuple(t) for t in _chunks(rng.shuffled(players), seats))) for _ in range(3)]
    hist = history(past)
    sizes = [seats] * tables
    repaired = group_tables(players, sizes, hist, budget=0)  # no search: straight to repair
    assert sorted(p for t in repaired for p in t) == players
    assert sorted(map(len, repaired)) == sizes
    greedy = common._greedy(players, sizes, hist)
    assert sum(repeats(t, hist) for t in repaired) <= sum(repeats(t, hist) for t in greedy)
    for i, table in enumerate(repaired):  # a local optimum: no single swap helps
        for other in repaired[i + 1 :]:
            for a, b in itertools.product(range(len(table)), range(len(other))):
                assert common._swap_gain(table, other, a, b, hist) <= 0


def _chunks(items: list[str], size: int) -> list[list[str]]:
    return [items[i : i + size] for i in range(0, len(items), size)]
