"""Longest Road: 5+, strictly longer to take, breaks and set-aside (1.12, rulings 21, 46)."""

from __future__ import annotations

from shared.games.catan import commands as cmd
from shared.games.catan.cards import ROAD, SETTLEMENT
from shared.games.catan.events import CardsGained
from shared.games.catan.longest_road import holder_after, road_length
from tests.games.catan.helpers import corner, fresh, given, knight, path_spots, road, when

TOP = [3, 0, 4, 1, 5, 2, 6]  # the island's top edge, six paths
BOTTOM = [47, 51, 48, 52, 49, 53, 50]
RING = [corner(4, k % 6) for k in range(7)]  # closes on itself


def roads(seat, spots, n=None):
    return [road(seat, p) for p in path_spots(*spots)[:n]]


def test_length_counts_roads_along_one_trail_and_a_loop_once():
    state = given(fresh(ck=False), *roads(0, TOP))
    assert road_length(state, 0) == 6
    assert road_length(given(fresh(ck=False), *roads(1, RING)), 1) == 6
    branch = given(state, road(0, path_spots(TOP[2], 8)[0]))
    assert road_length(branch, 0) == 6


def test_first_to_five_takes_it_and_equalling_does_not():
    state = given(fresh(ck=False), *roads(0, TOP, 4), CardsGained(seat=0, cards=ROAD))
    state, _ = when(state, 0, cmd.BuildRoad(path=path_spots(*TOP)[4]))
    assert state.longest == 0
    assert holder_after(0, (5, 5, 0, 0)) == 0
    assert holder_after(0, (5, 6, 0, 0)) == 1
    assert holder_after(-1, (4, 4, 0, 0)) == -1


def test_after_a_break_holder_keeps_if_still_joint_longest():
    assert holder_after(0, (5, 5, 5, 0)) == 0


def test_after_a_break_a_unique_longest_takes_it_else_it_is_set_aside():
    assert holder_after(0, (3, 6, 5, 0)) == 1
    assert holder_after(0, (3, 5, 5, 0)) == -1
    assert holder_after(0, (4, 4, 0, 0)) == -1
    assert holder_after(-1, (5, 6, 6, 0)) == -1


def test_an_opponent_settlement_splits_the_road_and_passes_the_card():
    from shared.games.catan.events import LongestRoadSet, PhaseSet

    state = given(fresh(ck=False), *roads(0, TOP), *roads(1, BOTTOM, 5), road(1, path_spots(8, TOP[2])[0]))
    state = given(
        state, LongestRoadSet(holder=0, lengths=(6, 6, 0, 0)), PhaseSet(phase="main", active=1, turn=2)
    )
    state = given(state, CardsGained(seat=1, cards=SETTLEMENT))
    state, _ = when(state, 1, cmd.BuildSettlement(spot=TOP[2]))
    assert state.road_lengths[:2] == (4, 5)
    assert state.longest == 1


def test_an_opponents_knight_breaks_the_road_in_ck():
    state = given(fresh(), *roads(0, TOP))
    assert road_length(given(state, knight(1, TOP[3])), 0) == 3
    assert road_length(given(state, knight(0, TOP[3])), 0) == 6
