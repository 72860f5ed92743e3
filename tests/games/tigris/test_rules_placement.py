"""Kingdoms, leader positioning and tile placement (docs/rules/tigris.md §4, §6, §7)."""

from __future__ import annotations

import pytest

from shared.games.tigris import GAME
from shared.games.tigris import events as ev
from shared.games.tigris.bitboard import mask
from shared.games.tigris.board import SQUARES
from shared.games.tigris.commands import PlaceTile, PositionLeader, WithdrawLeader
from shared.games.tigris.legal import legal
from shared.games.tigris.rules.kingdoms import LocalKingdoms, Regions, leader_squares
from shared.games.tigris_common.colours import LEADERS, Colour, Leader
from shared.kernel.rejection import RuleViolation
from shared.kernel.rng import Rng
from tests.games.tigris.boards import at, build, of_type, points, run, with_options
from tests.games.tigris.positions import sampled_states

RED, BLUE, GREEN, BLACK = Colour.RED, Colour.BLUE, Colour.GREEN, Colour.BLACK


def rejected(state, seat, command) -> str:
    with pytest.raises(RuleViolation) as info:
        GAME.decide(state, seat, command, Rng(b"\0" * 32, 0))
    assert command not in legal(state, seat)
    return info.value.code


def test_regions_connect_orthogonally_only_and_catastrophes_cut() -> None:
    state = build(
        """
        r  .  k  x  g
        .  K0 .  .  g
        """,
        origin="E4",
    )
    regions = Regions(state)
    assert regions.label[at("E4")] != regions.label[at("F5")]  # diagonal
    assert regions.label[at("G4")] == -1 or regions.label[at("G4")] != regions.label[at("I4")]
    assert regions.kingdoms() == [regions.label[at("F5")]]
    assert regions.label[at("I4")] == regions.label[at("I5")] not in regions.kingdoms()
    assert Regions(state, gap=at("I4")).label[at("I4")] == -1


LEADER_BOARD = """
.  .  .  .  .  .  .
r  .  r  .  .  r  K1
T0 .  .  .  .  .  .
"""


def test_leader_must_touch_a_temple_on_empty_land() -> None:
    state = build(LEADER_BOARD, origin="E4")
    assert rejected(state, 0, PositionLeader(leader=Leader.KING, square=at("H4"))) == "no_adjacent_temple"
    assert rejected(state, 0, PositionLeader(leader=Leader.KING, square=at("E5"))) == "square_occupied"
    river = build("r .", origin="A3")  # A4 below A3 is river
    assert rejected(river, 0, PositionLeader(leader=Leader.KING, square=at("A4"))) == "leader_on_river"


def test_leader_may_not_join_two_kingdoms_but_may_gather_leaderless_regions() -> None:
    state = build(LEADER_BOARD, origin="E4")
    # F5 touches T0's kingdom (via E5) and the lone temple G5: allowed, one kingdom.
    state2, _ = run(state, (0, PositionLeader(leader=Leader.KING, square=at("F5"))))
    regions = Regions(state2)
    assert regions.label[at("G5")] == regions.label[at("E6")]
    # Two kingdoms without any common colour still may not be joined by a leader.
    two = build(
        """
        r  .  r
        T0 .  K1
        """,
        origin="E4",
    )
    assert rejected(two, 0, PositionLeader(leader=Leader.KING, square=at("F4"))) == "joins_kingdoms"


def test_a_moving_leader_is_judged_lifted_and_may_not_stay_put() -> None:
    state = build(
        """
        r  T0 .  r  K1
        """,
        origin="E4",
    )
    # Moving the trader from F4 to G4 only touches K1's kingdom once it is lifted.
    move = PositionLeader(leader=Leader.TRADER, square=at("G4"))
    _, events = run(state, (0, move))
    assert of_type(events, ev.LeaderPositioned)[0].origin == at("F4")
    unlifted = with_options(state, judge_move_with_leader_lifted=False)
    assert rejected(unlifted, 0, move) == "joins_kingdoms"
    stay = PositionLeader(leader=Leader.TRADER, square=at("F4"))
    assert rejected(state, 0, stay) == "same_square"
    assert stay in legal(with_options(state, allow_move_in_place=True), 0)


