"""OpenSkill ratings replayed from the results log."""

from __future__ import annotations

from shared.kernel.rng import Rng
from shared.tournaments.commands import Placing
from shared.tournaments.evolve import fold
from shared.tournaments.ratings import ratings, tournament_ratings
from shared.tournaments.state import results_in_order
from tests.tournaments.helpers import SEED, encode, make, play_round


def game(*order: str) -> tuple[Placing, ...]:
    return tuple(Placing(seat=i, player_id=p, place=i + 1, score=0) for i, p in enumerate(order))


def test_the_winner_gains_and_the_loser_drops() -> None:
    rated = ratings([game("a", "b")])
    assert rated["a"].mu > 25 > rated["b"].mu
    assert rated["a"].games == rated["b"].games == 1
    assert rated["a"].ordinal == rated["a"].mu - 3 * rated["a"].sigma


def test_shared_places_are_ties() -> None:
    tied = (
        Placing(seat=0, player_id="a", place=1, score=0),
        Placing(seat=1, player_id="b", place=1, score=0),
    )
    rated = ratings([tied])
    assert rated["a"].mu == rated["b"].mu


def test_order_of_results_matters_and_is_replayed() -> None:
    log = [game("a", "b", "c"), game("c", "a", "b"), game("b", "c", "a")]
    assert encode(ratings(log)) == encode(ratings(list(log)))
    assert encode(ratings(log)) != encode(ratings(log[::-1]))


def test_prior_ratings_carry_over() -> None:
    rated = ratings([game("a", "b")], prior={"a": (30.0, 2.0)})
    assert 30.0 < rated["a"].mu < 31.0 and rated["a"].sigma < 2.1


def test_recomputed_from_the_log_equals_the_live_state() -> None:
    driver = make(12, seats_per_table=3, rounds=3)
    rng = Rng(SEED, 11)
    for _ in range(3):
        play_round(driver, rng)
    replayed = fold(list(driver.events))
    assert encode(tournament_ratings(replayed)) == encode(tournament_ratings(driver.now))
    live = ratings(results_in_order(driver.now), players=[p.player_id for p in driver.now.players])
    assert encode(live) == encode(tournament_ratings(driver.now))
    assert all(r.games == 3 for r in live.values())
