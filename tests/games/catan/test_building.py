"""Building: distance rule, connected roads, blocking pieces, supplies (docs/rules/catan.md §7.1)."""

from __future__ import annotations

from shared.games.catan import board
from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.cards import CITY, ROAD, SETTLEMENT, add
from shared.games.catan.legal import legal
from tests.games.catan.helpers import (
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

RING = [corner(4, k) for k in range(6)]  # around hex 4


def rich(state, seat=0):
    return given(state, ev.CardsGained(seat=seat, cards=add(add(SETTLEMENT, CITY), add(ROAD, ROAD))))


def test_settlement_needs_own_road_and_the_distance_rule():
    state = rich(given(fresh(ck=False), town(0, RING[0]), *(road(0, p) for p in path_spots(*RING[:3]))))
    assert rejected(state, 0, cmd.BuildSettlement(spot=RING[1])) == "illegal_move"  # adjacent to RING[0]
    assert rejected(state, 0, cmd.BuildSettlement(spot=corner(18, 3))) == "illegal_move"  # no road
    state, events = when(state, 0, cmd.BuildSettlement(spot=RING[2]))
    assert state.owner[RING[2]] == 0 and of(events, ev.CardsPaid)[0].cards == SETTLEMENT


def test_road_must_touch_own_network_and_cannot_pass_an_opponent_building():
    state = rich(given(fresh(ck=False), town(0, RING[0]), road(0, path_spots(RING[0], RING[1])[0])))
    beyond = path_spots(RING[1], RING[2])[0]
    assert cmd.BuildRoad(path=beyond) in legal(state, 0)
    blocked = given(state, town(1, RING[1]))
    assert rejected(blocked, 0, cmd.BuildRoad(path=beyond)) == "illegal_move"


def test_an_opponents_knight_ends_a_network_but_ones_own_does_not():
    base = rich(given(fresh(), town(0, RING[0]), road(0, path_spots(RING[0], RING[1])[0])))
    beyond = cmd.BuildRoad(path=path_spots(RING[1], RING[2])[0])
    assert rejected(given(base, knight(1, RING[1])), 0, beyond) == "illegal_move"
    assert beyond in legal(given(base, knight(0, RING[1])), 0)


def test_no_settlement_on_a_knights_spot_even_ones_own():
    trail = path_spots(*RING[:3])
    state = rich(given(fresh(), town(0, RING[0]), *(road(0, p) for p in trail), knight(0, RING[2])))
    assert rejected(state, 0, cmd.BuildSettlement(spot=RING[2])) == "illegal_move"


def test_city_returns_the_settlement_piece_and_supplies_are_hard_caps():
    spots = [corner(h, 0) for h in (0, 2, 7, 11, 18)]
    open_spot = corner(13, 3)
    state = rich(
        given(fresh(ck=False), *(town(0, s) for s in spots), road(0, board.SPOT_PATHS[open_spot][0]))
    )
    assert not [c for c in legal(state, 0) if isinstance(c, cmd.BuildSettlement)]
    state, _ = when(state, 0, cmd.BuildCity(spot=spots[0]))
    assert state.level[spots[0]] == 2
    assert cmd.BuildSettlement(spot=open_spot) in legal(state, 0)


def test_a_tipped_city_must_be_the_next_one_upgraded():
    state = given(fresh(), town(0, corner(0, 0)), town(0, corner(2, 0)), gain(0, grain=2, ore=3))
    state = given(state, ev.CityPillaged(seat=0, spot=corner(2, 0), tipped=True))
    assert [c for c in legal(state, 0) if isinstance(c, cmd.BuildCity)] == [cmd.BuildCity(spot=corner(2, 0))]
