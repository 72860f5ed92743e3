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
