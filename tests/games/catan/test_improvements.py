"""City improvements and metropolises (docs/rules/catan.md §11)."""

from __future__ import annotations

from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.legal import legal
from tests.games.catan.helpers import cards, corner, fresh, gain, given, of, rejected, town, when

A, B = corner(0, 0), corner(2, 0)


def levels(seat, track, upto):
    return [ev.ImprovementBought(seat=seat, track=track, level=n) for n in range(1, upto + 1)]


def test_level_n_costs_n_of_the_tracks_commodity_and_needs_a_city():
    state = given(fresh(), gain(0, cloth=1, coin=2))
    assert rejected(state, 0, cmd.BuyImprovement(track=0)) == "illegal_move"
    state = given(state, town(0, A, 2))
    state, events = when(state, 0, cmd.BuyImprovement(track=0))
    assert of(events, ev.CardsPaid)[0].cards == cards(cloth=1)
    state, _ = when(state, 0, cmd.BuyImprovement(track=1))
    assert state.players[0].levels == (1, 1, 0)


def test_first_to_level_four_must_place_the_metropolis_on_a_chosen_city():
    state = given(fresh(), town(0, A, 2), town(0, B, 2), *levels(0, 2, 3), gain(0, paper=4))
    options = [c for c in legal(state, 0) if isinstance(c, cmd.BuyImprovement)]
    assert options == [cmd.BuyImprovement(track=2, spot=A), cmd.BuyImprovement(track=2, spot=B)]
    state, _ = when(state, 0, cmd.BuyImprovement(track=2, spot=B))
    assert state.metropolis[2] == B


def test_a_later_level_four_gets_nothing_and_level_five_takes_it_before_the_holder():
    state = given(
        fresh(), town(0, A, 2), town(1, B, 2), *levels(0, 2, 4), ev.MetropolisPlaced(track=2, spot=A)
    )
    state = given(state, *levels(1, 2, 3), gain(1, paper=9), ev.PhaseSet(phase="main", active=1, turn=2))
    state, _ = when(state, 1, cmd.BuyImprovement(track=2))
    assert state.metropolis[2] == A
    state, _ = when(state, 1, cmd.BuyImprovement(track=2, spot=B))
    assert state.metropolis[2] == B


def test_holder_at_level_five_keeps_it_for_good():
    state = given(
        fresh(), town(0, A, 2), town(1, B, 2), *levels(0, 2, 5), ev.MetropolisPlaced(track=2, spot=A)
    )
    state = given(state, *levels(1, 2, 4), gain(1, paper=5), ev.PhaseSet(phase="main", active=1, turn=2))
    state, _ = when(state, 1, cmd.BuyImprovement(track=2))
    assert state.metropolis[2] == A and state.players[1].levels[2] == 5


def test_no_level_four_without_a_city_free_of_metropolis_but_own_track_may_reach_five():
    state = given(fresh(), town(0, A, 2), *levels(0, 0, 4), ev.MetropolisPlaced(track=0, spot=A))
    state = given(state, *levels(0, 1, 3), gain(0, coin=4, cloth=5))
    assert rejected(state, 0, cmd.BuyImprovement(track=1)) == "illegal_move"
    state, _ = when(state, 0, cmd.BuyImprovement(track=0))
    assert state.players[0].levels[0] == 5


def test_crane_discounts_one_purchase_only():
    state = given(fresh(), town(0, A, 2), *levels(0, 0, 1), gain(0, cloth=4))
    state = given(state, ev.EffectsSet(effects=state.effects.__class__(cranes=1)))
    state, events = when(state, 0, cmd.BuyImprovement(track=0))
    assert of(events, ev.CardsPaid)[0].cards == cards(cloth=1) and state.effects.cranes == 0
    state, events = when(state, 0, cmd.BuyImprovement(track=0))
    assert of(events, ev.CardsPaid)[0].cards == cards(cloth=3)


def test_losing_the_last_city_keeps_levels_but_blocks_purchases():
    state = given(fresh(), town(0, A, 2), *levels(0, 1, 2), gain(0, coin=3))
    state = given(state, ev.CityPillaged(seat=0, spot=A, tipped=False))
    assert state.players[0].levels[1] == 2
    assert rejected(state, 0, cmd.BuyImprovement(track=1)) == "illegal_move"
