"""Whole tournaments through decide/evolve with random results."""

from __future__ import annotations

import itertools
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.kernel.rng import Rng
from shared.tournaments.commands import Finish, OpenTable, PairRound, RecordResult, Withdraw
from shared.tournaments.evolve import fold
from shared.tournaments.pairing.common import pair
from shared.tournaments.rounds import has_next_round, is_complete
from shared.tournaments.standings import standings
from shared.tournaments.state import current_round
from shared.tournaments.views import pairings_view, standings_view
from tests.tournaments.helpers import Driver, encode, make, play_round, random_placings


def play_redelivered(driver: Driver, rng: Rng) -> None:
    """A round where every table's result arrives twice, as after a redelivery."""
    driver.send(PairRound())
    rnd = current_round(driver.now)
    assert rnd is not None
    for table in rnd.tables:
        game_id = f"g{rnd.number}-{table.table}"
        driver.send(OpenTable(round=rnd.number, table=table.table, game_id=game_id))
        record = RecordResult(game_id=game_id, placings=random_placings(table.players, rng))
        assert driver.send(record)
        assert driver.send(record) == []


@settings(max_examples=10, deadline=None)
@given(st.binary(min_size=32, max_size=32))
def test_sixteen_players_three_swiss_rounds_at_four_player_tables(seed: bytes) -> None:
    driver = make(16, seed=seed, format="swiss", seats_per_table=4, rounds=3)
    rng = Rng(seed, 1 << 40)
    for number in (1, 2, 3):
        play_redelivered(driver, rng)
        rnd = driver.now.rounds[-1]
        assert rnd.number == number and rnd.complete and not rnd.byes
        assert [len(t.players) for t in rnd.tables] == [4, 4, 4, 4]
        assert sorted(p for t in rnd.tables for p in t.players) == sorted(driver.now.entrants)
    met = Counter(
        pair(a, b)
        for r in driver.now.rounds
        for t in r.tables
        for a, b in itertools.combinations(t.players, 2)
    )
    assert set(met.values()) == {1}, "nobody meets anybody twice in three rounds of sixteen"
    assert is_complete(driver.now) and not has_next_round(driver.now)
    driver.send(Finish(at_ms=99))
    replayed = fold(list(driver.events))
    assert encode(replayed) == encode(driver.now)
    assert encode(standings_view(replayed)) == encode(standings_view(driver.now))
    assert replayed.ranking == tuple(line.player_id for line in standings(replayed))
    lines = standings(replayed)
    assert sum(line.points for line in lines) == 3 * 4 * sum((3, 2, 1, 0)) - _shared_place_bonus(replayed)
    assert all(line.games == 3 for line in lines)
    view = pairings_view(replayed)
    assert [len(r.tables) for r in view.rounds] == [4, 4, 4]


def _shared_place_bonus(state) -> int:  # type: ignore[no-untyped-def]
    """Points handed out beyond 3+2+1+0 per table because places were shared."""
    extra = 0
    for rnd in state.rounds:
        for table in rnd.tables:
            got = sum((3, 2, 1, 0)[p.place - 1] for p in table.placings)
            extra += 6 - got
    return extra


@settings(max_examples=10, deadline=None)
@given(st.integers(min_value=4, max_value=9), st.binary(min_size=32, max_size=32))
def test_round_robin_with_a_withdrawal_runs_to_its_end(n: int, seed: bytes) -> None:
    driver = make(n, seed=seed, format="round_robin", seats_per_table=2)
    rng = Rng(seed, 1 << 40)
    planned = driver.now.planned_rounds
    assert planned == (n - 1 if n % 2 == 0 else n)
    play_round(driver, rng)
    driver.send(Withdraw(player_id="p01"))
    while has_next_round(driver.now):
        play_round(driver, rng)
        rnd = driver.now.rounds[-1]
        assert "p01" not in {p for t in rnd.tables for p in t.players} | set(rnd.byes)
    assert len(driver.now.rounds) == planned
    driver.send(Finish())
    assert driver.now.status == "finished"


@settings(max_examples=15, deadline=None)
@given(
    st.integers(min_value=2, max_value=4).flatmap(
        lambda s: st.tuples(st.just(s), st.integers(min_value=1, max_value=s - 1))
    ),
    st.integers(min_value=4, max_value=24),
    st.binary(min_size=32, max_size=32),
)
def test_elimination_ends_with_one_final_table(sk: tuple[int, int], n: int, seed: bytes) -> None:
    seats, k = sk
    driver = make(n, seed=seed, format="elimination", seats_per_table=seats, qualifiers=k)
    rng = Rng(seed, 1 << 40)
    while has_next_round(driver.now):
        play_round(driver, rng)
    last = driver.now.rounds[-1]
    assert len(last.tables) == 1 and not last.byes
    driver.send(Finish())
    champion = driver.now.ranking[0]
    placings = last.tables[0].placings
    assert placings is not None
    assert champion in {p.player_id for p in placings if p.place == 1}
