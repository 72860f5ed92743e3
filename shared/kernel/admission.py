"""Whether a move may reach the rules at all: one function, asked twice.

The validator asks it before its dry run and the reducer again before the
authoritative decision (the table may have moved in between, and only the
reducer's answer counts). Both must refuse with the same code and message, so
the checks live here once, in the order a client meets them:

1. ``unknown_table``: there is no such table;
2. ``bad_token``: the token is not one of the table's seats;
3. ``bad_command``: the command is not one of the game's commands;
4. ``stale_version``: the client acted on another version than the table's.

The game's own rules (``decide``) come after, and are not admission's business.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import msgspec

from shared.kernel.auth import seat_of
from shared.kernel.codec import codec_for
from shared.kernel.contract import GameModule
from shared.kernel.rejection import RuleViolation
from shared.kernel.table import Table

UNKNOWN_TABLE = "unknown_table"
BAD_TOKEN = "bad_token"
BAD_COMMAND = "bad_command"
STALE_VERSION = "stale_version"


class Admitted(NamedTuple):
    table: Table
    game: GameModule[Any, Any, Any, Any]
    seat: int
    #: The decoded command; None when it was not asked to decode one.
    command: Any


def admit(
    table_id: str,
    table: Table | None,
    token_hash: str,
    game_of: Callable[[str], GameModule[Any, Any, Any, Any]],
    command: bytes | None = None,
    expected_version: int | None = None,
) -> Admitted:
    """The table, its game and the acting seat, or the first check that fails (a
    :class:`RuleViolation`). ``command`` (JSON) is decoded only when given: a
    retry the store has applied, or a decision already made, needs no second
    decoding. ``game_of`` looks a game up by key (the shell's registry)."""
    if table is None:
        raise RuleViolation(UNKNOWN_TABLE, f"There is no table {table_id}.")
    seat = seat_of(token_hash, table.token_hashes)
    if seat is None:
        raise RuleViolation(BAD_TOKEN, "This token does not belong to a seat at this table.")
    game = game_of(table.game)
    decoded = None
    if command is not None:
        try:
            decoded = codec_for(game).command_from_json(command)
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            raise RuleViolation(BAD_COMMAND, f"Not a {game.title} command: {exc}") from exc
    if expected_version is not None and expected_version != table.version:
        raise RuleViolation(
            STALE_VERSION,
            f"You acted on version {expected_version}, but the game is at version {table.version}.",
            current=table.version,
        )
    return Admitted(table, game, seat, decoded)
