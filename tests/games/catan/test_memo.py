"""The engine's remembered answers give exactly what computing them again gives.

``evolve`` answers the caller's fold of ``decide``'s events from the steps
``decide`` took, and board queries keep their last answer; both key on the
identity of immutable arguments. A remembered answer must never reach a call
with other arguments, however alike.
"""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from shared.games.catan import CATAN, CATAN_CK
from shared.games.catan import commands as cmd
from shared.games.catan.evolve import apply, evolve
from shared.games.catan.memo import last_by_identity, last_by_identity1
from shared.games.catan.options import Options
from shared.kernel.codec import codec_for
from shared.kernel.playout import play
from shared.kernel.rng import Rng

SEED = b"\x05" * 32


def _midgame(game=CATAN):
    p = play(game, 4, SEED, max_steps=400)
    return p.state


def test_evolve_answers_from_decide_only_for_the_very_state_and_events():
    state = _midgame()
    seat = min(CATAN.actors(state))
    command = CATAN.legal(state, seat)[0]
    events = CATAN.decide(state, seat, command, Rng(SEED, 1))
    # Another state holding the same facts but not the same object: folded anew.
    twin = replace(state, turn=state.turn)
    assert twin is not state
    assert evolve(twin, events[0]) == apply(twin, events[0])
    # A different state entirely: the remembered step must not leak into it.
    other = replace(state, robber=(state.robber + 1) % 19)
    assert apply(other, events[0]) != apply(state, events[0])  # so a leak would show
    assert evolve(other, events[0]) == apply(other, events[0])
    # The caller's fold of the very objects and the fold of decoded copies agree.
    codec = codec_for(CATAN)
    copies = [codec.event_from_json(msgspec.json.encode(e)) for e in events]
    assert CATAN.fold(events, state) == CATAN.fold(copies, state)


def test_self_play_with_and_without_the_remembered_steps_is_the_same_game():
    for game in (CATAN, CATAN_CK):
        p = play(game, 3, SEED, max_steps=300)
        state = game.fold(p.opening)
        for step in p.steps:
            after = state
            for e in step.events:
                after = apply(after, e)
            assert game.fold(step.events, state) == after
            state = after


def test_last_by_identity_reuses_only_for_the_same_objects():
    calls: list[tuple[object, object]] = []

    @last_by_identity
    def pair(a: tuple[int, ...], b: tuple[int, ...]) -> int:
        calls.append((a, b))
        return sum(a) - sum(b)

    a, b = tuple(range(60)), (1, 2)
    assert pair(a, b) == pair(a, b) == sum(a) - 3
    assert len(calls) == 1
    equal_a = tuple(list(a))  # equal, not identical: computed again
    assert equal_a is not a
    assert pair(equal_a, b) == sum(a) - 3
    assert len(calls) == 2
    assert pair(a, (5,)) == sum(a) - 5

    @last_by_identity1
    def one(a: tuple[int, ...]) -> int:
        calls.append((a, None))
        return len(a)

    calls.clear()
    assert one(a) == one(a) == 60
    assert one(tuple(list(a))) == 60
    assert len(calls) == 2


def test_cached_options_neither_encode_nor_compare():
    options = msgspec.convert({"expansion": "none", "points_to_win": 0}, Options)
    before = msgspec.json.encode(options)
    assert (options.ck, options.target) == (False, 10)
    assert msgspec.json.encode(options) == before
    assert options == msgspec.json.decode(before, type=Options)
    assert hash(options) == hash(msgspec.json.decode(before, type=Options))
    assert Options(points_to_win=7).target == 7 and Options().target == 13


def test_commands_built_once_equal_the_ones_a_client_sends():
    assert cmd.BUILD_ROAD[5] == cmd.BuildRoad(path=5)
    assert cmd.EndTurn() == cmd.END_TURN and cmd.RollDice() == cmd.ROLL_DICE
    assert msgspec.json.encode(cmd.BUILD_CITY[9]) == msgspec.json.encode(cmd.BuildCity(spot=9))
