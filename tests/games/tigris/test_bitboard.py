"""The board as bit masks agrees with the board as square lists."""

from __future__ import annotations

from shared.games.tigris.bitboard import (
    BIT,
    BLOCK,
    RIVER_MASK,
    Masks,
    flags,
    flood,
    from_flags,
    mask,
    regions_of,
    spread,
)
from shared.games.tigris.board import NEIGHBOURS, RIVER, SQUARES, block
from shared.games.tigris.rules import treasures
from shared.games.tigris.rules.kingdoms import Regions, flipped, leader_squares
from tests.games.tigris.boards import at, build
from tests.games.tigris.positions import sampled_states


def squares(m: int) -> list[int]:
    return [sq for sq in range(SQUARES) if m & BIT[sq]]


def test_neighbours_never_wrap_around_the_edges() -> None:
    for sq in range(SQUARES):
        assert squares(spread(BIT[sq])) == sorted(NEIGHBOURS[sq])
    assert squares(RIVER_MASK) == sorted(RIVER)
    assert all(squares(BLOCK[sq]) == sorted(block(sq) or ()) for sq in range(SQUARES))


def test_flags_list_a_mask_in_square_order_and_back() -> None:
    for m in (0, BIT[0], BIT[SQUARES - 1], RIVER_MASK, (1 << SQUARES) - 1, mask(range(3, SQUARES, 7))):
        f = flags(m)
        assert len(f) == SQUARES and [sq for sq in range(SQUARES) if f[sq]] == squares(m)
        assert from_flags(f) == m


def test_floods_find_the_regions_of_the_full_labelling() -> None:
    for state in sampled_states():
        board, regions = Masks(state), Regions(state)
        assert board.occupied == mask(sq for sq in range(SQUARES) if regions.occupied[sq])
        assert board.pieces == mask(leader_squares(state))
        assert board.down == mask(flipped(state))
        assert board.catastrophes == mask(state.catastrophes)
        for members in regions.members:
            assert flood(BIT[members[-1]], board.occupied) == mask(members)
        kingdoms = [mask(regions.members[rid]) for rid in regions.kingdoms()]
        assert sorted(regions_of(board.pieces, board.occupied)) == sorted(kingdoms)


def test_treasures_owed_match_the_full_labelling() -> None:
    for state in sampled_states():
        assert treasures.due(state) == treasures._due_by_regions(state)
    # Two traders in one kingdom never happens in play; the flood from E4 meets
    # T1 (E5) before T0 (H4), so seat 1 is owed, as the full labelling says.
    state = build(
        """
        r* r  r* T0
        T1 .  .  r
        """,
        origin="E4",
    )
    assert treasures.due(state) == treasures._due_by_regions(state) == (1, 1, (at("E4"), at("G4")))
