"""The board as bit masks: bit ``sq`` of a Python int stands for square ``sq``.

Legal-move generation asks set questions about the whole board at once
(which empty squares touch two kingdoms? where may a catastrophe go?); on
masks each is a handful of integer operations instead of a loop over 176
squares. Square lists come back out through ``flags``, in ascending order.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import repeat
from operator import is_not

from shared.games.tigris.board import HEIGHT, RIVER, SQUARES, WIDTH, block
from shared.games.tigris.state import State

BOARD = (1 << SQUARES) - 1
BIT: tuple[int, ...] = tuple(1 << sq for sq in range(SQUARES))
_WEST_EDGE = sum(BIT[row * WIDTH] for row in range(HEIGHT))
_EAST_EDGE = sum(BIT[row * WIDTH + WIDTH - 1] for row in range(HEIGHT))
# A shift by one square east (west) would wrap the east (west) edge onto the next
# (previous) row; these keep the shifted bits that did not.
_NOT_WEST_EDGE = BOARD & ~_WEST_EDGE
_NOT_EAST_EDGE = BOARD & ~_EAST_EDGE
RIVER_MASK = sum(BIT[sq] for sq in RIVER)
#: The 2x2 block whose north-west square is the index (0 where it leaves the board).
BLOCK: tuple[int, ...] = tuple(sum(BIT[x] for x in block(sq) or ()) for sq in range(SQUARES))

_WIDTH_FORMAT = f"0{SQUARES}b"
_DIGITS_TO_FLAGS = bytes.maketrans(b"01", b"\x00\x01")
_FLAGS_TO_DIGITS = bytes.maketrans(b"\x00\x01", b"01")


def mask(squares: Iterable[int]) -> int:
    out = 0
    for sq in squares:
        out |= BIT[sq]
    return out


def spread(m: int) -> int:
    """Every square orthogonally next to a square of ``m`` (``m``'s own squares only
    where two of them touch)."""
    return ((m << 1) & _NOT_WEST_EDGE) | ((m >> 1) & _NOT_EAST_EDGE) | ((m << WIDTH) & BOARD) | (m >> WIDTH)


def flood(seed: int, within: int) -> int:
    """The squares of ``within`` connected to ``seed`` (which lies inside ``within``)."""
    m = seed
    while True:
        # ``spread`` inlined: this loop is the hottest of legal-move generation.
        grown = m | ((m << 1) & _NOT_WEST_EDGE) | ((m >> 1) & _NOT_EAST_EDGE) | (m << WIDTH) | (m >> WIDTH)
        grown &= within
        if grown == m:
            return m
        m = grown


def regions_of(seeds: int, within: int) -> list[int]:
    """The connected parts of ``within`` that hold a square of ``seeds``, as disjoint
    masks ordered by their lowest seed square."""
    out = []
    while seeds:
        region = flood(seeds & -seeds, within)
        out.append(region)
        seeds &= ~region
    return out


def flags(m: int) -> bytes:
    """One byte per square, 1 where ``m`` has the square: ``itertools.compress`` over a
    per-square table then yields the chosen entries in square order."""
    return format(m, _WIDTH_FORMAT).encode()[::-1].translate(_DIGITS_TO_FLAGS)


def from_flags(f: bytes) -> int:
    """The mask of a per-square sequence of 0/1 bytes (the inverse of ``flags``)."""
    return int(f.translate(_FLAGS_TO_DIGITS)[::-1], 2)


def tiles_of(state: State) -> int:
    """Squares holding a civilisation tile, face up or flipped."""
    return from_flags(bytes(map(is_not, state.tiles, repeat(None))))


class Masks:
    """What stands where on a state's board, as masks."""

    __slots__ = ("catastrophes", "down", "occupied", "pieces", "tiles")

    def __init__(self, state: State) -> None:
        self.tiles = tiles_of(state)
        self.pieces = mask(sq for row in state.leaders for sq in row if sq is not None)
        #: Squares that belong to regions: a tile (face up or flipped) or a leader.
        self.occupied = self.tiles | self.pieces
        self.catastrophes = mask(state.catastrophes)
        down = 0
        for built in state.monuments:
            down |= BLOCK[built.top_left]
        #: Tiles lying face down under a monument.
        self.down = down
