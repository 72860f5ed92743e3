"""Opening: the roll for the first seat, snake order, second placement (docs/rules/catan.md §3)."""

from __future__ import annotations

import itertools

from shared.games.catan import CATAN, CATAN_CK, board
from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.evolve import evolve
from shared.games.catan.legal import legal
from shared.kernel.rng import Rng
from tests.games.catan.helpers import SEED, cards, corner, given, of, rejected, when


def opening(game, seats=4):
    state = None
    for e in game.create(game.options({"layout": "beginner"}), seats, Rng(SEED, 0)):
        state = evolve(state, e)
    return state


def place(state, building, path):
    seat = state.active
    state, _ = when(state, seat, building)
    state, events = when(state, seat, cmd.BuildRoad(path=path))
    return state, events


def test_snake_order_and_the_first_player_starts():
    state = opening(CATAN)
    first = state.active
    order = [(first + i) % 4 for i in range(4)]
    assert state.setup_queue == tuple(order + order[::-1])


def test_distance_rule_and_road_touching_the_new_settlement():
    state = opening(CATAN)
    seat = state.active
    spot = corner(4, 0)
    state, _ = when(state, seat, cmd.BuildSettlement(spot=spot))
    far = board.SPOT_PATHS[corner(18, 3)][0]
    assert rejected(state, seat, cmd.BuildRoad(path=far)) == "illegal_move"
    state, _ = when(state, seat, cmd.BuildRoad(path=board.SPOT_PATHS[spot][0]))
    neighbour = board.SPOT_NEIGHBOURS[spot][0]
    assert rejected(state, state.active, cmd.BuildSettlement(spot=neighbour)) == "illegal_move"


def test_base_second_settlement_pays_one_card_per_adjacent_hex():
    state = opening(CATAN, seats=3)
    spots = [corner(0, 0), corner(2, 0), corner(16, 3), corner(4, 3), corner(13, 3), corner(10, 0)]
    for spot in spots:
        state, _ = place(state, cmd.BuildSettlement(spot=spot), board.SPOT_PATHS[spot][0])
    # corner(10, 0) touches pasture 4, hills 10 and forest 3: wool, brick, lumber.
    last = state.active
    assert state.phase == "roll" and state.players[last].hand == cards(brick=1, wool=1, lumber=1)
    assert sum(state.players[s].hand != cards() for s in range(3)) >= 1


def test_ck_second_placement_is_a_city_paying_one_resource_per_hex_and_no_commodity():
    state = opening(CATAN_CK, seats=3)
    for spot in [corner(0, 0), corner(2, 0), corner(16, 3)]:
        state, _ = place(state, cmd.BuildSettlement(spot=spot), board.SPOT_PATHS[spot][0])
    assert all(isinstance(c, cmd.BuildCity) for c in legal(state, state.active))
    spot = corner(8, 2)  # C&K beginner: forest 8, fields 4, mountains 6 around it
    seat = state.active
    state, events = when(state, seat, cmd.BuildCity(spot=spot))
    gained = of(events, ev.CardsGained)[0].cards
    assert sum(gained) == len(board.SPOT_HEXES[spot]) and sum(gained[5:]) == 0
    assert state.level[spot] == 2


def test_setup_ends_with_the_starting_player_to_roll():
    state = opening(CATAN_CK, seats=3)
    first = state.active
    spots = [corner(0, 0), corner(2, 0), corner(16, 3), corner(4, 3), corner(13, 3), corner(10, 0)]
    for i, spot in enumerate(spots):
        building = cmd.BuildCity(spot=spot) if i >= 3 else cmd.BuildSettlement(spot=spot)
        state, _ = place(state, building, board.SPOT_PATHS[spot][0])
    assert state.phase == "roll" and state.active == first and state.turn == 1
    assert given(state).road_lengths == (1, 1, 1)


def _opening_events(game, seats, stream):
    return game.create(game.options({"layout": "beginner"}), seats, Rng(SEED, stream))


def test_the_highest_roll_starts_and_tied_seats_roll_again():
    tied = 0
    for stream in range(60):
        events = _opening_events(CATAN_CK, 4, stream)
        rounds = of(events, ev.StartRolled)
        assert rounds[0].seats == (0, 1, 2, 3)
        for before, after in itertools.pairwise(rounds):
            best = max(sum(d) for d in before.dice)
            assert after.seats == tuple(
                s for s, d in zip(before.seats, before.dice, strict=True) if sum(d) == best
            )
        last = rounds[-1]
        totals = [sum(d) for d in last.dice]
        assert totals.count(max(totals)) == 1
        first = last.seats[totals.index(max(totals))]
        assert of(events, ev.Started)[0].first == first
        assert (
            of(events, ev.PhaseSet)[0].active == first and of(events, ev.PhaseSet)[0].setup_queue[0] == first
        )
        tied += len(rounds) > 1
    assert tied  # some of these openings needed a re-roll


def test_the_roll_off_is_public():
    from shared.games.catan.views import visibility
    from shared.kernel.visibility import Public

    rolled = of(_opening_events(CATAN, 3, 0), ev.StartRolled)[0]
    assert isinstance(visibility(rolled), Public) and all(1 <= a <= 6 and 1 <= b <= 6 for a, b in rolled.dice)
