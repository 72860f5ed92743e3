"""Derived and open points, each a named option (docs/rules/conan.md §13)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from shared.games.conan import GAME
from shared.games.conan import commands as c
from shared.games.conan import events as ev
from shared.games.conan.rules.scoring import standings
from shared.games.conan.state import AfterContest, AgeChange, Military, Turn
from tests.games.conan.helpers import edit_province, edit_seat, of_type, opening, set_units, when


def _military(state, seat=0):
    state = replace(state, phases=(Turn(seat=seat, step="cards", conan_done=True),), fate_pool=("MILITARY",))
    return when(state, seat, c.TakeDie(action="military"))[0]


@pytest.mark.parametrize("at_home", [True, False])
def test_raising_troops_at_home_follows_the_option(at_home):
    # given Aquilonia with a tower in Zingara
    state = edit_province(opening(2, raise_at_home=at_home), "zingara", owner=0, marker="tower")
    # when it takes a Military action
    state = _military(state)
    assert isinstance(state.phase, Military)
    # then the home province is a place to raise troops only under the option
    raised = {p for x in GAME.legal(state, 0) if isinstance(x, c.RaiseTroops) for p in x.provinces}
    assert ("aquilonia" in raised) == at_home and "zingara" in raised


@pytest.mark.parametrize(("rolls", "dice"), [(True, 3), (False, 2)])
def test_campaign_marker_unit_rolls_only_under_the_option(rolls, dice):
    # given three Aquilonian units attacking neutral Ophir
    state = _military(opening(2, campaign_marker_unit_rolls=rolls))
    state, _ = when(state, 0, c.MoveArmy(frm="aquilonia", to="ophir", units=3))
    state, _ = when(state, 0, c.Attack(province="ophir"))
    state, _ = when(state, 0, c.CommitCard())
    # when the attacker rolls
    state, _ = when(state, 0, c.Proceed(), ["BLANK"] * dice)
    # then the unit on the track rolls too, or not
    assert len(state.phase.attacker.dice) == dice


@pytest.mark.parametrize("anywhere", [False, True])
def test_withdrawal_goes_to_an_adjacent_or_any_friendly_province(anywhere):
    # given a lost siege contest in Nemedia, Aquilonia holding Koth (not adjacent)
    state = opening(2, withdraw_anywhere=anywhere)
    state = edit_province(state, "nemedia", owner=1, marker="fort")
    state = edit_province(state, "koth", owner=0, marker="tower")
    state = edit_seat(state, 0, sorcery=0)
    state = edit_seat(state, 1, sorcery=0)
    state = _military(state)
    state, _ = when(state, 0, c.MoveArmy(frm="aquilonia", to="nemedia", units=3))
    state, _ = when(state, 0, c.Attack(province="nemedia"))
    state, _ = when(state, 0, c.CommitCard())
    state, _ = when(state, 1, c.CommitCard())
    state, _ = when(state, 0, c.Proceed(), ["BLANK"] * 3)
    state, _ = when(state, 0, c.Proceed())
    state, _ = when(state, 1, c.Proceed(), ["HIT"] * 3)
    state, _ = when(state, 1, c.Proceed())
    assert isinstance(state.phase, AfterContest) and not state.phase.won
    # then the withdrawal targets follow the option
    spots = {x.to for x in GAME.legal(state, 0) if isinstance(x, c.Withdraw)}
    assert spots == ({"aquilonia", "koth"} if anywhere else {"aquilonia"})


@pytest.mark.parametrize(("counted", "loss"), [(True, 3), (False, 1)])
def test_raiders_at_home_count_in_the_raids_only_under_the_option(counted, loss):
    # given raiders in Aquilonia's home (2, no units) and in its fort in Nemedia (1, one unit)
    state = opening(2, raids_count_home=counted)
    state = set_units(state, "aquilonia", 0, 0)
    state = edit_province(state, "aquilonia", raiders=2)
    state = edit_province(state, "nemedia", owner=0, marker="fort", raiders=1)
    state = set_units(state, "nemedia", 0, 1)
    state = replace(state, phases=(AgeChange(),), first_player=0)
    assert GAME.legal(state, 0) == [c.ResolveRaids(), c.ResolveRaids(sacrifice_in=("nemedia",))]
    # when Aquilonia keeps its unit
    state, events = when(state, 0, c.ResolveRaids())
    raids = [e.ep for e in of_type(events, ev.ResourcesChanged) if e.reason == "raids" and e.seat == 0]
    # then each counted raider costs one EP
    assert raids == [-loss]


@pytest.mark.parametrize(("rule", "places"), [("shared", (1, 1)), ("first_player", (2, 1))])
def test_a_full_tie_at_the_end_is_shared_or_broken_by_seat_order(rule, places):
    # given two seats level on EP and adventure tokens, seat 1 holding the first player token
    state = replace(opening(2, final_last_tiebreak=rule), first_player=1)
    state = edit_seat(edit_seat(state, 0, ep=9, tokens=()), 1, ep=9, tokens=())
    # then the places are shared, or the first in seat order from the first player ranks higher
    ranked = {s.seat: s.place for s in standings(state)}
    assert (ranked[0], ranked[1]) == places
