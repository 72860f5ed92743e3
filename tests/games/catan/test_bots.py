"""Bots: legal moves only, and the greedy bot beats random ones in most games."""

from __future__ import annotations

import pytest

from shared.games.catan import CATAN, CATAN_CK, greedy_bot
from shared.kernel.playout import play
from tests.games.contract_checks import seeds


@pytest.mark.parametrize("game", [CATAN, CATAN_CK], ids=lambda g: g.key)
def test_greedy_bot_beats_random_bots_in_most_games(game):
    games = 10  # enough that the majority says more than the choice of seeds
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


@pytest.mark.parametrize("game", [CATAN, CATAN_CK], ids=lambda g: g.key)
def test_zombie_bot_only_plays_legal_moves(game):
    from shared.games.catan import zombie_bot

    p = play(game, 4, seeds(1, salt=6)[0], bots={1: zombie_bot}, max_steps=1500)
    assert p.steps


def test_card_picks_are_complete_and_ordered():
    from shared.games.catan.rules.tasks import picks

    got = picks((2, 1, 0, 0, 0, 0, 0, 1), 2)
    z = (0,) * 6
    assert set(got) == {(2, 0, *z), (1, 1, *z), (1, 0, *z[1:], 1), (0, 1, *z[1:], 1)}
    assert len(got) == 4


@pytest.mark.parametrize("game", [CATAN, CATAN_CK], ids=lambda g: g.key)
def test_four_uniform_bots_finish_a_game(game):
    # Uniform over whole decisions, ending the turn just one of them: the games still end.
    p = play(game, 4, seeds(1, salt=7)[0], bots=dict.fromkeys(range(4), game.bots["uniform"]))
    assert game.is_over(p.state)
