"""Regions and kingdoms (digest 1.6), derived by flood fill and never stored.

A region is a connected group of squares holding a tile (face up or flipped)
or a leader; a kingdom is a region with at least one leader. The unification
square is a gap while the marker lies on it, and a moving leader is judged
with its own square empty.
"""

from __future__ import annotations

from shared.games.tigris.board import NEIGHBOURS, SQUARES, block
from shared.games.tigris.state import State
from shared.games.tigris_common.colours import LEADERS, Colour, Leader

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


class Regions:
    """Region labels of every square (``-1`` = empty) with members and leaders."""

    __slots__ = ("down", "label", "leaders", "members", "occupied", "pieces")

    def __init__(self, state: State, gap: int | None = None, lifted: int | None = None) -> None:
        pieces = leader_squares(state)
        if lifted is not None:
            pieces.pop(lifted, None)
        self.pieces = pieces
        self.down = flipped(state)
        tiles = state.tiles
        occupied = [tiles[sq] is not None or sq in pieces for sq in range(SQUARES)]
        if gap is not None:
            occupied[gap] = False
        self.occupied = occupied
        self.label = [-1] * SQUARES
        self.members: list[list[int]] = []
        self.leaders: list[list[Piece]] = []
        for start in range(SQUARES):
            if occupied[start] and self.label[start] < 0:
                self._fill(start, occupied, pieces)

    def _fill(self, start: int, occupied: list[bool], pieces: dict[int, Piece]) -> None:
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
        leaders = [pieces[sq] for sq in members if sq in pieces] if pieces else []
        self.members.append(members)
        self.leaders.append(leaders)

    def without(self, sq: int) -> Regions:
        """The same board with the leader on ``sq`` lifted: only its own region
        is flooded again (legal-move generation does this for every leader)."""
        new = object.__new__(Regions)
        new.down = self.down
        new.pieces = {k: v for k, v in self.pieces.items() if k != sq}
        new.occupied = list(self.occupied)
        new.occupied[sq] = False
        new.label = list(self.label)
        new.members, new.leaders = list(self.members), list(self.leaders)
        old = self.label[sq]
        new.members[old], new.leaders[old] = [], []
        for member in self.members[old]:
            new.label[member] = -1
        for member in self.members[old]:
            if new.occupied[member] and new.label[member] < 0:
                new._fill(member, new.occupied, new.pieces)
        return new

    def is_kingdom(self, rid: int) -> bool:
        return bool(self.leaders[rid])

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


def leader_index(leader: Leader) -> int:
    return LEADERS.index(leader)


def stranded(state: State) -> list[Piece]:
    """Leaders with no adjacent face-up temple: they must go home (digest 1.15)."""
    down = flipped(state)
    return [
        (seat, i)
        for seat, row in enumerate(state.leaders)
        for i, sq in enumerate(row)
        if sq is not None and adjacent_temples(state, sq, down) == 0
    ]
