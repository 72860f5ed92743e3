"""Regions and kingdoms (docs/rules/tigris.md §4), derived by flood fill and never stored.

A region is a connected group of squares holding a tile (face up or flipped)
or a leader; a kingdom is a region with at least one leader. The unification
square is a gap while the marker lies on it, and a moving leader is judged
with its own square empty.

``Regions`` labels the whole board; ``LocalKingdoms`` floods, as bit masks,
only the regions next to the square a placement asks about, which is all the
checks run on every action need.
"""

from __future__ import annotations

from itertools import repeat
from operator import is_not
from typing import Protocol

from shared.games.tigris.bitboard import BIT, flood, pieces_mask, tiles_of
from shared.games.tigris.board import NEIGHBOURS, SQUARES, block
from shared.games.tigris.state import State
from shared.games.tigris_common.colours import Colour

#: A leader on the board: (seat, index into LEADERS).
Piece = tuple[int, int]


def leader_squares(state: State) -> dict[int, Piece]:
    return {
        sq: (seat, i) for seat, row in enumerate(state.leaders) for i, sq in enumerate(row) if sq is not None
    }


def flipped(state: State) -> frozenset[int]:
    """Squares whose tiles lie face down under a monument."""
    out: set[int] = set()
    for built in state.monuments:
        out.update(block(built.top_left) or ())
    return frozenset(out)


def face_up(state: State, sq: int, colour: Colour, down: frozenset[int]) -> bool:
    return state.tiles[sq] is colour and sq not in down


def adjacent_temples(state: State, sq: int, down: frozenset[int]) -> int:
    return sum(1 for n in NEIGHBOURS[sq] if state.tiles[n] is Colour.RED and n not in down)


class Kingdoms(Protocol):
    """What the placement rules ask of a board; a kingdom is named by an int that
    means something only to the object that returned it."""

    pieces: dict[int, Piece]  # leaders on the board, by square
    down: frozenset[int]  # squares of flipped tiles

    def adjacent_kingdoms(self, sq: int) -> set[int]: ...

    def leader_of(self, kingdom: int, colour_index: int) -> int | None: ...


class Regions:
    """Region labels of every square (``-1`` = empty) with members and leaders."""

    __slots__ = ("down", "label", "leaders", "members", "occupied", "pieces")

    def __init__(self, state: State, gap: int | None = None, lifted: int | None = None) -> None:
        pieces = leader_squares(state)
        if lifted is not None:
            pieces.pop(lifted, None)
        self.pieces = pieces
        self.down = flipped(state)
        occupied = list(map(is_not, state.tiles, repeat(None)))
        for sq in pieces:
            occupied[sq] = True
        if gap is not None:
            occupied[gap] = False
        self.occupied = occupied
        self.label = [-1] * SQUARES
        self.members: list[list[int]] = []
        self.leaders: list[list[Piece]] = []
        for start in range(SQUARES):
            if occupied[start] and self.label[start] < 0:
                self._fill(start, occupied)
        # Leaders are listed in flood order, found by scanning only the regions that hold one.
        for rid in {self.label[sq] for sq in pieces} - {-1}:
            self.leaders[rid] = [pieces[sq] for sq in self.members[rid] if sq in pieces]

    def _fill(self, start: int, occupied: list[bool]) -> None:
        rid = len(self.members)
        label, neighbours = self.label, NEIGHBOURS
        label[start] = rid
        members = [start]
        # ``members`` doubles as the work queue: a breadth-first flood fill.
        for sq in members:
            for n in neighbours[sq]:
                if occupied[n] and label[n] < 0:
                    label[n] = rid
                    members.append(n)
        self.members.append(members)
        self.leaders.append([])

    def adjacent_kingdoms(self, sq: int) -> set[int]:
        label, leaders = self.label, self.leaders
        return {label[n] for n in NEIGHBOURS[sq] if label[n] >= 0 and leaders[label[n]]}

    def leader_of(self, rid: int, colour_index: int) -> int | None:
        """The seat owning the kingdom's leader of that colour, if any."""
        for seat, i in self.leaders[rid]:
            if i == colour_index:
                return seat
        return None

    def kingdoms(self) -> list[int]:
        return [rid for rid, leaders in enumerate(self.leaders) if leaders]


class LocalKingdoms:
    """The kingdoms next to one square, flooded on demand as masks (a kingdom is
    named by its mask): a single placement needs no labelling of the whole board."""

    __slots__ = ("_lifted", "_occupied", "_pieces", "_state", "down", "pieces")

    def __init__(self, state: State, lifted: int | None = None) -> None:
        pieces = leader_squares(state)
        if lifted is not None:
            pieces.pop(lifted, None)
        self.pieces = pieces
        self.down = flipped(state)
        self._pieces = pieces_mask(state.leaders) & ~(0 if lifted is None else BIT[lifted])
        self._occupied = tiles_of(state) | self._pieces
        self._state = state
        self._lifted = lifted

    def adjacent_kingdoms(self, sq: int) -> set[int]:
        out: set[int] = set()
        seen = 0
        for n in NEIGHBOURS[sq]:
            bit = BIT[n]
            if self._occupied & bit and not seen & bit:
                region = flood(bit, self._occupied)
                seen |= region
                if region & self._pieces:
                    out.add(region)
        return out

    def leader_of(self, kingdom: int, colour_index: int) -> int | None:
        seats = [seat for sq, (seat, i) in self.pieces.items() if i == colour_index and kingdom & BIT[sq]]
        if len(seats) > 1:
            # Two leaders of a colour in one kingdom: play never asks (each meeting is
            # settled at once); kept exact all the same: the full labelling's order decides.
            regions = Regions(self._state, lifted=self._lifted)
            return regions.leader_of(regions.label[(kingdom & -kingdom).bit_length() - 1], colour_index)
        return seats[0] if seats else None


def stranded(state: State) -> list[Piece]:
    """Leaders with no adjacent face-up temple: they must go home (docs/rules/tigris.md §14)."""
    down = flipped(state)
    return [
        (seat, i)
        for seat, row in enumerate(state.leaders)
        for i, sq in enumerate(row)
        if sq is not None and adjacent_temples(state, sq, down) == 0
    ]
