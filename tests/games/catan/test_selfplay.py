"""Random self-play through the platform driver, with invariants after every event."""

from __future__ import annotations

import pytest

from shared.games.catan import CATAN, CATAN_CK
from tests.games import contract_checks as cc
from tests.games.catan.invariants import check


@pytest.mark.parametrize("game", [CATAN, CATAN_CK], ids=lambda g: g.key)
@pytest.mark.parametrize("seats", [3, 4])
def test_random_games_end_by_the_rules(game, seats):
    outcomes = cc.check_playouts(game, seats, games=seats - 2, invariant=check)
    cc.check_codec_round_trip(game, outcomes)
    cc.check_visibility_total(game, outcomes)
    cc.check_views_are_canonical(game, outcomes)
    for p in outcomes:
        result = game.result(p.state)
        assert result is not None and result.standings[0].score >= p.state.options.target


@pytest.mark.parametrize("game", [CATAN, CATAN_CK], ids=lambda g: g.key)
def test_decide_is_pure_and_agrees_with_legal(game):
    outcomes = cc.check_playouts(game, 4, games=1)
    cc.check_decide_is_pure_and_legal_matches(game, outcomes, samples=60)


@pytest.mark.slow
@pytest.mark.parametrize("game", [CATAN, CATAN_CK], ids=lambda g: g.key)
def test_many_random_games(game):
    outcomes = cc.check_playouts(game, 4, games=40, invariant=check)
    cc.check_decide_is_pure_and_legal_matches(game, outcomes[:10], samples=200)


VARIANTS = {
    "meanies_variant": True,
    "knight_errant_variant": True,
    "chased_robber_may_go_to_desert": True,
    "deserter_replacement": "same_or_lower",
    "own_turn_progress_limit": "immediate",
    "numbers": "random",
    "house_no_adjacent_2_12": True,
    "bank_shortage": "nobody",
    "friendly_robber": True,
    "zero_strength_defense_reward": "none",
    "merchant_on_desert": False,
    "promoted_knight_may_act": False,
}


def test_every_variant_option_together_still_plays_out():
    outcomes = cc.check_playouts(CATAN_CK, 4, games=1, invariant=check, options=VARIANTS)
    cc.check_decide_is_pure_and_legal_matches(CATAN_CK, outcomes, samples=30)


def test_beginner_layouts_play_out():
    cc.check_playouts(CATAN, 3, games=1, invariant=check, options={"layout": "beginner"})
    cc.check_playouts(CATAN_CK, 3, games=1, invariant=check, options={"layout": "beginner"})
