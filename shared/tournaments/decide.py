"""The tournament rules: the events a command causes, or a :class:`RuleViolation`.

``decide(state, command, rng)`` is pure: it reads the state, never changes
it, and draws only from ``rng`` (the platform derives it from the
tournament's seed and version, as for games). Recording a result is
idempotent, because the process manager that forwards game results may be
redelivered the same game-over event.
"""

from __future__ import annotations

from typing import NamedTuple

from shared.kernel.decider import Rules
from shared.kernel.rejection import RuleViolation, require
from shared.kernel.rng import Rng
from shared.tournaments import codes, rounds
from shared.tournaments.commands import (
    Create,
    Finish,
    OpenTable,
    PairRound,
    RecordResult,
    Register,
    Start,
    TournamentCommandUnion,
    Withdraw,
)
from shared.tournaments.events import (
    Finished,
    Registered,
    ResultRecorded,
    RoundCompleted,
    RoundPaired,
    Seating,
    Started,
    TableOpened,
    TournamentEventUnion,
    Withdrew,
)
from shared.tournaments.evolve import evolve
from shared.tournaments.results import check_placings
from shared.tournaments.setup import create
from shared.tournaments.standings import standings
from shared.tournaments.state import TournamentState, active_players, current_round, find_table, player

Events = list[TournamentEventUnion]
#: The entries a tournament takes at most, withdrawn ones included (the setting
#: ``max_tournament_entries``): every entry is kept in the state and paired each round.
MAX_ENTRIES = 1024


class Seeded(NamedTuple):
    """A command with what its decision may draw from and the entries bound: the
    shell derives ``rng`` from the tournament's seed at the stream's version."""

    command: TournamentCommandUnion
    rng: Rng
    max_entries: int = MAX_ENTRIES


def decide_seeded(state: TournamentState | None, seeded: Seeded) -> Events:
    return decide(state, seeded.command, seeded.rng, seeded.max_entries)


def decide(
    state: TournamentState | None, command: TournamentCommandUnion, rng: Rng, max_entries: int = MAX_ENTRIES
) -> Events:
    if isinstance(command, Create):
        require(state is None, codes.ALREADY_CREATED, "This tournament already exists.")
        return create(command)
    if state is None:
        raise RuleViolation(codes.NO_TOURNAMENT, "There is no such tournament yet.")
    require(state.status != "finished", codes.FINISHED, "The tournament is over.")
    match command:
        case Register():
            return _register(state, command, max_entries)
        case Withdraw():
            return _withdraw(state, command)
        case Start():
            return _start(state, command, rng)
        case PairRound():
            return _pair(state, command, rng)
        case OpenTable():
            return _open(state, command)
        case RecordResult():
            return _record(state, command)
        case Finish():
            return _finish(state, command)
    raise AssertionError(f"unhandled command {command!r}")


def _register(state: TournamentState, cmd: Register, max_entries: int) -> Events:
    require(state.status == "registering", codes.ALREADY_STARTED, "Registration closed when play began.")
    require(
        player(state, cmd.player_id) is None,
        codes.ALREADY_REGISTERED,
        f"Player {cmd.player_id} is already registered.",
        player_id=cmd.player_id,
    )
    require(
        len(state.players) < max_entries,
        codes.FULL,
        f"The tournament has {len(state.players)} entries, the most it takes.",
        limit=max_entries,
    )
    require(bool(cmd.name.strip()), codes.INVALID_PLAYER, "A player needs a display name.")
    require(
        (cmd.kind == "bot") == (cmd.bot is not None),
        codes.INVALID_PLAYER,
        "A bot entry names its bot, and only a bot entry does.",
    )
    seed = len(state.players) + 1
    return [
        Registered(
            player_id=cmd.player_id,
            name=cmd.name,
            kind=cmd.kind,
            bot=cmd.bot,
            seed=seed,
            account=cmd.account,
            rating=cmd.rating,
            at_ms=cmd.at_ms,
        )
    ]


def _withdraw(state: TournamentState, cmd: Withdraw) -> Events:
    entry = player(state, cmd.player_id)
    require(entry is not None, codes.UNKNOWN_PLAYER, f"No player {cmd.player_id} is registered.")
    assert entry is not None
    require(not entry.withdrawn, codes.ALREADY_WITHDRAWN, f"{entry.name} has already withdrawn.")
    return [Withdrew(player_id=cmd.player_id, at_ms=cmd.at_ms)]


