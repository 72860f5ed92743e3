"""The generic game-module checks, run on random self-play of the registered game."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from shared.games import registry
from shared.games.tigris import GAME
from shared.games.tigris import events as ev
from shared.games.tigris.options import Options
from shared.games.tigris.state import State
from shared.kernel.rng import Rng
from shared.kernel.search import by_iterations
from tests.games.contract_checks import (
    check_codec_round_trip,
    check_decide_is_pure_and_legal_matches,
    check_non_interference,
    check_playouts,
    check_views_are_canonical,
    check_visibility_total,
)
from tests.games.tigris.invariants import check
from tests.games.tigris.positions import playouts
from tests.games.tigris.samples import EVERY_COMMAND, EVERY_EVENT


def test_registered_under_its_key() -> None:
    assert registry.get("tigris") is GAME


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_end_by_the_rules_with_invariants(seats: int) -> None:
    games = playouts(seats)
    reasons = {GAME.result(p.state).reason for p in games}  # type: ignore[union-attr]
    assert reasons <= {"treasures", "bag_empty"}


@pytest.mark.slow
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_thousand_random_games(seats: int) -> None:
    check_playouts(GAME, seats, {2: 334, 3: 333, 4: 333}[seats], invariant=check)


@pytest.mark.parametrize("seats", [2, 4])
def test_codec_visibility_and_views(seats: int) -> None:
    games = playouts(seats)
    check_codec_round_trip(GAME, games)
    check_visibility_total(GAME, games)
    check_views_are_canonical(GAME, games)


def test_decide_is_pure_and_agrees_with_legal() -> None:
    check_decide_is_pure_and_legal_matches(GAME, playouts(2)[:2], samples=12)
    check_decide_is_pure_and_legal_matches(GAME, playouts(4)[:1], samples=12)


def test_every_event_type_is_folded_and_has_an_audience() -> None:
    members = {t.cls for t in msgspec.inspect.type_info(GAME.event_type).types}
    assert {type(e) for e in EVERY_EVENT} == members
    opening = GAME.fold(GAME.create(Options(), 3, Rng(b"\5" * 32, 0)))
    for sample in EVERY_EVENT:
        # ``evolve`` ends in ``assert_never``: an event type without a case fails here
        # (and mypy fails the module before that).
        GAME.evolve(opening, sample)
        assert GAME.visibility(sample) is not None


def _states(seats: int) -> list[State]:
    """Mid-game states (including conflict phases) from the sample games."""
    out = []
    for p in playouts(seats)[:3]:
        state = None
        for i, event in enumerate(p.events):
            state = GAME.evolve(state, event)
            if i % 97 == 50 or isinstance(event, ev.RevoltStarted | ev.WarStarted):
                out.append(state)
    return out


@pytest.mark.parametrize("seats", [2, 4])
def test_non_interference(seats: int) -> None:
    for state in _states(seats):
        for owner in [None, *range(seats)]:
            check_non_interference(GAME, state, owner)


def test_conceal_exchanges_tiles_with_the_bag_and_varies_hidden_points() -> None:
    hands_varied = points_varied = 0
    for state in _states(3)[:6]:
        for trial in range(4):
            varied = GAME.secrets.conceal(state, 1, Rng(b"\6" * 32, trial))
            check(varied, None)  # every tile still accounted for
            assert sum(varied.hands[1]) == sum(state.hands[1]) and len(varied.bag) == len(state.bag)
            assert varied.hands[0] == state.hands[0] and varied.treasures_won == state.treasures_won
            hands_varied += varied.hands[1] != state.hands[1]
            points_varied += varied.points[1] != state.points[1]
            shuffled = GAME.secrets.conceal(state, None, Rng(b"\7" * 32, trial))
            assert sorted(shuffled.bag) == sorted(state.bag) and shuffled.hands == state.hands
    assert hands_varied > 12 and points_varied > 20
    opened = replace(_states(2)[0], options=replace(_states(2)[0].options, open_scoring=True))
    assert GAME.secrets.conceal(opened, 0, Rng(b"\6" * 32, 0)).points == opened.points


def test_bots_use_only_what_their_seat_sees() -> None:
    for state in _states(2):
        for seat in GAME.actors(state):
            for name, level in GAME.bots.items():
                bot = by_iterations(level, 48)
                chosen = msgspec.json.encode(bot(state, seat, Rng(b"\3" * 32, 1)))
                for trial in range(3):
                    other = GAME.secrets.conceal(state, 1 - seat, Rng(b"\4" * 32, trial))
                    other = GAME.secrets.conceal(other, None, Rng(b"\5" * 32, trial))
                    again = msgspec.json.encode(bot(other, seat, Rng(b"\3" * 32, 1)))
                    assert again == chosen, f"{name} bot peeked at hidden information"


def test_replay_from_the_log_equals_the_live_state() -> None:
    for p in playouts(3)[:3]:
        assert GAME.fold(p.events) == p.state
        again: Any = GAME.fold(
            msgspec.msgpack.Decoder(GAME.event_type).decode(msgspec.msgpack.encode(e)) for e in p.events
        )
        assert again == p.state


def test_codec_round_trip_of_every_command_and_event() -> None:
    for codec in (msgspec.json, msgspec.msgpack):
        events = codec.Decoder(GAME.event_type)
        commands = codec.Decoder(GAME.command_type)
        for event in EVERY_EVENT:
            assert events.decode(codec.encode(event)) == event
        for command in EVERY_COMMAND:
            assert commands.decode(codec.encode(command)) == command
    members = {t.cls for t in msgspec.inspect.type_info(GAME.command_type).types}
    assert {type(c) for c in EVERY_COMMAND} == members


def test_unknown_command_fields_are_refused() -> None:
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(b'{"type":"tigris.pass","extra":1}', type=GAME.command_type)


ALTERNATIVES = {
    "allow_pass": False,
    "treasures_before_monument": True,
    "allow_move_in_place": True,
    "monument_new_square_new_chance": True,
    "treasure_timing": "turn",
    "refill_order": "table_order",
    "end_when_bag_emptied": True,
    "shared_full_ties": False,
    "judge_move_with_leader_lifted": False,
    "choose_monument_square": False,
    "empty_swap_is_pass": False,
    "treasure_end_check": "end_of_action",
    "open_scoring": True,
    "support_variant": "english",
    "stalemate_rounds": 0,
}


def test_random_games_under_every_alternative_option() -> None:
    games = check_playouts(GAME, 3, 4, invariant=check, options=ALTERNATIVES)
    check_decide_is_pure_and_legal_matches(GAME, games[:1], samples=8)
    check_codec_round_trip(GAME, games)
