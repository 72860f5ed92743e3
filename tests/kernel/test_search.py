"""The search bot (shared/kernel/search.py, issue 25): bounded budgets, the
same move for the same generator, and play better than chance."""

from __future__ import annotations

import dataclasses

import pytest

from shared.games import registry
from shared.kernel.playout import play
from shared.kernel.rng import Rng
from shared.kernel.search import (
    MAX_CPU_MS,
    MAX_ITERATIONS,
    Budget,
    SearchBot,
    by_iterations,
    margin_rewards,
    rank_rewards,
)
from tests.games.secrecy import harness


@pytest.mark.parametrize(
    "bad",
    [
        {"iterations": 0},
        {"iterations": MAX_ITERATIONS + 1},
        {"iterations": 5, "cpu_ms": 0},
        {"iterations": 5, "cpu_ms": MAX_CPU_MS + 1},
    ],
)
def test_a_budget_out_of_bounds_is_refused(bad: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        Budget(**bad)


def test_rewards_are_shares_of_the_seats_beaten() -> None:
    assert rank_rewards([3.0, 1.0]) == (1.0, 0.0)
    assert rank_rewards([2.0, 2.0, 0.0]) == (0.75, 0.75, 0.0)


def test_the_same_generator_gives_the_same_move() -> None:
    game = registry.get("tigris-cards")
    p = play(game, 3, b"\x21" * 32, max_steps=40)
    seat = min(game.actors(p.state))
    bot = by_iterations(game.bots["hard"], 40)
    moves = {repr(bot(p.state, seat, Rng(b"\x22" * 32, 0))) for _ in range(2)}
    assert len(moves) == 1
    assert isinstance(game.bots["hard"], SearchBot)


def test_the_search_bot_beats_random_play() -> None:
    """Tigris, two seats, the search bot on a small iteration budget against the
    random bot, seats alternated: it must win at least three games of four."""
    game = registry.get("tigris")
    hard = by_iterations(game.bots["hard"], 24)
    wins = 0
    for n in range(4):
        seat = n % 2
        bots = {seat: hard, 1 - seat: game.bots["easy"]}
        result = game.result(play(game, 2, bytes([n + 1]) * 32, bots=bots).state)
        assert result is not None
        wins += any(s.seat == seat and s.place == 1 for s in result.standings)
    assert wins >= 3, f"the search bot won {wins} of 4 games against random play"


def test_a_search_that_peeks_is_caught_by_the_bot_secrecy_check() -> None:
    """The check of tests/games/secrecy (the same move whatever the seat cannot see)
    catches a search bot whose sampler returns the true state as it is."""
    game = registry.get("tigris")
    hard = game.bots["hard"]
    assert isinstance(hard, SearchBot)
    # Rollouts long enough to draw the hidden tiles, so that what it peeks at moves its choice.
    peeking = by_iterations(dataclasses.replace(hard, sample=lambda state, seat, rng: state, depth=12), 80)
    seed = b"\x23" * 32
    caught = 0
    for n, world in enumerate(harness.states(game, 2, seed, count=4)):
        seat = min(game.actors(world.state))
        chosen = harness.encode(peeking(world.state, seat, Rng(seed, n)))
        for owner in (1 - seat, None):
            other = game.secrets.conceal(world.state, owner, Rng(seed, 100 + n))
            caught += harness.encode(peeking(other, seat, Rng(seed, n))) != chosen
    assert caught, "a search over the true state chose alike in every varied state"


def test_margin_rewards_tell_a_large_lead_from_a_small_one() -> None:
    small, large = margin_rewards([1.0, 0.0], 2.0), margin_rewards([6.0, 0.0], 2.0)
    assert 0.5 < small[0] < large[0] < 1.0
    assert small[0] + small[1] == pytest.approx(1.0)
    assert margin_rewards([2.0, 2.0, 2.0], 1.0) == (0.5, 0.5, 0.5)


def test_rewards_against_the_best_count_only_a_win() -> None:
    """At four seats, beating two of three is worth nothing when the third leads."""
    assert rank_rewards([3.0, 5.0, 1.0, 0.0], "best") == (0.0, 1.0, 0.0, 0.0)
    assert rank_rewards([5.0, 5.0, 1.0], "best") == (0.5, 0.5, 0.0)
    second, first, last = margin_rewards([4.0, 5.0, 0.0], 2.0, "best")
    assert last < second < 0.5 < first
    assert second + first == pytest.approx(1.0)  # the two leaders measured against each other
    # At two seats the best other seat is the other seat.
    assert margin_rewards([1.0, 3.0], 2.0, "best") == margin_rewards([1.0, 3.0], 2.0)


@pytest.mark.parametrize("plies", [None, 1])
@pytest.mark.parametrize("key", ["tigris", "conan", "catan"])
def test_opponents_played_by_the_rollout_bot_keep_the_search_repeatable_and_blind(
    key: str, plies: int | None
) -> None:
    """With the other seats moved by the rollout bot inside the tree (and the tree
    one own move deep, or unbounded), every draw is still the bot's own: the same
    generator gives the same move, and a state varied where the seat cannot see
    gives it too (the check of tests/games/secrecy)."""
    game = registry.get(key)
    hard = game.bots["hard"]
    assert isinstance(hard, SearchBot)
    bot = by_iterations(dataclasses.replace(hard, opponents="rollout", versus="best", plies=plies), 40)
    seed = b"\x27" * 32
    for n, world in enumerate(harness.states(game, 4, seed, count=2)):
        seat = min(game.actors(world.state))
        chosen = harness.encode(bot(world.state, seat, Rng(seed, n)))
        assert harness.encode(bot(world.state, seat, Rng(seed, n))) == chosen
        for owner in harness.audiences(4):
            if owner != seat:
                other = game.secrets.conceal(world.state, owner, Rng(seed, 100 + n))
                assert harness.encode(bot(other, seat, Rng(seed, n))) == chosen, f"{key}: peeks at {owner}"


@pytest.mark.parametrize("root", ["uct", "halving"])
@pytest.mark.parametrize("key", ["tigris", "tigris-cards", "conan"])
def test_the_rating_leads_the_search(key: str, root: str) -> None:
    """On one iteration the search has tried only the move the ``medium`` rating
    puts first, so that is its move: the rating orders the root's candidates
    (sequential halving, with no determinisation complete, falls back on it)."""
    game = registry.get(key)
    hard = game.bots["hard"]
    assert isinstance(hard, SearchBot) and hard.rate is not None
    rate = hard.rate
    hard = dataclasses.replace(hard, root=root)  # type: ignore[arg-type]  # a parametrised literal
    p = play(game, 2, b"\x24" * 32, bots=dict.fromkeys(range(2), game.bots["medium"]), max_steps=30)
    seat = min(game.actors(p.state))
    legal = game.legal(p.state, seat)
    keys = rate(p.state, seat, legal)
    best = {harness.encode(c) for c, k in zip(legal, keys, strict=True) if k == max(keys)}
    for n in range(3):
        assert harness.encode(by_iterations(hard, 1)(p.state, seat, Rng(b"\x25" * 32, n))) in best


@pytest.mark.parametrize("key", ["tigris", "tigris-cards", "conan", "catan"])
def test_sequential_halving_is_repeatable_and_chooses_from_the_seats_view(key: str) -> None:
    """The halving root draws everything from the move's own seed: the same
    generator gives the same move, and (the secrecy check of tests/games/secrecy)
    a state varied where the seat cannot see gives it too."""
    game = registry.get(key)
    hard = game.bots["hard"]
    assert isinstance(hard, SearchBot)
    halving = by_iterations(dataclasses.replace(hard, root="halving"), 60)
    seed = b"\x26" * 32
    for n, world in enumerate(harness.states(game, game.min_seats, seed, count=2)):
        seat = min(game.actors(world.state))
        chosen = harness.encode(halving(world.state, seat, Rng(seed, n)))
        assert harness.encode(halving(world.state, seat, Rng(seed, n))) == chosen
        for owner in harness.audiences(game.min_seats):
            if owner != seat:
                other = game.secrets.conceal(world.state, owner, Rng(seed, 100 + n))
                assert harness.encode(halving(other, seat, Rng(seed, n))) == chosen, (
                    f"{key}: peeks at {owner}"
                )


@pytest.mark.parametrize("plies", [0, 201])
def test_a_tree_depth_out_of_bounds_is_refused(plies: int) -> None:
    hard = registry.get("tigris").bots["hard"]
    assert isinstance(hard, SearchBot)
    with pytest.raises(ValueError):
        dataclasses.replace(hard, plies=plies)


@pytest.mark.parametrize("key", ["tigris", "conan"])
def test_a_flat_search_chooses_only_at_the_root(key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``plies=1`` with the opponents played by the rollout bot: each iteration
    chooses one move by UCT, its root candidate, and the rollout bot plays on."""
    game = registry.get(key)
    hard = game.bots["hard"]
    assert isinstance(hard, SearchBot)
    bot = by_iterations(dataclasses.replace(hard, opponents="rollout", plies=1, root="uct"), 30)
    p = play(game, 2, b"\x26" * 32, bots=dict.fromkeys(range(2), game.bots["medium"]), max_steps=30)
    seat = min(game.actors(p.state))
    calls = 0
    select = SearchBot._select

    def counted(self: SearchBot, *args: object) -> object:
        nonlocal calls
        calls += 1
        return select(self, *args)  # type: ignore[arg-type]  # the patched method's own arguments

    monkeypatch.setattr(SearchBot, "_select", counted)
    assert game.legal(p.state, seat) and len(game.legal(p.state, seat)) > 1
    bot(p.state, seat, Rng(b"\x27" * 32, 0))
    assert calls == 30
    calls = 0
    by_iterations(dataclasses.replace(hard, opponents="rollout", plies=None, root="uct"), 30)(
        p.state, seat, Rng(b"\x27" * 32, 0)
    )
    assert calls > 30  # unbounded, the tree grows below the root: the check above can fail
