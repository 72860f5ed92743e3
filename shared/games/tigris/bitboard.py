"""The board as bit masks: bit ``sq`` of a Python int stands for square ``sq``.

Legal-move generation asks set questions about the whole board at once
(which empty squares touch two kingdoms? where may a catastrophe go?); on
masks each is a handful of integer operations instead of a loop over 176
squares. Square lists come back out through ``flags``, in ascending order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import repeat
from operator import is_, is_not
from typing import Generic, TypeVar

from shared.games.tigris.board import HEIGHT, RIVER, SQUARES, WIDTH, block
from shared.games.tigris.state import BuiltMonument, State
from shared.games.tigris_common.colours import Colour

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


Tiles = tuple[Colour | None, ...]

# The masks of the tile tuples met lately, by identity. An entry holds its tuple, so
# no other object can take its ``id`` while it is here, and tuples are immutable, so
# an entry is right for as long as it stays. Each tuple is scanned once per process,
# or never: ``evolve`` derives a new tuple's masks from its predecessor's (``retiled``).
_TILE_MASKS: dict[int, tuple[Tiles, int, int]] = {}
_MEMO_SIZE = 512


def _tile_masks(tiles: Tiles) -> tuple[Tiles, int, int]:
    """(``tiles``, squares holding a tile, squares holding a red one)."""
    entry = _TILE_MASKS.get(id(tiles))
    if entry is None or entry[0] is not tiles:
        entry = (
            tiles,
            from_flags(bytes(map(is_not, tiles, repeat(None)))),
            from_flags(bytes(map(is_, tiles, repeat(Colour.RED)))),
        )
        _remember(id(tiles), entry)
    return entry


def _remember(key: int, entry: tuple[Tiles, int, int]) -> None:
    if len(_TILE_MASKS) >= _MEMO_SIZE:
        _TILE_MASKS.clear()  # many tables in one process: start over rather than grow
    _TILE_MASKS[key] = entry


def retiled(before: Tiles, after: Tiles, changed: Iterable[int]) -> None:
    """Record ``after``'s masks when they follow from ``before``'s: ``after`` is
    ``before`` with only the squares ``changed`` rewritten (a fold step)."""
    entry = _TILE_MASKS.get(id(before))
    if entry is None or entry[0] is not before:
        return  # nothing known to derive from: ``after`` is scanned if it is asked about
    _, tiles, red = entry
    for sq in changed:
        bit = BIT[sq]
        colour = after[sq]
        tiles = tiles | bit if colour is not None else tiles & ~bit
        red = red | bit if colour is Colour.RED else red & ~bit
    _remember(id(after), (after, tiles, red))


def tiles_of(state: State) -> int:
    """Squares holding a civilisation tile, face up or flipped."""
    return _tile_masks(state.tiles)[1]


def red_of(state: State) -> int:
    """Squares holding a red tile (temples), face up or flipped."""
    return _tile_masks(state.tiles)[2]


O = TypeVar("O")


class _ByIdentity(Generic[O]):
    """A mask derived from an immutable value, remembered by the value's identity
    (a state shares its unchanged parts with the state before it); like the tile
    masks above, an entry holds its value, so the ``id`` cannot be reused under it."""

    __slots__ = ("_derive", "_known")

    def __init__(self, derive: Callable[[O], int]) -> None:
        self._derive = derive
        self._known: dict[int, tuple[O, int]] = {}

    def __call__(self, value: O) -> int:
        entry = self._known.get(id(value))
        if entry is not None and entry[0] is value:
            return entry[1]
        derived = self._derive(value)
        if len(self._known) >= _MEMO_SIZE:
            self._known.clear()
        self._known[id(value)] = (value, derived)
        return derived


def _down(monuments: tuple[BuiltMonument, ...]) -> int:
    down = 0
    for built in monuments:
        down |= BLOCK[built.top_left]
    return down


#: The squares of a tuple of squares (treasures, catastrophes).
squares_mask: _ByIdentity[tuple[int, ...]] = _ByIdentity(mask)
#: Squares holding a leader, from ``State.leaders``.
pieces_mask: _ByIdentity[tuple[tuple[int | None, ...], ...]] = _ByIdentity(
    lambda leaders: mask(sq for row in leaders for sq in row if sq is not None)
)
#: Tiles lying face down under a monument, from ``State.monuments``.
down_mask: _ByIdentity[tuple[BuiltMonument, ...]] = _ByIdentity(_down)


class Masks:
    """What stands where on a state's board, as masks."""

    __slots__ = ("catastrophes", "down", "occupied", "pieces", "tiles")

    def __init__(self, state: State) -> None:
        self.tiles = tiles_of(state)
        self.pieces = pieces_mask(state.leaders)
        #: Squares that belong to regions: a tile (face up or flipped) or a leader.
        self.occupied = self.tiles | self.pieces
        self.catastrophes = squares_mask(state.catastrophes)
        #: Tiles lying face down under a monument.
        self.down = down_mask(state.monuments)
