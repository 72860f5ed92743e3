"""Events of an arena: facts with every decision (who sits where) written in."""

from __future__ import annotations

from typing import Any

from shared.kernel.messages import Event, Record
from shared.tournaments.commands import Placing


class Seated(Record, frozen=True):
    table_id: str
    #: Seat order: seat 0 first.
    players: tuple[str, ...]


class ArenaEvent(Event, kw_only=True):
    at_ms: int = 0


class Created(ArenaEvent, tag="arena.created", kw_only=True):
    arena_id: str
    game: str
    game_options: dict[str, Any]
    seats: int
    starts_at_ms: int
    ends_at_ms: int
    #: The level of each bot entrant, in order (``bot:1`` first); none before bot entrants existed.
    bots: tuple[str, ...] = ()


class Joined(ArenaEvent, tag="arena.joined"):
    player_id: str


class Left(ArenaEvent, tag="arena.left"):
    player_id: str


class Paired(ArenaEvent, tag="arena.paired"):
    tables: tuple[Seated, ...]


class Scored(ArenaEvent, tag="arena.scored"):
    table_id: str
    placings: tuple[Placing, ...]


class Closed(ArenaEvent, tag="arena.closed"):
    pass


ArenaEventUnion = Created | Joined | Left | Paired | Scored | Closed
