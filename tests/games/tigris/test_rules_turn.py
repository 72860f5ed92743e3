"""Actions, swaps, refills and the end of the game (docs/rules/tigris.md §5, §9, §15, §16, §17)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from shared.games.tigris import GAME
from shared.games.tigris import events as ev
from shared.games.tigris.commands import Pass, PlaceTile, SwapTiles
from shared.games.tigris.legal import legal
from shared.games.tigris.state import Over
from shared.games.tigris_common.colours import Colour
from shared.kernel.rejection import RuleViolation
from shared.kernel.rng import Rng
from tests.games.tigris.boards import SPARE, at, build, counts, of_type, run, with_options


def test_two_actions_then_the_next_seat() -> None:
    state = build("", hands={0: "kkkkkk", 1: "kkkkkk"})
    state, events = run(state, (0, Pass()))
    assert state.active == 0 and state.actions_done == 1
    state, events = run(state, (0, Pass()))
    assert state.active == 1 and state.actions_done == 0
    # Two passes drew nothing: the turn counts towards the stalemate safeguard (§16.2).
    assert of_type(events, ev.TurnStarted) == [ev.TurnStarted(seat=1, quiet=1)]


def test_swap_discards_and_draws_and_new_tiles_serve_the_second_action() -> None:
    state = build("", hands={0: "kkkkkk"}, bag="gr")
    state, events = run(state, (0, SwapTiles(black=2)))
    assert state.hands[0] == counts("kkkkgr") and state.out_of_game == counts("kk")
    assert of_type(events, ev.TilesDiscardedCount)[0].count == 2
    assert PlaceTile(colour=Colour.GREEN, square=at("A10")) in legal(state, 0)


def test_swap_the_bag_cannot_supply_ends_the_game_at_once() -> None:
    state = build("", hands={0: "kkkkkk"}, bag="g")
    state, _ = run(state, (0, SwapTiles(black=2)))
    assert state.phase == Over(reason="bag_empty") and GAME.result(state).reason == "bag_empty"  # type: ignore[union-attr]


def test_empty_swap_is_a_pass_and_bad_swaps_are_refused() -> None:
    state = build("", hands={0: "kk"})
    _, events = run(state, (0, SwapTiles()))
    assert of_type(events, ev.ActionPassed)
    with pytest.raises(RuleViolation) as info:
        GAME.decide(state, 0, SwapTiles(red=1), Rng(b"\0" * 32, 0))
    assert info.value.code == "bad_swap"
    assert SwapTiles() not in legal(with_options(state, empty_swap_is_pass=False), 0)


def test_refill_order_and_a_short_bag() -> None:
    state = build("", seats=3, active=1, hands={0: "k", 1: "k", 2: "k"}, bag="k" * 15)
    _, events = run(state, (1, Pass()), (1, Pass()))
    assert [e.seat for e in of_type(events, ev.TilesDrawnCount)] == [1, 2, 0]
    table = with_options(state, refill_order="table_order")
    _, events = run(table, (1, Pass()), (1, Pass()))
    assert [e.seat for e in of_type(events, ev.TilesDrawnCount)] == [0, 1, 2]
    short = replace(state, bag=state.bag[:7])
    short, events = run(short, (1, Pass()), (1, Pass()))
    assert [e.seat for e in of_type(events, ev.TilesDrawnCount)] == [1]
    assert short.phase == Over(reason="bag_empty")


def test_an_exactly_emptied_bag_ends_the_game_only_with_the_option() -> None:
    state = build("", hands={0: "k", 1: "kkkkkk"}, bag="kkkkk")
    after, _ = run(state, (0, Pass()), (0, Pass()))
    assert after.active == 1 and not after.bag
    strict, _ = run(with_options(state, end_when_bag_emptied=True), (0, Pass()), (0, Pass()))
    assert strict.phase == Over(reason="bag_empty")


def test_two_treasures_left_end_the_game_at_the_end_of_the_turn() -> None:
    state = build("", hands={0: "kkkkkk", 1: "kkkkkk"})
    state = replace(state, treasures=tuple(sorted(at(n) for n in SPARE[:2])))
    mid, _ = run(state, (0, Pass()))
    assert not isinstance(mid.phase, Over)
    end, _ = run(mid, (0, Pass()))
    assert end.phase == Over(reason="treasures")
    early, _ = run(with_options(state, treasure_end_check="end_of_action"), (0, Pass()))
    assert early.phase == Over(reason="treasures")


def test_passing_can_be_forbidden() -> None:
    state = with_options(build("", hands={0: "kkkkkk"}), allow_pass=False)
    assert Pass() not in legal(state, 0) and SwapTiles() not in legal(state, 0)
    with pytest.raises(RuleViolation) as info:
        GAME.decide(state, 0, Pass(), Rng(b"\0" * 32, 0))
    assert info.value.code == "pass_not_allowed"


def test_only_the_awaited_seat_may_act_and_not_after_the_end() -> None:
    state = build("", hands={0: "kkkkkk"})
    for seat, expected in ((1, "not_your_turn"),):
        with pytest.raises(RuleViolation) as info:
            GAME.decide(state, seat, Pass(), Rng(b"\0" * 32, 0))
        assert info.value.code == expected
    over = replace(state, phase=Over(reason="treasures"))
    with pytest.raises(RuleViolation) as info:
        GAME.decide(over, 0, Pass(), Rng(b"\0" * 32, 0))
    assert info.value.code == "game_over" and GAME.actors(over) == frozenset()


def test_full_ties_share_or_go_to_the_later_seat() -> None:
    state = replace(build("", seats=3), phase=Over(reason="treasures"), first=1)
    state = replace(state, points=((3, 3, 3, 3), (3, 3, 3, 3), (1, 1, 1, 1)))
    shared = GAME.result(state)
    assert [(s.seat, s.place) for s in shared.standings] == [(0, 1), (1, 1), (2, 3)]  # type: ignore[union-attr]
    split = GAME.result(with_options(state, shared_full_ties=False))
    # Turn order from seat 1 is 1, 2, 0: seat 0 played later than seat 1.
    assert [(s.seat, s.place) for s in split.standings] == [(0, 1), (1, 2), (2, 3)]  # type: ignore[union-attr]
