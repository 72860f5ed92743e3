"""Treasures (docs/rules/tigris.md §13)."""

from __future__ import annotations

from shared.games.tigris import GAME
from shared.games.tigris import events as ev
from shared.games.tigris.commands import DeclineMonument, Pass, PlaceTile, PositionLeader, TakeTreasures
from shared.games.tigris.legal import legal
from shared.games.tigris.rules.treasures import choices
from shared.games.tigris.state import ChooseTreasures
from shared.games.tigris_common.colours import Colour, Leader
from tests.games.tigris.boards import at, build, of_type, run, with_options


def test_corner_treasures_come_first_in_every_pick() -> None:
    b2, p2, e4, f4 = at("B2"), at("P2"), at("E4"), at("F4")
    assert choices((b2, p2, e4), 1) == [(b2,), (p2,)]
    assert choices((b2, e4, f4), 2) == [(b2, e4), (b2, f4)]
    assert choices((b2, e4), 1) == [(b2,)]


def test_a_trader_arriving_takes_all_but_one_and_chooses_which() -> None:
    state = build("r* r* r*", origin="E4")
    state, events = run(state, (0, PositionLeader(leader=Leader.TRADER, square=at("F5"))))
    assert state.phase == ChooseTreasures(
        seat=0, count=2, candidates=(at("E4"), at("F4"), at("G4")), stage="treasures"
    )
    assert len(legal(state, 0)) == 3
    state, events = run(state, (0, TakeTreasures(squares=(at("E4"), at("G4")))))
    assert state.treasures_won[0] == 2 and at("F4") in state.treasures
    assert of_type(events, ev.ActionEnded)


def test_no_trader_no_treasures() -> None:
    state = build("r* r* .", origin="E4")
    state, events = run(state, (0, PositionLeader(leader=Leader.KING, square=at("F5"))))
    assert not of_type(events, ev.TreasuresTaken) and state.treasures_won == (0, 0)


def test_another_seat_may_collect_during_my_turn() -> None:
    state = build("r* T1 . r*", origin="E4", hands={0: "r"})
    state, _ = run(state, (0, PlaceTile(colour=Colour.RED, square=at("G4"))))
    assert GAME.actors(state) == {1}  # two plain treasures: Bull picks which one
    state, _ = run(state, (1, TakeTreasures(squares=(at("H4"),))))
    assert state.treasures_won == (0, 1) and GAME.actors(state) == {0}


def test_collection_at_end_of_turn_option() -> None:
    state = with_options(build("r* T1 . r*", origin="E4", hands={0: "r"}), treasure_timing="turn")
    state, events = run(state, (0, PlaceTile(colour=Colour.RED, square=at("G4"))))
    assert not of_type(events, ev.TreasuresTaken)
    state, events = run(state, (0, Pass()))
    assert GAME.actors(state) == {1} and not of_type(events, ev.TilesDrawn)
    state, events = run(state, (1, TakeTreasures(squares=(at("E4"),))))
    assert of_type(events, ev.TilesDrawn) and state.active == 1  # the turn then ends as usual


ORDER = """
r* r  T0
r  .  .
.  r* .
"""


def test_monument_before_treasures_unless_the_option_swaps_them() -> None:
    place = (0, PlaceTile(colour=Colour.RED, square=at("F5")))
    state, events = run(build(ORDER, origin="E4", hands={0: "r"}), place)
    assert of_type(events, ev.MonumentOffered) and not of_type(events, ev.TreasureChoiceOffered)
    state, events = run(state, (0, DeclineMonument()))
    assert of_type(events, ev.TreasureChoiceOffered)
    swapped = with_options(build(ORDER, origin="E4", hands={0: "r"}), treasures_before_monument=True)
    swapped, events = run(swapped, place)
    assert of_type(events, ev.TreasureChoiceOffered) and not of_type(events, ev.MonumentOffered)
    swapped, events = run(swapped, (0, TakeTreasures(squares=(at("E4"),))))
    assert of_type(events, ev.MonumentOffered) and not of_type(events, ev.ActionEnded)
    swapped, events = run(swapped, (0, DeclineMonument()))
    assert of_type(events, ev.ActionEnded) and swapped.treasures_won == (1, 0)
