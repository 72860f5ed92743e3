"""What a seat may ask for: imperative names, a namespaced tag each."""

from __future__ import annotations

from shared.games.tigris.board import Monument
from shared.games.tigris_common.colours import Colour, Leader
from shared.kernel.messages import Command


class PositionLeader(Command, frozen=True, tag="tigris.position_leader"):
    """Put a leader from the supply on ``square``, or move it there from the board."""

    leader: Leader
    square: int


class WithdrawLeader(Command, frozen=True, tag="tigris.withdraw_leader"):
    leader: Leader


class PlaceTile(Command, frozen=True, tag="tigris.place_tile"):
    colour: Colour
    square: int


class PlaceCatastrophe(Command, frozen=True, tag="tigris.place_catastrophe"):
    square: int


class SwapTiles(Command, frozen=True, tag="tigris.swap_tiles"):
    """Discard this many tiles of each colour and draw as many from the bag."""

    red: int = 0
    blue: int = 0
    green: int = 0
    black: int = 0


class Pass(Command, frozen=True, tag="tigris.pass"):
    pass


class CommitSupport(Command, frozen=True, tag="tigris.commit_support"):
    """Commit ``count`` tiles of the conflict's supporter colour from hand."""

    count: int


class ChooseWarColour(Command, frozen=True, tag="tigris.choose_war_colour"):
    colour: Colour


class BuildMonument(Command, frozen=True, tag="tigris.build_monument"):
    top_left: int
    monument: Monument


class DeclineMonument(Command, frozen=True, tag="tigris.decline_monument"):
    pass


class TakeTreasures(Command, frozen=True, tag="tigris.take_treasures"):
    squares: tuple[int, ...]  # ascending


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
