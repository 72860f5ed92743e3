"""Single elimination with k qualifiers per table."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from shared.kernel.rng import Rng
from shared.tournaments.commands import Placing
from shared.tournaments.pairing import elimination
from shared.tournaments.pairing.common import History


def _finish(table: tuple[str, ...], rng: Rng) -> tuple[Placing, ...]:
    order = rng.shuffled(range(len(table)))
    return tuple(Placing(seat=i, player_id=p, place=order[i] + 1, score=0) for i, p in enumerate(table))


@settings(max_examples=80, deadline=None)
@given(
    st.integers(min_value=2, max_value=4).flatmap(
        lambda s: st.tuples(st.just(s), st.integers(min_value=1, max_value=s - 1))
    ),
    st.integers(min_value=2, max_value=40),
    st.binary(min_size=32, max_size=32),
)
@example((4, 3), 5, bytes(32))
def test_k_per_table_advance_until_a_final(sk: tuple[int, int], n: int, seed: bytes) -> None:
    seats, k = sk
    min_size = seats
    players = [f"p{i:02d}" for i in range(n)]
    seeds = {p: i for i, p in enumerate(players)}
    rng = Rng(seed, 0)
    field = list(players)
    for _ in range(n):
        pairing = elimination.pair(field, seats, min_size, k, History())
        seated = [p for t in pairing.tables for p in t]
        assert sorted(seated + list(pairing.byes)) == sorted(field)
        assert pairing.tables, "every round plays at least one table"
        assert all(2 <= len(t) <= seats for t in pairing.tables)
        if elimination.is_final(pairing):
            assert len(field) <= seats
            return
        assert all(max(min_size, k + 1) <= len(t) for t in pairing.tables), "each table eliminates"
        sizes = [len(t) for t in pairing.tables]
        assert max(sizes) - min(sizes) <= 1
        assert list(pairing.byes) == field[: len(pairing.byes)], "byes go to the top seeds"
        results = [_finish(t, rng) for t in pairing.tables]
        through = elimination.qualified(results, pairing.byes, k, seeds)
        winners = {pl.player_id for r in results for pl in r if pl.place <= k}
        assert set(through) == winners | set(pairing.byes)
        assert len(through) == k * len(pairing.tables) + len(pairing.byes)
        field = through
    raise AssertionError("no final reached")


def test_snake_spreads_the_top_seeds() -> None:
    players = [f"s{i}" for i in range(1, 9)]
    pairing = elimination.pair(players, 4, 4, 2, History())
    assert {frozenset(t) for t in pairing.tables} == {
        frozenset({"s1", "s4", "s5", "s8"}),
        frozenset({"s2", "s3", "s6", "s7"}),
    }


def test_top_seeds_get_the_byes_when_tables_would_be_too_small() -> None:
    players = ["a", "b", "c", "d", "e"]
    pairing = elimination.pair(players, 4, 2, 3, History())
    assert pairing.byes == ("a",)
    assert sorted(pairing.tables[0]) == ["b", "c", "d", "e"]
    short = elimination.pair(players, 4, 2, 1, History())
    assert not short.byes and sorted(map(len, short.tables)) == [2, 3]


def test_ties_at_the_cut_go_to_score_then_seed() -> None:
    placings = (
        Placing(seat=0, player_id="x", place=1, score=5),
        Placing(seat=1, player_id="y", place=2, score=3),
        Placing(seat=2, player_id="z", place=2, score=4),
    )
    assert elimination.qualified([placings], (), 2, {"x": 3, "y": 1, "z": 2}) == ["x", "z"]