def test_withdrawing_a_leader() -> None:
    state = build("r T0", origin="E4")
    state, events = run(state, (0, WithdrawLeader(leader=Leader.TRADER)))
    assert state.leaders[0][2] is None and of_type(events, ev.LeaderReturned)[0].reason == "withdrawn"
    assert rejected(state, 0, WithdrawLeader(leader=Leader.TRADER)) == "leader_not_on_board"


def test_farms_only_on_the_river_and_nothing_else_there() -> None:
    state = build(". .", origin="C3", hands={0: "bk"})  # C3 land, D3 river
    assert rejected(state, 0, PlaceTile(colour=BLUE, square=at("C3"))) == "farm_off_river"
    assert rejected(state, 0, PlaceTile(colour=BLACK, square=at("D3"))) == "tile_on_river"
    assert rejected(state, 0, PlaceTile(colour=GREEN, square=at("C3"))) == "tile_not_in_hand"


def test_a_tile_may_not_touch_three_kingdoms() -> None:
    three = build(
        """
        .  r  .  .
        .  K0 .  .
        T1 .  P0 r
        r  .  .  .
        """,
        origin="E4",
        hands={0: "kk"},
    )
    assert rejected(three, 0, PlaceTile(colour=BLACK, square=at("F6"))) == "joins_three_kingdoms"


def test_tile_scoring_by_matching_leader_then_king_then_nobody() -> None:
    state = build(
        """
        r  K1 .  .  r  P0 .
        """,
        origin="E4",
        hands={0: "gggrrr"},
    )
    # A market next to Bull's king: no trader there, so the king's owner scores green.
    state, _ = run(state, (0, PlaceTile(colour=GREEN, square=at("G4"))))
    assert points(state, 1) == {"green": 1}
    # A temple next to the priest scores for the priest's owner, king or not.
    state, _ = run(state, (0, PlaceTile(colour=RED, square=at("K4"))))
    assert points(state, 0) == {"red": 1}
    lone = build("r . g", origin="E4", hands={0: "g"})
    lone, events = run(lone, (0, PlaceTile(colour=GREEN, square=at("F4"))))
    assert not of_type(events, ev.PointsScored)


def test_tile_next_to_a_kingdom_and_leaderless_regions_scores_normally() -> None:
    state = build("r P0 . r", origin="E4", hands={0: "r"})
    state, _ = run(state, (0, PlaceTile(colour=RED, square=at("G4"))))
    assert points(state, 0) == {"red": 1}
    regions = Regions(state)
    assert regions.label[at("H4")] == regions.label[at("E4")]


def test_uniting_without_a_shared_colour_scores_nothing_and_lifts_the_marker() -> None:
    state = build("r P0 . K1 r", origin="E4", hands={0: "k"})
    state, events = run(state, (0, PlaceTile(colour=BLACK, square=at("G4"))))
    kinds = [type(e) for e in events]
    assert ev.MarkerPlaced in kinds and ev.MarkerRemoved in kinds
    assert not of_type(events, ev.PointsScored) and state.marker is None


def test_kingdoms_next_to_a_square_match_the_full_labelling() -> None:
    for state in sampled_states()[::3]:
        for lifted in (None, *leader_squares(state)):
            full, local = Regions(state, lifted=lifted), LocalKingdoms(state, lifted=lifted)
            assert local.pieces == full.pieces and local.down == full.down
            for sq in range(SQUARES):
                if full.label[sq] >= 0:
                    continue  # placements ask about empty squares only
                named = {mask(full.members[rid]): rid for rid in full.adjacent_kingdoms(sq)}
                assert local.adjacent_kingdoms(sq) == set(named)
                for kingdom, rid in named.items():
                    for index in range(len(LEADERS)):
                        assert local.leader_of(kingdom, index) == full.leader_of(rid, index)


def test_two_leaders_of_a_colour_in_a_kingdom_are_ordered_as_the_full_labelling_does() -> None:
    # Play never leaves two kings in one kingdom; the flood from E4 meets K0 (E5)
    # before K1 (H4), though H4 is the lower square.
    state = build(
        """
        r  r  r  K1
        K0 .  .  r
        """,
        origin="E4",
    )
    full, local = Regions(state), LocalKingdoms(state)
    (kingdom,) = local.adjacent_kingdoms(at("F5"))
    assert local.leader_of(kingdom, LEADERS.index(Leader.KING)) == 0
    assert full.leader_of(full.label[at("E4")], LEADERS.index(Leader.KING)) == 0
