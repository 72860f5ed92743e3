"""The bots: legal choices, and the greedy one beats the random one."""

from __future__ import annotations

from shared.games.tigris import GAME
from shared.kernel.playout import play
from tests.games.contract_checks import seeds


def greedy_wins(games: int, salt: int) -> int:
    wins = 0
    for i, seed in enumerate(seeds(games, salt=salt)):
        greedy = i % 2
        bots = {greedy: GAME.bots["greedy"], 1 - greedy: GAME.bots["random"]}
        result = GAME.result(play(GAME, 2, seed, bots=bots).state)
        assert result is not None
        winners = [s.seat for s in result.standings if s.place == 1]
        wins += winners == [greedy]
    return wins


def test_greedy_beats_random_in_a_small_sample() -> None:
    # bench/tigris_bots.py plays 200 games; here 6 must nearly all be won.
    assert greedy_wins(6, salt=11) >= 5


def test_greedy_plays_full_four_seat_games() -> None:
    bots = {s: GAME.bots["greedy"] for s in range(4)}
    p = play(GAME, 4, seeds(1, salt=5)[0], bots=bots)
    assert GAME.is_over(p.state)
