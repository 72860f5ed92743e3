"""Sevens: discards, the robber, theft (docs/rules/catan.md §8)."""

from __future__ import annotations

from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.legal import actors, legal
from shared.games.catan.views import view
from tests.games.catan.helpers import corner, fresh, gain, given, of, rejected, roll_until, town, when

SEVEN = lambda d: d.yellow + d.red == 7  # noqa: E731


def test_discard_half_rounded_down_only_above_the_limit():
    state = given(fresh(ck=False), gain(1, brick=8), gain(2, wool=9), gain(3, ore=7), gain(0, grain=11))
    state, _ = roll_until(state, SEVEN)
    task = state.task
    assert task.kind == "discard"
    assert dict(zip(task.seats, task.amounts, strict=True)) == {0: 5, 1: 4, 2: 4}
    assert actors(state) == frozenset({0, 1, 2})


def test_ck_limit_counts_commodities_and_walls_raise_it():
    state = given(fresh(), town(1, corner(0, 0), level=2), gain(1, paper=5, brick=4), gain(2, cloth=8))
    state = given(state, ev.WallPlaced(seat=1, spot=corner(0, 0)))
    state, _ = roll_until(state, lambda d: SEVEN(d) and d.event != "ship")
    assert state.task.kind == "discard" and state.task.seats == (2,)


def test_discards_are_hidden_until_everyone_has_answered():
    state = given(fresh(ck=False), gain(1, brick=8), gain(2, wool=8))
    state, _ = roll_until(state, SEVEN)
    before = view(state, None)
    state, events = when(state, 1, cmd.SelectCards(cards=(4, 0, 0, 0, 0, 0, 0, 0)))
    assert not of(events, ev.CardsPaid)
    assert view(state, 2).pending.mine is None and view(state, 1).pending.mine is not None
    assert view(state, None).pending.awaiting == (2,) and before.pending.awaiting == (1, 2)
    assert view(state, None).players[1].resources == 8
    state, events = when(state, 2, cmd.SelectCards(cards=(0, 0, 4, 0, 0, 0, 0, 0)))
    assert [e.seat for e in of(events, ev.CardsPaid)] == [1, 2]
    assert state.task.kind == "robber"


def test_wrong_discard_counts_are_refused():
    state = given(fresh(ck=False), gain(1, brick=8))
    state, _ = roll_until(state, SEVEN)
    assert rejected(state, 1, cmd.SelectCards(cards=(3, 0, 0, 0, 0, 0, 0, 0))) == "illegal_move"
    assert rejected(state, 1, cmd.SelectCards(cards=(0, 4, 0, 0, 0, 0, 0, 0))) == "illegal_move"


def test_robber_must_move_and_may_steal_from_an_adjacent_opponent_only():
    state = given(fresh(ck=False), town(1, corner(4, 0)), gain(1, ore=1))
    state, _ = roll_until(state, SEVEN)
    moves = legal(state, 0)
    assert all(m.hex != state.robber for m in moves)
    assert cmd.MoveRobber(hex=4, victim=1) in moves and cmd.MoveRobber(hex=4, victim=-1) not in moves
    state, events = when(state, 0, cmd.MoveRobber(hex=4, victim=1))
    assert state.players[0].hand[4] == 1 and of(events, ev.CardsTakenShadow)


def test_stealing_from_an_empty_hand_is_legal_and_yields_nothing():
    state = given(fresh(ck=False), town(1, corner(4, 0)))
    state, _ = roll_until(state, SEVEN)
    state, events = when(state, 0, cmd.MoveRobber(hex=4, victim=1))
    assert not of(events, ev.CardsTaken) and state.robber == 4


def test_no_robber_before_the_first_barbarian_attack():
    state = given(fresh(), town(1, corner(4, 0)))
    state, _ = roll_until(state, lambda d: SEVEN(d) and d.event != "ship")
    assert state.task is None and state.phase == "main"
    attacked = given(
        fresh(), town(1, corner(4, 0)), ev.BarbariansAttacked(barbarians=0, knights=0, contributions=(0,) * 4)
    )
    attacked, _ = roll_until(attacked, lambda d: SEVEN(d) and d.event != "ship")
    assert attacked.task.kind == "robber"


def test_friendly_robber_spares_seats_with_two_points_or_fewer():
    state = given(
        fresh(ck=False, friendly_robber=True), town(1, corner(4, 0)), town(2, corner(2, 0), level=2)
    )
    state = given(state, town(2, corner(11, 3)))
    state, _ = roll_until(state, SEVEN)
    hexes = {m.hex for m in legal(state, 0)}
    assert 4 not in hexes and 0 not in hexes and 2 in hexes
