"""Knights: recruit, activate, promote, move, displace, chase (docs/rules/catan.md §9)."""

from __future__ import annotations

from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.cards import KNIGHT
from shared.games.catan.legal import actors, legal
from shared.games.catan.state import knight_at
from tests.games.catan.helpers import (
    TOP,
    corner,
    fresh,
    gain,
    given,
    knight,
    of,
    path_spots,
    rejected,
    road,
    town,
    when,
)


def line(seat, spots):
    return [road(seat, p) for p in path_spots(*spots)]


def test_recruit_is_basic_inactive_on_own_road_without_distance_rule():
    state = given(fresh(), town(0, TOP[0]), *line(0, TOP[:3]), gain(0, wool=1, ore=1))
    assert cmd.BuildKnight(spot=TOP[1]) in legal(state, 0)  # next to a settlement: no distance rule
    state, events = when(state, 0, cmd.BuildKnight(spot=TOP[2]))
    k = knight_at(state, TOP[2])
    assert (k.strength, k.active) == (1, False) and of(events, ev.CardsPaid)[0].cards == KNIGHT


def test_two_knights_per_strength():
    state = given(fresh(), *line(0, TOP), knight(0, TOP[0]), knight(0, TOP[1]), gain(0, wool=1, ore=1))
    assert not [c for c in legal(state, 0) if isinstance(c, cmd.BuildKnight)]


def test_knight_activated_this_turn_cannot_act():
    state = given(fresh(), *line(0, TOP), knight(0, TOP[0]), gain(0, grain=1))
    state, _ = when(state, 0, cmd.ActivateKnight(spot=TOP[0]))
    assert knight_at(state, TOP[0]).active
    assert not [c for c in legal(state, 0) if isinstance(c, cmd.MoveKnight)]
    state, _ = when(state, 0, cmd.EndTurn())
    state = given(state, ev.PhaseSet(phase="main", active=0, turn=state.turn + 4))
    assert cmd.MoveKnight(spot=TOP[0], to=TOP[3]) in legal(state, 0)


def test_one_promotion_per_turn_and_mighty_needs_the_fortress():
    state = given(fresh(), *line(0, TOP), knight(0, TOP[0]), gain(0, wool=3, ore=3))
    state, _ = when(state, 0, cmd.PromoteKnight(spot=TOP[0]))
    assert knight_at(state, TOP[0]).strength == 2
    assert rejected(state, 0, cmd.PromoteKnight(spot=TOP[0])) == "illegal_move"
    state = given(state, ev.PhaseSet(phase="main", active=0, turn=9))
    assert rejected(state, 0, cmd.PromoteKnight(spot=TOP[0])) == "illegal_move"
    state = given(state, *(ev.ImprovementBought(seat=0, track=1, level=n) for n in (1, 2, 3)))
    state, _ = when(state, 0, cmd.PromoteKnight(spot=TOP[0]))
    assert knight_at(state, TOP[0]).strength == 3


def test_promotion_needs_a_free_piece_of_the_higher_strength():
    state = given(fresh(), *line(0, TOP), knight(0, TOP[0]), knight(0, TOP[1], 2), knight(0, TOP[2], 2))
    state = given(state, gain(0, wool=1, ore=1))
    assert rejected(state, 0, cmd.PromoteKnight(spot=TOP[0])) == "illegal_move"


def test_moves_follow_own_roads_and_never_pass_other_pieces():
    state = given(fresh(), *line(0, TOP), knight(0, TOP[0], active=True), town(1, TOP[3]))
    targets = {c.to for c in legal(state, 0) if isinstance(c, cmd.MoveKnight)}
    assert targets == {TOP[1], TOP[2]}


def test_displace_only_strictly_weaker_and_the_owner_retreats_along_its_roads():
    state = given(fresh(), *line(0, TOP[:4]), knight(0, TOP[0], 2, active=True), knight(1, TOP[3], 1))
    state = given(state, road(1, path_spots(TOP[3], TOP[4])[0]), road(1, path_spots(TOP[4], TOP[5])[0]))
    assert cmd.MoveKnight(spot=TOP[0], to=TOP[3]) in legal(state, 0)
    state, _ = when(state, 0, cmd.MoveKnight(spot=TOP[0], to=TOP[3]))
    assert knight_at(state, TOP[3]).owner == 0 and not knight_at(state, TOP[3]).active
    assert state.task.kind == "retreat" and actors(state) == frozenset({1})
    assert {c.choice for c in legal(state, 1)} == {TOP[4], TOP[5]}
    state, _ = when(state, 1, cmd.Choose(choice=TOP[5]))
    assert knight_at(state, TOP[5]).owner == 1


def test_equal_strength_cannot_be_displaced_and_a_knight_with_no_retreat_leaves():
    state = given(fresh(), *line(0, TOP[:4]), knight(0, TOP[0], 1, active=True), knight(1, TOP[3], 1))
    assert cmd.MoveKnight(spot=TOP[0], to=TOP[3]) not in legal(state, 0)
    strong = given(state, knight(0, TOP[0], 2, active=True))
    strong, _ = when(strong, 0, cmd.MoveKnight(spot=TOP[0], to=TOP[3]))
    assert strong.task is None and [k.owner for k in strong.knights] == [0]


def test_chase_robber_needs_an_active_robber_and_an_adjacent_knight():
    desert = fresh().robber
    spot = corner(desert, 0)
    state = given(fresh(), knight(0, spot, active=True), town(1, corner(4, 0)), gain(1, ore=1))
    assert not [c for c in legal(state, 0) if isinstance(c, cmd.ChaseRobber)]
    state = given(state, ev.BarbariansAttacked(barbarians=0, knights=0, contributions=(0,) * 4))
    state = given(state, knight(0, spot, active=True))
    chases = [c for c in legal(state, 0) if isinstance(c, cmd.ChaseRobber)]
    assert chases and all(state.terrain[c.hex] != 5 for c in chases)  # 2020: a numbered hex
    state, _ = when(state, 0, cmd.ChaseRobber(spot=spot, hex=4, victim=1))
    assert state.robber == 4 and not knight_at(state, spot).active and state.players[0].hand[4] == 1


def test_knight_errant_variant_chases_once_before_the_roll():
    desert = fresh().robber
    spot = corner(desert, 0)
    attacked = ev.BarbariansAttacked(barbarians=0, knights=0, contributions=(0,) * 4)
    base = given(fresh(), attacked, knight(0, spot, active=True), ev.PhaseSet(phase="roll", active=0, turn=3))
    assert not [c for c in legal(base, 0) if isinstance(c, cmd.ChaseRobber)]
    state = given(fresh(knight_errant_variant=True), attacked, knight(0, spot, 1, True))
    state = given(state, ev.PhaseSet(phase="roll", active=0, turn=3), knight(0, corner(desert, 3), 1, True))
    chase = next(c for c in legal(state, 0) if isinstance(c, cmd.ChaseRobber))
    state, _ = when(state, 0, chase)
    assert state.phase == "roll" and not [c for c in legal(state, 0) if isinstance(c, cmd.ChaseRobber)]
