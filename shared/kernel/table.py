"""A table: one game plus what the platform adds around it, still pure.

The platform's own events share the game's stream and version numbers:

* ``table.opened`` (public): game, seats, options, the seed's hash commitment;
* ``table.sealed`` (server only): the seed and the seat tokens' hashes;
* ``table.clock`` (public): each seat's remaining time after a move;
* ``table.timed_out`` and ``table.forfeited`` (public): a clock ran out;
* ``table.finished`` (public): the result and the revealed seed; a table whose
  every seat forfeited ends as :data:`ABANDONED`, nobody winning.

:func:`open_table` and :func:`decide` are what the reducer calls;
:func:`evolve` folds both kinds of event. The checks every game shares (game
over, seat awaited) live here once, so a game's ``decide`` holds only its rules.
"""

from __future__ import annotations

from typing import Any

import msgspec

from shared.kernel import clocks, levels
from shared.kernel import fold as folds
from shared.kernel.clocks import ClockSettings, SpectatorDelay
from shared.kernel.contract import GameModule, Result, Standing
from shared.kernel.messages import Event, Record
from shared.kernel.rejection import GAME_OVER, NOT_YOUR_TURN, RuleViolation
from shared.kernel.rng import Rng, commitment
from shared.kernel.visibility import PUBLIC, SERVER_ONLY, Visibility

#: The reason of a table that ended because every seat forfeited.
ABANDONED = "abandoned"


class TableOpened(Event, tag="table.opened"):
    game: str
    seats: int
    options: dict[str, Any]
    commitment: str
    opened_at: int  # ms since the epoch, from the shell
    clock: ClockSettings | None = None
    spectator_delay: SpectatorDelay | None = None


class TableSealed(Event, tag="table.sealed"):
    seed: str  # hex
    token_hashes: tuple[str, ...]


class TableFinished(Event, tag="table.finished"):
    result: Result
    seed: str  # hex, revealed so anyone can re-derive every random outcome


class TableClocked(Event, tag="table.clock"):
    remaining: tuple[int, ...]  # ms per seat
    since: int  # ms: the awaited seats' clocks run from here


class TableTimedOut(Event, tag="table.timed_out"):
    seat: int
    policy: str


class SeatForfeited(Event, tag="table.forfeited"):
    seat: int


TableEvent = TableOpened | TableSealed | TableFinished | TableClocked | TableTimedOut | SeatForfeited


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
    clock: ClockSettings | None = None
    remaining: tuple[int, ...] = ()
    since: int = 0
    forfeited: tuple[int, ...] = ()
    spectator_delay: SpectatorDelay | None = None
    #: Commands applied so far, and the last one's id (counted by the shell,
    #: which sees command ids; see :func:`count_move`).
    moves: int = 0
    last_command: str = ""

    @property
    def over(self) -> bool:
        return self.result is not None


def table_visibility(event: TableEvent) -> Visibility:
    match event:
        case TableOpened() | TableFinished() | TableClocked() | TableTimedOut() | SeatForfeited():
            return PUBLIC
        case TableSealed():
            return SERVER_ONLY


def visibility(game: GameModule[Any, Any, Any, Any], event: Any) -> Visibility:
    """The audience of any event in a table's stream."""
    if isinstance(event, TableEvent):
        return table_visibility(event)
    return game.visibility(event)


def open_table(
    game: GameModule[Any, Any, Any, Any],
    seats: int,
    options: dict[str, Any],
    seed: bytes,
    token_hashes: tuple[str, ...],
    now_ms: int,
    clock: ClockSettings | None = None,
    spectator_delay: SpectatorDelay | None = None,
) -> list[Any]:
    """The opening events of a new table; raises RuleViolation on bad input."""
    if not game.min_seats <= seats <= game.max_seats:
        raise RuleViolation(
            "bad_seat_count",
            f"{game.title} is played by {game.min_seats} to {game.max_seats} seats, not {seats}.",
            seats=seats,
        )
    if clock is not None and clock.problems():
        raise RuleViolation("bad_clock", "Invalid clock: " + "; ".join(clock.problems()) + ".")
    try:
        opts = game.options(options)
        # A game's set-up refuses options it cannot set up with a ValueError
        # (an unknown content pack, a first seat past the table): the
        # client's mistake, never a stage's crash.
        opening = game.create(opts, seats, Rng(seed, 0))
    except (msgspec.ValidationError, ValueError) as exc:
        raise RuleViolation("bad_options", f"Invalid options for {game.key}: {exc}") from exc
    return [
        TableOpened(
            game=game.key,
            seats=seats,
            options=msgspec.to_builtins(opts),
            commitment=commitment(seed),
            opened_at=now_ms,
            clock=clock,
            spectator_delay=spectator_delay,
        ),
        TableSealed(seed=seed.hex(), token_hashes=token_hashes),
        *opening,
    ]


