"""Catastrophes and leader withdrawal (docs/rules/tigris.md §8, §14)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from shared.games.tigris import GAME
from shared.games.tigris import events as ev
from shared.games.tigris.board import Monument
from shared.games.tigris.commands import PlaceCatastrophe
from shared.games.tigris.legal import legal
from shared.games.tigris.rules.kingdoms import Regions
from shared.games.tigris.state import BuiltMonument
from shared.games.tigris_common.colours import Colour
from shared.kernel.rejection import RuleViolation
from shared.kernel.rng import Rng
from tests.games.tigris.boards import at, build, counts, of_type, run

BOARD = """
r  K0 r  T1 r* x
"""


def code(state, square: str) -> str:
    command = PlaceCatastrophe(square=at(square))
    assert command not in legal(state, 0)
    with pytest.raises(RuleViolation) as info:
        GAME.decide(state, 0, command, Rng(b"\0" * 32, 0))
    return info.value.code


def test_where_a_catastrophe_may_not_go() -> None:
    state = build(BOARD, origin="E4")
    assert code(state, "F4") == "catastrophe_on_leader"
    assert code(state, "I4") == "catastrophe_on_treasure"
    assert code(state, "J4") == "catastrophe_on_catastrophe"
    built = replace(state, monuments=(BuiltMonument(monument=Monument.RED_BLUE, top_left=at("E9")),))
    assert code(built, "F10") == "catastrophe_on_monument"
    spent = replace(state, catastrophes_left=(0, 2))
    assert code(spent, "A1") == "no_catastrophes_left"


def test_an_empty_river_square_may_be_hit() -> None:
    state, events = run(build(BOARD, origin="E4"), (0, PlaceCatastrophe(square=at("E1"))))
    assert of_type(events, ev.CatastrophePlaced)[0].destroyed is None
    assert state.catastrophes_left == (1, 2) and at("E1") in state.catastrophes


def test_a_destroyed_temple_sends_stranded_leaders_home_and_splits_without_conflict() -> None:
    state = build(BOARD, origin="E4")
    state, events = run(state, (0, PlaceCatastrophe(square=at("G4"))))
    assert of_type(events, ev.CatastrophePlaced)[0].destroyed is Colour.RED
    # The king keeps E4; the trader keeps the treasure temple I4.
    assert not of_type(events, ev.LeaderReturned)
    regions = Regions(state)
    assert regions.label[at("F4")] != regions.label[at("H4")]
    assert state.out_of_game == counts("r")
    lonely = build("K0 r T1 r", origin="E4")
    lonely, events = run(lonely, (0, PlaceCatastrophe(square=at("F4"))))
    assert [(e.seat, e.reason) for e in of_type(events, ev.LeaderReturned)] == [(0, "no_temple")]
    assert lonely.leaders[1][2] == at("G4")
