"""The four civilisation colours and the leader that belongs to each."""

from __future__ import annotations

from enum import StrEnum


class Colour(StrEnum):
    RED = "red"  # temples; the priest
    BLUE = "blue"  # farms; the farmer
    GREEN = "green"  # markets; the trader
    BLACK = "black"  # settlements; the king

    @property
    def leader(self) -> Leader:
        return _LEADER_OF[self]


class Leader(StrEnum):
    PRIEST = "priest"
    FARMER = "farmer"
    TRADER = "trader"
    KING = "king"

    @property
    def colour(self) -> Colour:
        return _COLOUR_OF[self]


COLOURS: tuple[Colour, ...] = (Colour.RED, Colour.BLUE, Colour.GREEN, Colour.BLACK)
LEADERS: tuple[Leader, ...] = (Leader.PRIEST, Leader.FARMER, Leader.TRADER, Leader.KING)

_LEADER_OF = dict(zip(COLOURS, LEADERS, strict=True))
_COLOUR_OF = dict(zip(LEADERS, COLOURS, strict=True))
