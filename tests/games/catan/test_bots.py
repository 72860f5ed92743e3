"""Bots: legal moves only, and the greedy bot beats random ones in most games."""

from __future__ import annotations

import pytest

from shared.games.catan import CATAN, CATAN_CK, greedy_bot
from shared.kernel.playout import play
from tests.games.contract_checks import seeds


@pytest.mark.parametrize("game", [CATAN, CATAN_CK], ids=lambda g: g.key)
def test_greedy_bot_beats_random_bots_in_most_games(game):
    games = 6
    wins = 0
    for i, seed in enumerate(seeds(games, salt=11)):
        seat = i % 4
        p = play(game, 4, seed, bots={seat: greedy_bot})
        assert game.is_over(p.state)
        wins += p.state.winner == seat
    assert wins > games // 2


@pytest.mark.parametrize("game", [CATAN, CATAN_CK], ids=lambda g: g.key)
def test_three_greedy_bots_finish_a_three_seat_game(game):
    p = play(game, 3, seeds(1, salt=5)[0], bots=dict.fromkeys(range(3), greedy_bot))
    assert game.is_over(p.state)
