"""The generic contract checks, driven through the platform's self-play."""

from __future__ import annotations

import pytest

from shared.games.conan import GAME
from shared.games.conan import events as ev
from shared.games.registry import get
from shared.kernel.playout import play
from tests.games.conan.invariants import check, check_steps
from tests.games.contract_checks import (
    check_codec_round_trip,
    check_decide_is_pure_and_legal_matches,
    check_non_interference,
    check_playouts,
    check_views_are_canonical,
    check_visibility_total,
    seeds,
)


@pytest.fixture(scope="module")
def playouts():
    return {n: check_playouts(GAME, n, games=3, invariant=check) for n in (2, 3, 4)}


def test_registered_under_conan():
    assert get("conan") is GAME


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_self_play_ends_by_the_rules(playouts, seats):
    for p in playouts[seats]:
        result = GAME.result(p.state)
        assert result is not None and result.reason == "age_three_complete"
        assert p.state.age == 3
        assert len(p.state.adventures_used) == 12
        check_steps(GAME, p)


def test_heuristic_bot_games_end():
    bots = {s: GAME.bots["heuristic"] for s in range(4)}
    for seed in seeds(2, salt=7):
        p = play(GAME, 4, seed, bots=bots, after_event=check, max_steps=20_000)
        assert GAME.is_over(p.state)


def test_codec_round_trip(playouts):
    check_codec_round_trip(GAME, [p for ps in playouts.values() for p in ps])


def test_decide_is_pure_and_agrees_with_legal(playouts):
    check_decide_is_pure_and_legal_matches(GAME, [playouts[2][0], playouts[4][0]], samples=60)


def test_visibility_and_canonical_views(playouts):
    every = [p for ps in playouts.values() for p in ps]
    check_visibility_total(GAME, every)
    check_views_are_canonical(GAME, every)
    seen = {type(e) for p in every for e in p.events}
    missing = {t.__name__ for t in ev.AnyEvent.__args__} - {t.__name__ for t in seen}
    # Rare in short random games; each is covered by a unit test instead.
    assert missing <= {
        "Crowned",
        "ObjectiveMet",
        "ObjectiveDrawn",
        "TokenKept",
        "TableCardPlayed",
        "TableCardTurned",
    }


def _midgame_states(p, every=25):
    state = None
    out = []
    for i, e in enumerate(p.events):
        state = GAME.evolve(state, e)
        if i % every == 0 and i > 60:
            out.append(state)
    return out


@pytest.mark.parametrize("seats", [2, 4])
def test_non_interference(playouts, seats):
    for state in _midgame_states(playouts[seats][0])[:12]:
        for owner in [None, *range(seats)]:
            check_non_interference(GAME, state, owner, trials=2)


def test_conceal_keeps_every_card_and_token_accounted_for(playouts):
    from shared.kernel.rng import Rng

    for state in _midgame_states(playouts[4][1], every=40)[:12]:
        for owner in [None, 0, 1, 2, 3]:
            varied = GAME.secrets.conceal(state, owner, Rng(b"\x06" * 32, owner or 0))
            check(varied, None)
            for before, after in zip(state.seats, varied.seats, strict=True):
                assert len(after.strategy_hand) == len(before.strategy_hand)
                assert len(after.kingdom_hand) == len(before.kingdom_hand)
                assert len(after.tokens) == len(before.tokens)


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_bots_ignore_what_their_seat_may_not_see(playouts, bot):
    from shared.kernel.rng import Rng

    choose = GAME.bots[bot]
    for state in _midgame_states(playouts[4][1], every=15)[:30]:
        for seat in GAME.actors(state):
            baseline = choose(state, seat, Rng(b"\x02" * 32, 1))
            for owner in [None, *(s for s in range(4) if s != seat)]:
                other = GAME.secrets.conceal(state, owner, Rng(b"\x03" * 32, (owner or 0) + 5))
                assert choose(other, seat, Rng(b"\x02" * 32, 1)) == baseline
