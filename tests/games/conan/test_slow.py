"""Heavier runs: many self-play games with invariants (timings: ``python -m bench.engines``)."""

from __future__ import annotations

import pytest

from shared.games.conan import GAME
from shared.kernel.playout import play
from tests.games.conan.invariants import check, check_steps
from tests.games.contract_checks import check_decide_is_pure_and_legal_matches, check_playouts, seeds


@pytest.mark.slow
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_many_random_games(seats):
    playouts = check_playouts(GAME, seats, games=60, invariant=check)
    for p in playouts:
        check_steps(GAME, p)
    check_decide_is_pure_and_legal_matches(GAME, playouts[:5], samples=200)


@pytest.mark.slow
def test_heuristic_against_random():
    for seed in seeds(20, salt=3):
        bots = {0: GAME.bots["heuristic"], 1: GAME.bots["random"], 2: GAME.bots["heuristic"]}
        assert GAME.is_over(play(GAME, 3, seed, bots=bots, after_event=check).state)