def _start(state: TournamentState, cmd: Start, rng: Rng) -> Events:
    require(state.status == "registering", codes.ALREADY_STARTED, "The tournament has already started.")
    players = active_players(state)
    needed = max(2, state.settings.min_table_size)
    require(
        len(players) >= needed,
        codes.NOT_ENOUGH_PLAYERS,
        f"At least {needed} players are needed to start; {len(players)} registered.",
        players=len(players),
        needed=needed,
    )
    schedule = rounds.initial_schedule(state, rng)
    planned = {"swiss": state.settings.rounds, "round_robin": len(schedule)}.get(state.settings.format, 0)
    return [Started(players=players, rounds=planned, schedule=schedule, at_ms=cmd.at_ms)]


def _pair(state: TournamentState, cmd: PairRound, rng: Rng) -> Events:
    require(state.status == "running", codes.NOT_STARTED, "The tournament has not started.")
    last = current_round(state)
    require(
        last is None or last.complete,
        codes.ROUND_RUNNING,
        f"Round {last.number if last else 0} is still being played.",
    )
    require(rounds.has_next_round(state), codes.NO_MORE_ROUNDS, "Every round has been played.")
    pairing = rounds.next_pairing(state, rng)
    require(bool(pairing.tables), codes.NOT_ENOUGH_PLAYERS, "Too few players are left to seat a table.")
    number = len(state.rounds) + 1
    tables = tuple(Seating(table=i, players=t) for i, t in enumerate(pairing.tables, start=1))
    return [RoundPaired(round=number, tables=tables, byes=pairing.byes, at_ms=cmd.at_ms)]


def _open(state: TournamentState, cmd: OpenTable) -> Events:
    last = current_round(state)
    require(
        last is not None and last.number == cmd.round and not last.complete,
        codes.WRONG_ROUND,
        f"Round {cmd.round} is not the round being played.",
    )
    assert last is not None
    table = next((t for t in last.tables if t.table == cmd.table), None)
    require(table is not None, codes.UNKNOWN_TABLE, f"Round {cmd.round} has no table {cmd.table}.")
    assert table is not None
    if table.game_id == cmd.game_id:
        return []
    require(table.game_id is None, codes.TABLE_ALREADY_OPEN, f"Table {cmd.table} already plays a game.")
    require(find_table(state, cmd.game_id) is None, codes.GAME_IN_USE, "That game belongs to another table.")
    return [TableOpened(round=cmd.round, table=cmd.table, game_id=cmd.game_id, at_ms=cmd.at_ms)]


def _record(state: TournamentState, cmd: RecordResult) -> Events:
    found = find_table(state, cmd.game_id)
    require(found is not None, codes.UNKNOWN_GAME, f"Game {cmd.game_id} is not a table of this tournament.")
    assert found is not None
    rnd, table = found
    placings = tuple(sorted(cmd.placings, key=lambda p: p.seat))
    if table.placings is not None:
        require(table.placings == placings, codes.RESULT_CONFLICT, "This table already has another result.")
        return []
    check_placings(table.players, placings)
    events: Events = [
        ResultRecorded(
            round=rnd.number,
            table=table.table,
            game_id=cmd.game_id,
            placings=placings,
            reason=cmd.reason,
            at_ms=cmd.at_ms,
        )
    ]
    if all(t.placings is not None for t in rnd.tables if t.table != table.table):
        events.append(RoundCompleted(round=rnd.number, at_ms=cmd.at_ms))
    return events


def _finish(state: TournamentState, cmd: Finish) -> Events:
    require(state.status == "running", codes.NOT_STARTED, "The tournament has not started.")
    last = current_round(state)
    require(last is None or last.complete, codes.ROUND_RUNNING, "A round is still being played.")
    ranking = tuple(line.player_id for line in standings(state))
    return [Finished(ranking=ranking, at_ms=cmd.at_ms)]


#: The tournament's decider: the one host of platform aggregates runs it.
DECIDER: Rules[Seeded, TournamentState | None, TournamentEventUnion] = Rules(None, decide_seeded, evolve)