def checked_options(
    game: GameModule[Any, Any, Any, Any],
    seats: int,
    options: dict[str, Any],
    clock: ClockSettings | None = None,
) -> dict[str, Any]:
    """The options as the game reads them, once a table of ``seats`` opens with
    them (a dry run of the opening); raises RuleViolation as :func:`open_table`."""
    opened = open_table(game, seats, options, bytes(32), (), 0, clock)[0]
    assert isinstance(opened, TableOpened)
    return opened.options


def evolve(game: GameModule[Any, Any, Any, Any], table: Table | None, event: Any) -> Table:
    if isinstance(event, TableOpened):
        return Table(
            game=event.game,
            seats=event.seats,
            options=event.options,
            commitment=event.commitment,
            opened_at=event.opened_at,
            version=1,
            clock=event.clock,
            remaining=(event.clock.initial_ms,) * event.seats if event.clock else (),
            since=event.opened_at,
            spectator_delay=event.spectator_delay,
        )
    assert table is not None
    version = table.version + 1
    # One copy of the table per event: the game's events (nearly all of them)
    # are not the platform's, so they are tried first.
    if not isinstance(event, TableEvent):
        return msgspec.structs.replace(table, version=version, state=game.evolve(table.state, event))
    match event:
        case TableSealed(seed=seed, token_hashes=hashes):
            return msgspec.structs.replace(table, version=version, seed=seed, token_hashes=hashes)
        case TableFinished(result=result):
            return msgspec.structs.replace(table, version=version, result=result)
        case TableClocked(remaining=remaining, since=since):
            return msgspec.structs.replace(table, version=version, remaining=remaining, since=since)
        case TableTimedOut():
            return msgspec.structs.replace(table, version=version)
        case SeatForfeited(seat=seat):
            forfeited = tuple(sorted({*table.forfeited, seat}))
            return msgspec.structs.replace(table, version=version, forfeited=forfeited)
        case TableOpened():
            raise AssertionError("a table opens once")  # answered above


def fold(game: GameModule[Any, Any, Any, Any], events: list[Any], table: Table | None = None) -> Table:
    for event in events:
        table = evolve(game, table, event)
    assert table is not None
    return table


def count_move(table: Table, command_id: str) -> Table:
    """Count a new command the first time one of its events is folded."""
    if command_id == table.last_command:
        return table
    return msgspec.structs.replace(table, moves=table.moves + 1, last_command=command_id)


def decide(
    game: GameModule[Any, Any, Any, Any], table: Table, seat: int, command: Any, now_ms: int = 0
) -> list[Any]:
    """The events ``command`` from ``seat`` causes, ending the table if the game ends."""
    return decided(game, table, seat, command, now_ms)[0]


def decided(
    game: GameModule[Any, Any, Any, Any], table: Table, seat: int, command: Any, now_ms: int = 0
) -> tuple[list[Any], Table]:
    """:func:`decide`, with the table its events lead to (folded on the way: the
    move not counted, which is the shell's business, see :func:`count_move`)."""
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
    emitted = game.decide(table.state, seat, command, Rng(bytes.fromhex(table.seed), table.version))
    return _conclude(game, table, list(emitted), now_ms, mover=seat, folded=_folded(game, table, emitted))


def _folded(game: GameModule[Any, Any, Any, Any], table: Table, emitted: Any) -> Table | None:
    """The table ``emitted`` leads to, read off the fold ``decide`` wrote them through
    (every game's ``decide`` folds each event as it emits it) instead of folded again;
    None where that fold is not known to be this one (exactly: :meth:`Fold.folded`)."""
    last = folds.last()
    state = last.folded(emitted, table.state, game.evolve) if last is not None and emitted else None
    if state is None:
        return None
    # What ``fold`` makes of game events (never the platform's): the version moved on by each.
    return msgspec.structs.replace(table, version=table.version + len(emitted), state=state)


