"""A table: one game plus what the platform adds around it, still pure.

The platform's own events share the game's stream and version numbers:

* ``table.opened`` (public): game, seats, options, the seed's hash commitment;
* ``table.sealed`` (server only): the seed and the seat tokens' hashes;
* ``table.finished`` (public): the result and the revealed seed.

:func:`open_table` and :func:`decide` are what the reducer calls;
:func:`evolve` folds both kinds of event. The checks every game shares (game
over, seat awaited) live here once, so a game's ``decide`` holds only its rules.
"""

from __future__ import annotations

from typing import Any

import msgspec

from shared.kernel.contract import GameModule, Result
from shared.kernel.messages import Event, Record
from shared.kernel.rejection import GAME_OVER, NOT_YOUR_TURN, RuleViolation
from shared.kernel.rng import Rng, commitment
from shared.kernel.visibility import PUBLIC, SERVER_ONLY, Visibility


class TableOpened(Event, tag="table.opened"):
    game: str
    seats: int
    options: dict[str, Any]
    commitment: str
    opened_at: int  # ms since the epoch, from the shell


class TableSealed(Event, tag="table.sealed"):
    seed: str  # hex
    token_hashes: tuple[str, ...]


class TableFinished(Event, tag="table.finished"):
    result: Result
    seed: str  # hex, revealed so anyone can re-derive every random outcome


TableEvent = TableOpened | TableSealed | TableFinished


class Table(Record, frozen=True):
    game: str
    seats: int
    options: dict[str, Any]
    commitment: str
    opened_at: int
    version: int = 0
    seed: str = ""
    token_hashes: tuple[str, ...] = ()
    state: Any = None
    result: Result | None = None

    @property
    def over(self) -> bool:
        return self.result is not None


def table_visibility(event: TableEvent) -> Visibility:
    match event:
        case TableOpened() | TableFinished():
            return PUBLIC
        case TableSealed():
            return SERVER_ONLY


def visibility(game: GameModule[Any, Any, Any, Any], event: Any) -> Visibility:
    """The audience of any event in a table's stream."""
    if isinstance(event, TableOpened | TableSealed | TableFinished):
        return table_visibility(event)
    return game.visibility(event)


def open_table(
    game: GameModule[Any, Any, Any, Any],
    seats: int,
    options: dict[str, Any],
    seed: bytes,
    token_hashes: tuple[str, ...],
    now_ms: int,
) -> list[Any]:
    """The opening events of a new table; raises RuleViolation on bad input."""
    if not game.min_seats <= seats <= game.max_seats:
        raise RuleViolation(
            "bad_seat_count",
            f"{game.title} is played by {game.min_seats} to {game.max_seats} seats, not {seats}.",
            seats=seats,
        )
    try:
        opts = game.options(options)
    except msgspec.ValidationError as exc:
        raise RuleViolation("bad_options", f"Invalid options for {game.key}: {exc}") from exc
    return [
        TableOpened(
            game=game.key,
            seats=seats,
            options=msgspec.to_builtins(opts),
            commitment=commitment(seed),
            opened_at=now_ms,
        ),
        TableSealed(seed=seed.hex(), token_hashes=token_hashes),
        *game.create(opts, seats, Rng(seed, 0)),
    ]


def evolve(game: GameModule[Any, Any, Any, Any], table: Table | None, event: Any) -> Table:
    match event:
        case TableOpened():
            return Table(
                game=event.game,
                seats=event.seats,
                options=event.options,
                commitment=event.commitment,
                opened_at=event.opened_at,
                version=1,
            )
        case TableSealed():
            assert table is not None
            return msgspec.structs.replace(
                table, seed=event.seed, token_hashes=event.token_hashes, version=table.version + 1
            )
        case TableFinished():
            assert table is not None
            return msgspec.structs.replace(table, result=event.result, version=table.version + 1)
    assert table is not None
    return msgspec.structs.replace(table, state=game.evolve(table.state, event), version=table.version + 1)


def fold(game: GameModule[Any, Any, Any, Any], events: list[Any], table: Table | None = None) -> Table:
    for event in events:
        table = evolve(game, table, event)
    assert table is not None
    return table


def decide(game: GameModule[Any, Any, Any, Any], table: Table, seat: int, command: Any) -> list[Any]:
    """The events ``command`` from ``seat`` causes, ending the table if the game ends."""
    if table.over:
        raise RuleViolation(GAME_OVER, "This game is over; no more moves are accepted.")
    if not 0 <= seat < table.seats:
        raise RuleViolation("unknown_seat", f"There is no seat {seat} at this table.", seat=seat)
    if seat not in game.actors(table.state):
        raise RuleViolation(
            NOT_YOUR_TURN,
            "It is not your turn to act.",
            awaited=sorted(game.actors(table.state)),
        )
    seed = bytes.fromhex(table.seed)
    events = list(game.decide(table.state, seat, command, Rng(seed, table.version)))
    after = game.fold(events, table.state)
    result = game.result(after)
    if result is not None:
        events.append(TableFinished(result=result, seed=table.seed))
    return events
