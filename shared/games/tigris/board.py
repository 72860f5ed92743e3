"""The standard board (docs/rules/tigris.md §2) as data, and its fixed geometry.

Squares are integers ``row * 16 + col`` so that state stays compact and JSON
keys stay plain ints; ``label`` gives the BGA-style name (``K1``) for people.
"""

from __future__ import annotations

from enum import StrEnum

from shared.games.tigris_common.colours import COLOURS, Colour

WIDTH = 16
HEIGHT = 11
SQUARES = WIDTH * HEIGHT
HAND_SIZE = 6
CATASTROPHES_PER_SEAT = 2
#: Every civilisation tile in the box, by colour (docs/rules/tigris.md §2).
TILE_COUNTS: dict[Colour, int] = {Colour.RED: 57, Colour.BLUE: 36, Colour.GREEN: 30, Colour.BLACK: 30}
#: Index of each colour in per-colour tuples (hands, points): the COLOURS order.
INDEX: dict[Colour, int] = {c: i for i, c in enumerate(COLOURS)}
_LETTERS = "ABCDEFGHIJKLMNOP"


def square(col: int, row: int) -> int:
    return row * WIDTH + col


def col_row(sq: int) -> tuple[int, int]:
    return sq % WIDTH, sq // WIDTH


def label(sq: int) -> str:
    col, row = col_row(sq)
    return f"{_LETTERS[col]}{row + 1}"


def parse(name: str) -> int:
    return square(_LETTERS.index(name[0].upper()), int(name[1:]) - 1)


_RIVER_BY_ROW: dict[int, tuple[int, ...]] = {
    0: (4, 5, 6, 7, 8, 12),
    1: (4, 12),
    2: (3, 4, 12, 13),
    3: (0, 1, 2, 3, 13, 14, 15),
    4: (14, 15),
    5: (14,),
    6: (0, 1, 2, 3, 12, 13, 14),
    7: (3, 4, 5, 6, 12),
    8: (6, 7, 8, 9, 10, 11, 12),
}
RIVER: frozenset[int] = frozenset(square(c, r) for r, cols in _RIVER_BY_ROW.items() for c in cols)
STARTING_TEMPLES: tuple[int, ...] = tuple(
    sorted(parse(n) for n in ("K1", "B2", "P2", "F3", "N5", "I7", "B8", "O9", "F10", "K11"))
)
#: Treasures on these bordered squares must be taken first (docs/rules/tigris.md §13).
CORNERS: frozenset[int] = frozenset(parse(n) for n in ("B2", "P2", "B8", "O9"))


def _neighbours(sq: int) -> tuple[int, ...]:
    col, row = col_row(sq)
    steps = ((0, -1), (-1, 0), (1, 0), (0, 1))
    return tuple(
        square(col + dc, row + dr) for dc, dr in steps if 0 <= col + dc < WIDTH and 0 <= row + dr < HEIGHT
    )


#: Orthogonal neighbours only: diagonal contact never connects (docs/rules/tigris.md §2).
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(sq) for sq in range(SQUARES))


def block(top_left: int) -> tuple[int, int, int, int] | None:
    """The 2x2 block whose north-west square is ``top_left``, if on the board."""
    col, row = col_row(top_left)
    if col + 1 >= WIDTH or row + 1 >= HEIGHT:
        return None
    return (top_left, top_left + 1, top_left + WIDTH, top_left + WIDTH + 1)


def blocks_containing(sq: int) -> tuple[int, ...]:
    """North-west corners of every on-board 2x2 block that includes ``sq``."""
    col, row = col_row(sq)
    corners = (square(col - dc, row - dr) for dr in (1, 0) for dc in (1, 0) if col >= dc and row >= dr)
    return tuple(tl for tl in corners if block(tl) is not None)


class Monument(StrEnum):
    """The six monuments, one per unordered pair of distinct colours (docs/rules/tigris.md §2, §12)."""

    BLACK_RED = "black_red"
    BLACK_BLUE = "black_blue"
    BLACK_GREEN = "black_green"
    RED_BLUE = "red_blue"
    RED_GREEN = "red_green"
    BLUE_GREEN = "blue_green"

    @property
    def colours(self) -> tuple[Colour, Colour]:
        # Looked up, not parsed: the monument check asks on every tile placed.
        return _PAIRS[self]


MONUMENTS: tuple[Monument, ...] = tuple(Monument)


def _pair(monument: Monument) -> tuple[Colour, Colour]:
    first, second = monument.value.split("_")
    return Colour(first), Colour(second)


_PAIRS: dict[Monument, tuple[Colour, Colour]] = {m: _pair(m) for m in MONUMENTS}
