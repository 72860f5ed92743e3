"""Longest Road: five or more, strictly longer takes, breaks, set aside (docs/rules/catan.md §7)."""

from __future__ import annotations

from shared.games.catan import commands as cmd
from shared.games.catan.cards import ROAD, SETTLEMENT
from shared.games.catan.events import CardsGained, LongestRoadSet
from shared.games.catan.rules.longest_road import holder_after, road_length
from tests.games.catan.helpers import TOP, corner, fresh, given, hold, knight, of, path_spots, road, when

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


# Titles are settled once a card or a knight action has wholly resolved (docs/rules/catan.md §7.2).

LOOP_ROAD = [11, 16, 21, 27, 33, 28, 22, 17]  # seven roads; a piece on 16 or on 22 leaves six


def _held_by_zero(*events):
    """Seat 0 holds the title with six roads; seat 2 ties at six only while a piece breaks its seven."""
    state = given(fresh(), *roads(0, TOP), *roads(2, LOOP_ROAD), *events)
    return given(state, LongestRoadSet(holder=0, lengths=(6, 0, 6, 0)))


def test_diplomat_title_is_settled_after_the_removed_road_is_placed_again():
    """Diplomat: "Remove an open road of any player; if it is your own, you may place it
    again elsewhere. Longest Road is recomputed once the whole card has resolved."

    Seat 0 holds the title at six, seat 1 also has six. Seat 0 lifts the last road of its
    trail (five left: seat 1 alone would be longest) and lays it at the other end (six
    again). Judged only at the end, the holder is still joint longest and keeps the card.
    """
    from shared.games.catan import board

    state = given(fresh(), *roads(0, TOP), *roads(1, BOTTOM))
    state = hold(given(state, LongestRoadSet(holder=0, lengths=(6, 6, 0, 0))), 0, "diplomat")
    lifted, moved = board.path_between(2, 6), board.path_between(3, 7)
    state, first = when(state, 0, cmd.PlayProgress(card="diplomat", a=lifted))
    assert state.task.kind == "diplomat" and not of(first, LongestRoadSet)
    assert state.longest == 0  # nothing is decided between the card's two steps
    state, _ = when(state, 0, cmd.Choose(choice=moved))
    assert state.longest == 0 and state.road_lengths[:2] == (6, 6)


def test_diplomat_title_is_settled_when_the_player_declines_to_place_it_again():
    """Diplomat: the re-placement is optional; the card has resolved when it is declined,
    and the title is settled then: five against six passes it to seat 1."""
    from shared.games.catan import board

    state = given(fresh(), *roads(0, TOP), *roads(1, BOTTOM))
    state = hold(given(state, LongestRoadSet(holder=0, lengths=(6, 6, 0, 0))), 0, "diplomat")
    state, _ = when(state, 0, cmd.PlayProgress(card="diplomat", a=board.path_between(2, 6)))
    state, _ = when(state, 0, cmd.Choose(choice=-1))
    assert state.longest == 1 and state.road_lengths[:2] == (5, 6)


def test_deserter_title_is_settled_after_the_replacement_knight_is_placed():
    """Deserter: "The opponent removes one of their knights; you may place one of your own
    in its place of strength." The card is one action: seat 2's road, whole for a moment
    while no knight stands on it, is broken again by the knight seat 0 places, and the
    title is judged only then (six each: the holder keeps it)."""
    from shared.games.catan import board

    state = hold(_held_by_zero(knight(1, 16), road(0, board.path_between(16, 22))), 0, "deserter")
    state, first = when(state, 0, cmd.PlayProgress(card="deserter", a=1))
    assert state.task.kind == "deserter_place" and not of(first, LongestRoadSet)
    state, _ = when(state, 0, cmd.Choose(choice=22))
    assert state.longest == 0 and state.road_lengths[2] == 6


def test_intrigue_title_is_settled_after_the_displaced_knight_retreats():
    """Intrigue: "Displace an opponent's knight that touches one of your roads; it retreats
    along its owner's roads." Seat 2 lifts the knight off its own road (seven for a moment),
    seat 1 retreats it onto another spot of that road (six): no title changes hands."""
    from shared.games.catan import board
    from shared.games.catan.events import PhaseSet

    state = _held_by_zero(knight(1, 16), road(1, board.path_between(16, 22)))
    state = hold(given(state, PhaseSet(phase="main", active=2, turn=1)), 2, "intrigue")
    state, first = when(state, 2, cmd.PlayProgress(card="intrigue", a=16))
    assert state.task.kind == "retreat" and not of(first, LongestRoadSet)
    state, _ = when(state, 1, cmd.Choose(choice=22))
    assert state.longest == 0 and state.road_lengths[2] == 6


def test_a_displacement_title_is_settled_after_the_retreat():
    """Knight action, displace: the displaced knight's owner moves it along its own roads.
    The action has resolved only then; seat 2's road, freed by its own knight taking the
    spot, is broken again where the displaced knight retreats, and the holder keeps it."""
    from shared.games.catan import board
    from shared.games.catan.events import PhaseSet

    state = _held_by_zero(knight(1, 16), road(1, board.path_between(16, 22)), knight(2, 27, 2, active=True))
    state = given(state, PhaseSet(phase="main", active=2, turn=1))
    state, first = when(state, 2, cmd.MoveKnight(spot=27, to=16))
    assert state.task.kind == "retreat" and not of(first, LongestRoadSet)
    state, _ = when(state, 1, cmd.Choose(choice=22))
    assert state.longest == 0 and state.road_lengths[2] == 6


def test_road_building_settles_the_title_after_both_roads():
    """Road Building: "Place two roads free." One card, one award: the title is judged after
    the second road (the same holder as judging after each, since roads only lengthen)."""
    state = hold(given(fresh(), *roads(0, TOP, 4)), 0, "road_building")
    state, _ = when(state, 0, cmd.PlayProgress(card="road_building"))
    state, first = when(state, 0, cmd.BuildRoad(path=path_spots(*TOP)[4]))
    assert not of(first, LongestRoadSet) and state.longest == -1
    state, _ = when(state, 0, cmd.BuildRoad(path=path_spots(*TOP)[5]))
    assert state.longest == 0 and state.road_lengths[0] == 6
