"""What happened: past-tense names, a namespaced tag each.

Every decision and outcome is recorded here (drawn tiles, conflict winners,
removed squares, points), so ``evolve`` only applies facts. Private facts come
as a private event plus a public shadow (``TilesDrawn`` / ``TilesDrawnCount``).
"""

from __future__ import annotations

from typing import Literal

from shared.games.tigris.board import Monument
from shared.games.tigris.options import Options
from shared.games.tigris.state import MonumentOption, Stage
from shared.games.tigris_common.colours import Colour, Leader
from shared.kernel.messages import Event


class GameStarted(Event, tag="tigris.game_started"):
    seats: int
    options: Options
    first: int  # the start player, drawn at random
    temples: tuple[int, ...]  # starting temples, each with a treasure


class BagFilled(Event, tag="tigris.bag_filled"):
    """The bag's draw order (server only until the game is over)."""

    order: tuple[Colour, ...]


class TilesDrawn(Event, tag="tigris.tiles_drawn"):
    seat: int
    tiles: tuple[Colour, ...]


class TilesDrawnCount(Event, tag="tigris.tiles_drawn_count"):
    seat: int
    count: int


class TilesDiscarded(Event, tag="tigris.tiles_discarded"):
    seat: int
    tiles: tuple[Colour, ...]


class TilesDiscardedCount(Event, tag="tigris.tiles_discarded_count"):
    seat: int
    count: int


class TurnStarted(Event, tag="tigris.turn_started"):
    seat: int
    #: Finished turns in a row so far in which no tile was drawn and no treasure taken
    #: (docs/rules/tigris.md §16.2); absent from games stored before it existed.
    quiet: int = 0


class LeaderPositioned(Event, tag="tigris.leader_positioned"):
    seat: int
    leader: Leader
    square: int
    origin: int | None  # the square it was moved from, None from the supply


class LeaderReturned(Event, tag="tigris.leader_returned"):
    seat: int
    leader: Leader
    reason: Literal["withdrawn", "revolt", "war", "no_temple"]


class TilePlaced(Event, tag="tigris.tile_placed"):
    seat: int
    colour: Colour
    square: int


class MarkerPlaced(Event, tag="tigris.marker_placed"):
    square: int


class MarkerRemoved(Event, tag="tigris.marker_removed"):
    square: int


class PointsScored(Event, tag="tigris.points_scored"):
    """Taken in plain sight, as at the table; views show totals to the owner only."""

    seat: int
    colour: Colour
    amount: int
    reason: Literal["tile", "revolt", "war", "monument"]


class CatastrophePlaced(Event, tag="tigris.catastrophe_placed"):
    seat: int
    square: int
    destroyed: Colour | None


class ActionPassed(Event, tag="tigris.action_passed"):
    seat: int


class RevoltStarted(Event, tag="tigris.revolt_started"):
    colour: Colour
    attacker: int
    defender: int
    attacker_base: int
    defender_base: int


class WarsPending(Event, tag="tigris.wars_pending"):
    colours: tuple[Colour, ...]


class WarStarted(Event, tag="tigris.war_started"):
    colour: Colour
    attacker: int
    defender: int
    attacker_base: int
    defender_base: int


class SupportCommitted(Event, tag="tigris.support_committed"):
    """Committed tiles are public once committed and leave the game."""

    seat: int
    colour: Colour
    count: int


class ConflictResolved(Event, tag="tigris.conflict_resolved"):
    conflict: Literal["revolt", "war"]
    colour: Colour
    winner: int
    loser: int
    attacker_total: int
    defender_total: int


class TilesRemoved(Event, tag="tigris.tiles_removed"):
    """The loser's supporters removed by a war, out of the game."""

    colour: Colour
    squares: tuple[int, ...]


class MonumentOffered(Event, tag="tigris.monument_offered"):
    seat: int
    options: tuple[MonumentOption, ...]


class MonumentBuilt(Event, tag="tigris.monument_built"):
    seat: int
    monument: Monument
    top_left: int


class MonumentDeclined(Event, tag="tigris.monument_declined"):
    """The squares offered and turned down; their tiles never carry a monument (§12.2)."""

    seat: int
    top_lefts: tuple[int, ...]


class TreasureChoiceOffered(Event, tag="tigris.treasure_choice_offered"):
    seat: int
    count: int
    candidates: tuple[int, ...]
    stage: Stage


class TreasuresTaken(Event, tag="tigris.treasures_taken"):
    seat: int
    squares: tuple[int, ...]


class ActionEnded(Event, tag="tigris.action_ended"):
    seat: int
    number: int  # 1 or 2


class GameEnded(Event, tag="tigris.game_ended"):
    reason: Literal["treasures", "bag_empty", "stalemate"]


TigrisEvent = (
    GameStarted
    | BagFilled
    | TilesDrawn
    | TilesDrawnCount
    | TilesDiscarded
    | TilesDiscardedCount
    | TurnStarted
    | LeaderPositioned
    | LeaderReturned
    | TilePlaced
    | MarkerPlaced
    | MarkerRemoved
    | PointsScored
    | CatastrophePlaced
    | ActionPassed
    | RevoltStarted
    | WarsPending
    | WarStarted
    | SupportCommitted
    | ConflictResolved
    | TilesRemoved
    | MonumentOffered
    | MonumentBuilt
    | MonumentDeclined
    | TreasureChoiceOffered
    | TreasuresTaken
    | ActionEnded
    | GameEnded
)
