"""The full, server-side state: frozen records only, no behaviour.

Per-colour counts (hands, points, tiles out of the game) are 4-tuples in the
order of ``tigris_common.colours.COLOURS``; a seat's leaders are a 4-tuple of
squares (``None`` = in front of the screen) in the order of ``LEADERS``.
Kingdoms are never stored: they are derived by flood fill when needed.
"""

from __future__ import annotations

from typing import Literal

from shared.games.tigris.board import Monument
from shared.games.tigris.options import Options
from shared.games.tigris_common.colours import Colour
from shared.kernel.messages import Record

Counts = tuple[int, int, int, int]
NO_COUNTS: Counts = (0, 0, 0, 0)

#: Where an interrupted action or turn resumes after a seat's decision.
Stage = Literal["wars", "monument", "treasures", "end_action", "turn_treasures", "turn_end"]


class Phase(Record, frozen=True, tag_field="kind"):
    """Who is awaited and for what."""


class Acting(Phase, frozen=True, tag="acting"):
    """The active seat chooses its next action."""


class Support(Phase, frozen=True, tag="support"):
    """A conflict: the attacker commits tiles, then the defender does."""

    conflict: Literal["revolt", "war"]
    colour: Colour  # the leaders' colour (the supporters' colour too, except revolts: red)
    attacker: int
    defender: int
    attacker_base: int
    defender_base: int
    attacker_commit: int | None = None


class ChooseWar(Phase, frozen=True, tag="choose_war"):
    """Several wars are pending; the active seat picks the next colour."""

    colours: tuple[Colour, ...]


class MonumentOption(Record, frozen=True):
    top_left: int
    monument: Monument


class ChooseMonument(Phase, frozen=True, tag="choose_monument"):
    options: tuple[MonumentOption, ...]


class ChooseTreasures(Phase, frozen=True, tag="choose_treasures"):
    """A trader's owner picks which treasures of one kingdom to take."""

    seat: int
    count: int
    candidates: tuple[int, ...]  # every treasure square of the kingdom
    stage: Stage  # treasure collection resumes here afterwards


class Over(Phase, frozen=True, tag="over"):
    reason: str


AnyPhase = Acting | Support | ChooseWar | ChooseMonument | ChooseTreasures | Over


class BuiltMonument(Record, frozen=True):
    monument: Monument
    top_left: int


class State(Record, frozen=True):
    options: Options
    seats: int
    tiles: tuple[Colour | None, ...]  # a civilisation tile per square, face up or flipped
    monuments: tuple[BuiltMonument, ...] = ()
    treasures: tuple[int, ...] = ()  # squares holding a treasure, sorted
    catastrophes: tuple[int, ...] = ()  # sorted squares
    leaders: tuple[tuple[int | None, ...], ...] = ()
    marker: int | None = None  # the unification tile, only while wars are resolved
    bag: tuple[Colour, ...] = ()  # draw order: front first (server only)
    hands: tuple[Counts, ...] = ()
    points: tuple[Counts, ...] = ()
    treasures_won: tuple[int, ...] = ()
    catastrophes_left: tuple[int, ...] = ()
    out_of_game: Counts = NO_COUNTS  # discarded, committed, destroyed, removed in wars
    first: int = 0  # the start player (turn order for the optional tie-break)
    active: int = 0
    actions_done: int = 0
    placed: int | None = None  # the tile placed by the current action (monument trigger)
    #: Squares whose tiles were in a declined monument square: those tiles never carry a
    #: monument (docs/rules/tigris.md §12.2). A square leaves the set with its tile.
    declined: tuple[int, ...] = ()
    #: Finished turns in a row in which no tile was drawn and no treasure taken (§16.2).
    quiet_turns: int = 0
    #: A tile was drawn or a treasure taken in the current turn.
    progressed: bool = False
    phase: AnyPhase = Acting()