def timeout(game: GameModule[Any, Any, Any, Any], table: Table, seat: int, now_ms: int) -> list[Any]:
    """A seat's clock ran out: apply the table's policy."""
    if table.over:
        raise RuleViolation(GAME_OVER, "This game is over.")
    if table.clock is None or seat not in game.actors(table.state):
        raise RuleViolation("clock_not_running", f"Seat {seat}'s clock is not running.", seat=seat)
    at = clocks.runs_out_at(table.clock, table.remaining, table.since, seat)
    if at is None or now_ms < at:
        raise RuleViolation("clock_not_expired", f"Seat {seat} still has time.", seat=seat, runs_out_at=at)
    events: list[Any] = [TableTimedOut(seat=seat, policy=table.clock.policy)]
    if table.clock.policy == "forfeit":
        events.append(SeatForfeited(seat=seat))
    else:
        state = fold(game, events, table)
        events += _zombie_move(game, state, seat)
    return _conclude(game, table, events, now_ms, mover=None)[0]


def deadline(game: GameModule[Any, Any, Any, Any], table: Table) -> tuple[int, int] | None:
    """(when, seat): the first clock that will run out if nobody moves, if any."""
    if table.clock is None or table.over:
        return None
    times = [
        (at, seat)
        for seat in game.actors(table.state)
        if (at := clocks.runs_out_at(table.clock, table.remaining, table.since, seat)) is not None
    ]
    return min(times) if times else None


def _zombie_move(game: GameModule[Any, Any, Any, Any], table: Table, seat: int) -> list[Any]:
    """The takeover bot's move for ``seat``: at the level the table's clock names."""
    seed = bytes.fromhex(table.seed)
    takeover = table.clock.takeover if table.clock is not None else None
    # The reducer holds the true state; every level's bot is held to the
    # secrecy test (tests/games/secrecy), so it is handed the state as it is.
    bot = levels.bot(game, takeover or "zombie")
    # The bot draws from its own stream family, never the game's future draws.
    command = bot(table.state, seat, Rng(bytes(b ^ 0x5A for b in seed), table.version))
    return list(game.decide(table.state, seat, command, Rng(seed, table.version)))


def _conclude(
    game: GameModule[Any, Any, Any, Any],
    before: Table,
    events: list[Any],
    now_ms: int,
    mover: int | None,
    folded: Table | None = None,
) -> tuple[list[Any], Table]:
    """Play forfeited seats, run the clocks, and finish the table if the game ended:
    every event, and the table they lead to (``folded``: ``events`` folded already)."""
    after = folded if folded is not None else fold(game, events, before)
    for _ in range(100_000):  # a forfeited seat is played by its bot whenever awaited
        waiting = sorted(set(after.forfeited) & game.actors(after.state))
        # With every seat forfeited nobody is left to play for: bots playing
        # each other to the end would only burn the reducer's time.
        if game.result(after.state) is not None or not waiting or _deserted(after):
            break
        more = _zombie_move(game, after, waiting[0])
        events += more
        after = fold(game, more, after)
    if before.clock is not None:
        awaited = game.actors(before.state)
        remaining = clocks.charged(before.clock, before.remaining, before.since, awaited, now_ms)
        if mover is not None:
            remaining = clocks.credited(before.clock, remaining, mover)
        clocked = TableClocked(remaining=remaining, since=now_ms)
        events.append(clocked)
        after = evolve(game, after, clocked)
    result = game.result(after.state)
    if result is None and _deserted(after):
        result = _abandoned(after.seats)
    if result is not None:
        finished = TableFinished(result=_forfeits_last(result, after.forfeited), seed=before.seed)
        events.append(finished)
        after = evolve(game, after, finished)
    return events, after


def _deserted(table: Table) -> bool:
    return len(table.forfeited) >= table.seats


def _abandoned(seats: int) -> Result:
    """Every seat forfeited before the game ended: nobody won, all share the last place."""
    return Result(
        standings=tuple(Standing(seat=s, place=1, score=0) for s in range(seats)),
        reason=ABANDONED,
    )


def _forfeits_last(result: Result, forfeited: tuple[int, ...]) -> Result:
    if not forfeited:
        return result
    playing = [s for s in result.standings if s.seat not in forfeited]
    gone = [s for s in result.standings if s.seat in forfeited]

    def placed(group: list[Standing], offset: int) -> list[Standing]:
        return [
            msgspec.structs.replace(s, place=offset + 1 + sum(o.place < s.place for o in group))
            for s in group
        ]

    standings = (*placed(playing, 0), *placed(gone, len(playing)))
    return msgspec.structs.replace(result, standings=standings)
