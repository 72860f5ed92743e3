"""The folded state of one arena."""

from __future__ import annotations

from typing import Any, Literal

from shared.kernel.messages import Record
from shared.tournaments.commands import Placing

Status = Literal["open", "closed"]


class ArenaBot(Record, frozen=True):
    """One of our bots entered in the arena: it waits and plays like a player, at its level."""

    player_id: str
    level: str


class ArenaTable(Record, frozen=True):
    table_id: str
    players: tuple[str, ...]
    placings: tuple[Placing, ...] | None = None


class ArenaState(Record, frozen=True):
    arena_id: str
    game: str
    game_options: dict[str, Any]
    seats: int
    starts_at_ms: int
    ends_at_ms: int
    status: Status = "open"
    #: Players waiting for a table, first come first.
    waiting: tuple[str, ...] = ()
    #: Players who left while playing: not queued again when their table ends.
    leaving: tuple[str, ...] = ()
    #: Everyone who ever joined, in order.
    members: tuple[str, ...] = ()
    tables: tuple[ArenaTable, ...] = ()
    #: Our bots entered when the arena opened (their ids are no account's: ``bot:<n>``).
    bots: tuple[ArenaBot, ...] = ()


def bot_levels(state: ArenaState) -> dict[str, str]:
    """The arena's bot entrants: player id -> level."""
    return {b.player_id: b.level for b in state.bots}


def bot_id(number: int) -> str:
    """The id of an arena's ``number``-th bot (from 1); no account's id has a colon."""
    return f"bot:{number}"


def playing(state: ArenaState) -> set[str]:
    return {p for t in state.tables if t.placings is None for p in t.players}


def table(state: ArenaState, table_id: str) -> ArenaTable | None:
    return next((t for t in state.tables if t.table_id == table_id), None)


def table_id_for(arena_id: str, number: int) -> str:
    return f"{arena_id}-g{number}"
