"""The standard board as data (docs/rules/tigris.md §2) and its derived facts."""

from __future__ import annotations

from shared.games.tigris.board import (
    CORNERS,
    HEIGHT,
    MONUMENTS,
    NEIGHBOURS,
    RIVER,
    SQUARES,
    STARTING_TEMPLES,
    WIDTH,
    blocks_containing,
    col_row,
    label,
    parse,
    square,
)
from shared.games.tigris_common.colours import COLOURS

# The board drawn (docs/rules/tigris.md §2): ~ river, t temple + treasure, T the same on a corner square.
DRAWING = """
. . . . ~ ~ ~ ~ ~ . t . ~ . . .
. T . . ~ . . . . . . . ~ . . T
. . . ~ ~ t . . . . . . ~ ~ . .
~ ~ ~ ~ . . . . . . . . . ~ ~ ~
. . . . . . . . . . . . . t ~ ~
. . . . . . . . . . . . . . ~ .
~ ~ ~ ~ . . . . t . . . ~ ~ ~ .
. T . ~ ~ ~ ~ . . . . . ~ . . .
. . . . . . ~ ~ ~ ~ ~ ~ ~ . T .
. . . . . t . . . . . . . . . .
. . . . . . . . . . t . . . . .
"""


def _drawn(marks: str) -> set[int]:
    rows = [line.split() for line in DRAWING.strip().splitlines()]
    return {square(c, r) for r, row in enumerate(rows) for c, mark in enumerate(row) if mark in marks}


def test_board_data_matches_the_drawing() -> None:
    assert (WIDTH, HEIGHT, SQUARES) == (16, 11, 176)
    assert _drawn("~") == RIVER
    assert _drawn("tT") == set(STARTING_TEMPLES)
    assert _drawn("T") == CORNERS


def test_derived_counts() -> None:
    assert len(RIVER) == 41 and SQUARES - len(RIVER) == 135
    assert len(STARTING_TEMPLES) == 10 and len(CORNERS) == 4 and set(STARTING_TEMPLES) >= CORNERS
    assert not RIVER & set(STARTING_TEMPLES)


def test_starting_temples_neither_touch_nor_share_a_neighbour() -> None:
    for a in STARTING_TEMPLES:
        for b in STARTING_TEMPLES:
            if a != b:
                assert b not in NEIGHBOURS[a]
                assert not set(NEIGHBOURS[a]) & set(NEIGHBOURS[b])


def test_only_one_all_river_square() -> None:
    blocks = {tl for sq in range(SQUARES) for tl in blocks_containing(sq)}
    wet = [tl for tl in blocks if {tl, tl + 1, tl + WIDTH, tl + WIDTH + 1} <= RIVER]
    assert [label(tl) for tl in wet] == ["O4"]


def test_labels_and_neighbours() -> None:
    assert label(square(10, 0)) == "K1" and parse("K1") == 10 and col_row(parse("P11")) == (15, 10)
    assert all(parse(label(sq)) == sq for sq in range(SQUARES))
    assert len(NEIGHBOURS[0]) == 2 and len(NEIGHBOURS[parse("E5")]) == 4
    assert all(a in NEIGHBOURS[b] for a in range(SQUARES) for b in NEIGHBOURS[a])
    assert sorted(blocks_containing(0)) == [0] and len(blocks_containing(parse("E5"))) == 4


def test_six_monuments_cover_every_colour_pair_once() -> None:
    pairs = {frozenset(m.colours) for m in MONUMENTS}
    assert len(pairs) == 6 and all(len(p) == 2 for p in pairs)
    assert all(sum(c in m.colours for m in MONUMENTS) == 3 for c in COLOURS)
