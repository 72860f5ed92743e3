"""Digest section 3 rulings not covered by the per-concept files."""

from __future__ import annotations

from shared.games.catan import board
from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.decide import actors, legal
from shared.kernel.rng import Rng
from tests.games.catan.helpers import (
    corner,
    fresh,
    gain,
    given,
    hold,
    knight,
    of,
    path_spots,
    rejected,
    road,
    roll_until,
    town,
    when,
)

NEAR = ev.BarbarianMoved(position=6)
TOP = [3, 0, 4, 1, 5, 2, 6]


def test_2_a_chosen_seven_by_alchemist_still_causes_discards():
    state = hold(given(fresh(), ev.PhaseSet(phase="roll", active=0, turn=1), gain(1, ore=9)), 0, "alchemist")
    for stream in range(1, 50):  # the event die is still rolled; take a gate face
        after, events = when(state, 0, cmd.PlayProgress(card="alchemist", a=3, b=4), stream=stream)
        if of(events, ev.DiceRolled)[0].event != "ship":
            break
    assert (of(events, ev.DiceRolled)[0].yellow, of(events, ev.DiceRolled)[0].red) == (3, 4)
    assert after.task.kind == "discard" and after.task.seats == (1,)


def test_3_gate_draws_happen_before_the_seven_and_never_count_for_discards():
    state = given(
        fresh(), *[ev.ImprovementBought(seat=1, track=0, level=n) for n in range(1, 6)], gain(1, ore=8)
    )
    state, events = roll_until(state, lambda d: d.event == "trade" and d.yellow + d.red == 7)
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("CardDrawn") < kinds.index("TaskOpened")
    assert state.task.kind == "discard" and state.task.amounts == (4,)


def test_6_knights_only_act_in_the_action_phase_after_the_roll():
    state = given(fresh(), *(road(0, p) for p in path_spots(*TOP)), gain(0, wool=1, ore=1, grain=1))
    state = given(state, knight(0, TOP[0]), ev.PhaseSet(phase="roll", active=0, turn=1))
    assert rejected(state, 0, cmd.BuildKnight(spot=TOP[2])) == "illegal_move"
    assert rejected(state, 0, cmd.ActivateKnight(spot=TOP[0])) == "illegal_move"


def test_9_when_nobody_defends_every_seat_with_a_pillageable_city_loses_one():
    spots = (corner(0, 0), corner(2, 0), corner(16, 3))
    state = given(fresh(), NEAR, *(town(s, spot, 2) for s, spot in enumerate(spots)))
    state, events = roll_until(state, lambda d: d.event == "ship")
    assert sorted(e.seat for e in of(events, ev.CityPillaged)) == [0, 1, 2]


def test_12_defender_points_keep_coming_after_the_six_cards():
    state = given(fresh(), NEAR, knight(2, corner(0, 0), 1, active=True))
    state = state.__class__(
        **{**{f: getattr(state, f) for f in state.__struct_fields__}, "defenders_left": 0}
    )
    state, events = roll_until(state, lambda d: d.event == "ship")
    assert of(events, ev.DefenderAwarded) and state.players[2].defender == 1


def test_28_bishop_may_go_to_the_desert_and_steal_nothing():
    attacked = ev.BarbariansAttacked(barbarians=0, knights=0, contributions=(0,) * 4)
    state = hold(given(fresh(), attacked, ev.RobberMoved(hex=0)), 0, "bishop")
    desert = fresh().terrain.index(board.DESERT)
    state, events = when(state, 0, cmd.PlayProgress(card="bishop", a=desert))
    assert state.robber == desert and not of(events, ev.CardsTaken)


def test_30_deserter_against_a_lone_knight_removes_it_at_once():
    state = hold(given(fresh(), knight(1, corner(0, 0), 3)), 0, "deserter")
    state, events = when(state, 0, cmd.PlayProgress(card="deserter", a=1))
    assert of(events, ev.KnightRemoved) and state.task is None  # no road of seat 0: nothing to place


def test_36_road_building_with_one_legal_spot_places_one_road():
    # Seat 0's only open path leads into seat 1's town, beyond which its network may not grow.
    state = given(fresh(), town(0, 3), road(1, board.path_between(3, 7)), town(1, 0))
    state = hold(state, 0, "road_building")
    state, _ = when(state, 0, cmd.PlayProgress(card="road_building"))
    only = legal(state, 0)
    assert len(only) == 1
    state, _ = when(state, 0, only[0])
    assert state.task is None


def test_immediate_progress_limit_option_makes_the_active_seat_discard_at_once():
    state = given(
        fresh(own_turn_progress_limit="immediate"),
        *[ev.ImprovementBought(seat=0, track=2, level=n) for n in range(1, 6)],
    )
    state = hold(state, 0, *["smith"] * 4)
    state, _ = roll_until(state, lambda d: d.event == "science" and d.yellow + d.red != 7)
    assert state.task.kind == "progress_discard" and actors(state) == frozenset({0})


def test_house_rules_for_shuffled_numbers():
    for i in range(10):
        _, numbers, _ = board.variable_layout(Rng(bytes(32), i), False, True, True)
        assert board.house_ok(numbers, True, True) and board.reds_apart(numbers)


def test_5_nobody_acts_while_others_decide():
    state = given(fresh(), gain(1, ore=9), gain(0, wool=1, ore=1))
    state, _ = roll_until(state, lambda d: d.event != "ship" and d.yellow + d.red == 7)
    assert actors(state) == frozenset({1}) and legal(state, 0) == []
    assert rejected(state, 0, cmd.EndTurn()) == "not_your_turn"


def test_14_a_promoted_knight_keeps_its_right_to_act_unless_the_option_forbids():
    def setup(**options):
        s = given(fresh(**options), *(road(0, p) for p in path_spots(*TOP)), gain(0, wool=1, ore=1))
        s = given(s, knight(0, TOP[0], 1, active=True))
        s, _ = when(s, 0, cmd.PromoteKnight(spot=TOP[0]))
        return [c for c in legal(s, 0) if isinstance(c, cmd.MoveKnight)]

    assert setup()
    assert not setup(promoted_knight_may_act=False)


def test_50_at_most_three_walls():
    spots = [corner(h, 0) for h in (0, 2, 7, 11)]
    state = given(fresh(), *(town(0, s, 2) for s in spots), gain(0, brick=2))
    state = given(state, *(ev.WallPlaced(seat=0, spot=s) for s in spots[:3]))
    assert not [c for c in legal(state, 0) if isinstance(c, cmd.BuildWall)]
