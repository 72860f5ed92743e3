"""Random self-play through the platform's driver, with invariants after every
event, replay determinism, codec round trips and legal/decide agreement."""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec
import pytest

from shared.games.registry import get
from shared.games.tigris_cards import GAME
from shared.games.tigris_cards.state import State
from shared.kernel.playout import play
from tests.games import contract_checks as cc
from tests.games.tigris_cards import invariants

REASONS = {"cards", "treasures", "stalemate"}


def test_registered_under_its_key() -> None:
    assert get("tigris-cards") is GAME


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_end_by_the_rules(seats: int) -> None:
    playouts = cc.check_playouts(GAME, seats, games=10, invariant=invariants.check)
    assert all(GAME.result(p.state).reason in REASONS for p in playouts)  # type: ignore[union-attr]
    cc.check_codec_round_trip(GAME, playouts)
    cc.check_visibility_total(GAME, playouts)
    cc.check_views_are_canonical(GAME, playouts)
    cc.check_decide_is_pure_and_legal_matches(GAME, playouts[:3], samples=30)


def test_every_event_and_command_kind_occurs() -> None:
    """The sample of games is rich enough to exercise every rule path."""
    events: Counter = Counter()
    commands: Counter = Counter()
    for seed in cc.seeds(16, salt=7):
        p = play(GAME, 2 + seed[-1] % 3, seed, options={"allow_withdrawal": True, "allow_pass": True})
        events.update(type(e).__name__ for e in p.events)
        commands.update(type(s.command).__name__ for s in p.steps)
    assert set(events) >= {t.__name__ for t in GAME.event_type.__args__}
    assert set(commands) >= {t.__name__ for t in GAME.command_type.__args__}


def test_replay_is_deterministic() -> None:
    seed = cc.seeds(1, salt=99)[0]
    first, second = play(GAME, 3, seed), play(GAME, 3, seed)
    assert cc.encoded(first.events) == cc.encoded(second.events)
    assert GAME.fold(first.events) == first.state


def test_state_and_views_survive_the_codec() -> None:
    p = play(GAME, 4, cc.seeds(1, salt=5)[0], max_steps=150)
    assert msgspec.msgpack.decode(cc.encoded(p.state), type=State) == p.state
    for audience in (None, 0, 1, 2, 3):
        view = GAME.view(p.state, audience)
        assert msgspec.json.decode(msgspec.json.encode(view), type=type(view)) == view


VARIANTS: list[dict[str, Any]] = [
    {"internal_reward": "winner_played", "external_reward": "winner_played"},
    {"connect_rule": "kingdoms", "ship_counts_for_threshold": False, "column_capacity": 7},
    {
        "vp_before_ship": False,
        "head_in_ship_series": True,
        "ship_on_longer_run": False,
        "ship_after_slide": True,
    },
    {"loser_leader_first": False, "exchange_keeps_leader": False, "inactive_trader_exchanges": False},
    {"allow_pass": True, "allow_withdrawal": True, "leaders_on_connectors": False, "open_piles": True},
]


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(o))
def test_every_option_variant_plays_out(options: dict[str, Any]) -> None:
    for seats in (2, 4):
        playouts = cc.check_playouts(GAME, seats, games=2, invariant=invariants.check, options=options)
        cc.check_decide_is_pure_and_legal_matches(GAME, playouts[:1], samples=15)


def test_greedy_beats_random_more_often_than_not() -> None:
    bots = {0: GAME.bots["greedy"], 1: GAME.bots["random"]}
    wins = 0
    for seed in cc.seeds(12, salt=3):
        p = play(GAME, 2, seed, bots=bots, after_event=invariants.check)
        result = GAME.result(p.state)
        assert result is not None
        wins += result.standings[0].seat == 0 and result.standings[0].place == 1
    assert wins >= 7


@pytest.mark.slow
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_many_random_games(seats: int) -> None:
    playouts = cc.check_playouts(GAME, seats, games=334, invariant=invariants.check)
    cc.check_codec_round_trip(GAME, playouts)
    cc.check_decide_is_pure_and_legal_matches(GAME, playouts[:20], samples=20)


@pytest.mark.parametrize("seats", [3, 4])
def test_mixed_bot_tables_finish(seats: int) -> None:
    bots = {s: GAME.bots["greedy" if s % 2 else "random"] for s in range(seats)}
    for seed in cc.seeds(2, salt=40 + seats):
        p = play(GAME, seats, seed, bots=bots, after_event=invariants.check)
        assert GAME.is_over(p.state) and GAME.fold(p.events) == p.state


def test_the_invariants_catch_a_lost_card() -> None:
    p = play(GAME, 3, cc.seeds(1, salt=8)[0], max_steps=80)
    invariants.check(p.state)
    lost = msgspec.structs.replace(p.state, deck=p.state.deck[1:])
    with pytest.raises(AssertionError, match="created or lost"):
        invariants.check(lost)
