"""What a seat may ask for: imperative names, a namespaced tag each."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from shared.games.tigris.board import HAND_SIZE, SQUARES, STARTING_TEMPLES, Monument
from shared.games.tigris_common.colours import Colour, Leader
from shared.kernel.messages import Command

Square = Annotated[int, Meta(ge=0, le=SQUARES - 1)]
#: Tiles of one colour named from a hand, which never holds more than six.
HandTiles = Annotated[int, Meta(ge=0, le=HAND_SIZE)]
#: Treasures start on the temples and are never added, so no pick names more.
TreasureSquares = Annotated[tuple[Square, ...], Meta(max_length=len(STARTING_TEMPLES))]


class PositionLeader(Command, tag="tigris.position_leader"):
    """Put a leader from the supply on ``square``, or move it there from the board."""

    leader: Leader
    square: Square


class WithdrawLeader(Command, tag="tigris.withdraw_leader"):
    leader: Leader


class PlaceTile(Command, tag="tigris.place_tile"):
    colour: Colour
    square: Square


class PlaceCatastrophe(Command, tag="tigris.place_catastrophe"):
    square: Square


class SwapTiles(Command, tag="tigris.swap_tiles"):
    """Discard this many tiles of each colour and draw as many from the bag."""

    red: HandTiles = 0
    blue: HandTiles = 0
    green: HandTiles = 0
    black: HandTiles = 0


class Pass(Command, tag="tigris.pass"):
    pass


class CommitSupport(Command, tag="tigris.commit_support"):
    """Commit ``count`` tiles of the conflict's supporter colour from hand."""

    count: HandTiles


class ChooseWarColour(Command, tag="tigris.choose_war_colour"):
    colour: Colour


class BuildMonument(Command, tag="tigris.build_monument"):
    top_left: Square
    monument: Monument


class DeclineMonument(Command, tag="tigris.decline_monument"):
    pass


class TakeTreasures(Command, tag="tigris.take_treasures"):
    squares: TreasureSquares  # ascending


TigrisCommand = (
    PositionLeader
    | WithdrawLeader
    | PlaceTile
    | PlaceCatastrophe
    | SwapTiles
    | Pass
    | CommitSupport
    | ChooseWarColour
    | BuildMonument
    | DeclineMonument
    | TakeTreasures
)
