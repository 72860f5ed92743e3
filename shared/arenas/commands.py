"""Commands on an arena. Times come from the shell; table ids are derived by the rules."""

from __future__ import annotations

from typing import Annotated

import msgspec

from shared.kernel.bounds import MAX_SEATS, EpochMs, Name, RawOptions, SeatCount
from shared.kernel.levels import Level
from shared.kernel.messages import Command
from shared.tournaments.commands import Placing

#: Bots an arena enters at most: enough to fill tables for every waiting person, few
#: enough that bots (which never leave) do not crowd the queue.
MAX_BOTS = 16


class ArenaCommand(Command, kw_only=True):
    at_ms: EpochMs = 0


class Create(ArenaCommand, tag="arena.create", kw_only=True):
    arena_id: Name
    game: Name
    game_options: RawOptions = msgspec.field(default_factory=dict)
    seats: SeatCount = 2
    starts_at_ms: EpochMs
    ends_at_ms: EpochMs
    #: The level of each of our bots entered from the start (they play whoever waits).
    bots: Annotated[tuple[Level, ...], msgspec.Meta(max_length=MAX_BOTS)] = ()


class Join(ArenaCommand, tag="arena.join"):
    player_id: Name


class Leave(ArenaCommand, tag="arena.leave"):
    player_id: Name


class Pair(ArenaCommand, tag="arena.pair"):
    """Seat whoever is waiting at new tables, as many as are full."""


class Score(ArenaCommand, tag="arena.score"):
    table_id: Name
    placings: Annotated[tuple[Placing, ...], msgspec.Meta(max_length=MAX_SEATS)]


class Close(ArenaCommand, tag="arena.close"):
    """The window is over: nobody waits any more (tables in play still count)."""


ArenaCommandUnion = Create | Join | Leave | Pair | Score | Close
