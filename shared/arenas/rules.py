"""The arena's rules: ``decide`` (pure: the shell passes the time in) and ``evolve``."""

from __future__ import annotations

from collections.abc import Iterable

from msgspec.structs import replace

from shared.arenas import codes
from shared.arenas.commands import MAX_BOTS, ArenaCommandUnion, Close, Create, Join, Leave, Pair, Score
from shared.arenas.events import ArenaEventUnion, Closed, Created, Joined, Left, Paired, Scored, Seated
from shared.arenas.state import (
    ArenaBot,
    ArenaState,
    ArenaTable,
    bot_id,
    bot_levels,
    playing,
    table,
    table_id_for,
)
from shared.kernel.decider import Rules
from shared.kernel.fold import replay, started
from shared.kernel.levels import LEVELS
from shared.kernel.rejection import RuleViolation, require
from shared.tournaments.results import check_placings

Events = list[ArenaEventUnion]
MIN_SEATS = 2
MAX_SEATS = 8
#: The players an arena takes at most (the setting ``max_arena_members``): its state
#: keeps everyone who ever joined, so an unbounded arena grows with every new account.
MAX_MEMBERS = 4096
#: The tables an arena plays at most: its state keeps every table (the leaderboard is
#: folded from their results), so without a bound fast games would grow it for the
#: whole window. Past it nobody is seated and nobody joins.
MAX_TABLES = 50_000


def decide(
    state: ArenaState | None,
    command: ArenaCommandUnion,
    max_members: int = MAX_MEMBERS,
    max_tables: int = MAX_TABLES,
) -> Events:
    if isinstance(command, Create):
        require(state is None, codes.ALREADY_CREATED, f"Arena {command.arena_id} already exists.")
        require(
            MIN_SEATS <= command.seats <= MAX_SEATS,
            codes.INVALID_ARENA,
            f"Tables seat {MIN_SEATS} to {MAX_SEATS}.",
        )
        require(
            command.ends_at_ms > command.starts_at_ms,
            codes.INVALID_ARENA,
            "The window must end after it starts.",
        )
        require(
            len(command.bots) <= MAX_BOTS and all(level in LEVELS for level in command.bots),
            codes.INVALID_ARENA,
            f"An arena enters at most {MAX_BOTS} bots, each at a level: {', '.join(LEVELS)}.",
        )
        return [
            Created(
                arena_id=command.arena_id,
                game=command.game,
                game_options=dict(command.game_options),
                seats=command.seats,
                starts_at_ms=command.starts_at_ms,
                ends_at_ms=command.ends_at_ms,
                bots=command.bots,
                at_ms=command.at_ms,
            )
        ]
    if state is None:
        raise RuleViolation(codes.NO_ARENA, "There is no such arena.")
    match command:
        case Join(player_id=pid):
            require(
                state.status == "open" and command.at_ms < state.ends_at_ms,
                codes.CLOSED,
                "The arena is closed.",
            )
            require(command.at_ms >= state.starts_at_ms, codes.NOT_OPEN_YET, "The arena has not opened yet.")
            busy = pid in state.waiting or (pid in playing(state) and pid not in state.leaving)
            require(not busy, codes.ALREADY_IN, f"Player {pid} is already in the arena.")
            require(
                pid in state.members or len(state.members) < max_members,
                codes.FULL,
                f"The arena has {len(state.members)} players, the most it takes.",
                limit=max_members,
                of="players",
            )
            require(
                len(state.tables) < max_tables,
                codes.FULL,
                f"The arena has played {len(state.tables)} tables, the most it plays.",
                limit=max_tables,
                of="tables",
            )
            return [Joined(player_id=pid, at_ms=command.at_ms)]
        case Leave(player_id=pid):
            inside = pid in state.waiting or (pid in playing(state) and pid not in state.leaving)
            require(inside, codes.NOT_IN, f"Player {pid} is not in the arena.")
            return [Left(player_id=pid, at_ms=command.at_ms)]
        case Pair():
            if state.status != "open" or command.at_ms >= state.ends_at_ms:
                return []
            groups = _groups(state, max(0, max_tables - len(state.tables)))
            seated = tuple(
                Seated(table_id=table_id_for(state.arena_id, len(state.tables) + i + 1), players=players)
                for i, players in enumerate(groups)
            )
            return [Paired(tables=seated, at_ms=command.at_ms)] if seated else []
        case Score():
            found = table(state, command.table_id)
            require(found is not None, codes.UNKNOWN_TABLE, f"Table {command.table_id} is not this arena's.")
            assert found is not None
            placings = tuple(sorted(command.placings, key=lambda p: p.seat))
            if found.placings is not None:
                require(
                    found.placings == placings,
                    codes.RESULT_CONFLICT,
                    "This table already has another result.",
                )
                return []
            check_placings(found.players, placings)
            return [Scored(table_id=command.table_id, placings=placings, at_ms=command.at_ms)]
        case Close():
            if state.status == "closed":
                return []
            require(command.at_ms >= state.ends_at_ms, codes.INVALID_ARENA, "The window is not over yet.")
            return [Closed(at_ms=command.at_ms)]
    raise AssertionError(f"unhandled command {command!r}")


def _groups(state: ArenaState, most: int) -> list[tuple[str, ...]]:
    """Up to ``most`` full tables of the waiting players, first come first seated, each
    with a person: a table of bots alone would be played for nobody (and no person's
    account would be seated to see it end). Without bots: the queue cut in tables."""
    bots = bot_levels(state)
    queue = list(state.waiting)
    groups: list[tuple[str, ...]] = []
    while len(groups) < most and len(queue) >= state.seats:
        person = next((p for p in queue if p not in bots), None)
        if person is None:
            break
        queue.remove(person)
        taken = {person, *queue[: state.seats - 1]}
        del queue[: state.seats - 1]
        groups.append(tuple(p for p in state.waiting if p in taken))
    return groups


def evolve(state: ArenaState | None, event: ArenaEventUnion) -> ArenaState:
    if isinstance(event, Created):
        bots = tuple(ArenaBot(player_id=bot_id(i), level=level) for i, level in enumerate(event.bots, 1))
        entrants = tuple(b.player_id for b in bots)
        return ArenaState(
            arena_id=event.arena_id,
            game=event.game,
            game_options=event.game_options,
            seats=event.seats,
            starts_at_ms=event.starts_at_ms,
            ends_at_ms=event.ends_at_ms,
            bots=bots,
            members=entrants,
            waiting=entrants,
        )
    state = started(state, event, "arena.created")
    match event:
        case Joined(player_id=pid):
            members = state.members if pid in state.members else (*state.members, pid)
            leaving = tuple(p for p in state.leaving if p != pid)
            if pid in playing(state):  # came back before the table ended: queued again then
                return replace(state, members=members, leaving=leaving)
            return replace(state, members=members, leaving=leaving, waiting=(*state.waiting, pid))
        case Left(player_id=pid):
            if pid in state.waiting:
                return replace(state, waiting=tuple(p for p in state.waiting if p != pid))
            return replace(state, leaving=(*state.leaving, pid))
        case Paired(tables=seated):
            taken = {p for s in seated for p in s.players}
            tables = tuple(ArenaTable(table_id=s.table_id, players=s.players) for s in seated)
            return replace(
                state,
                waiting=tuple(p for p in state.waiting if p not in taken),
                tables=(*state.tables, *tables),
            )
        case Scored(table_id=tid, placings=placings):
            done = table(state, tid)
            assert done is not None
            tables = tuple(replace(t, placings=placings) if t.table_id == tid else t for t in state.tables)
            back = (
                () if state.status == "closed" else tuple(p for p in done.players if p not in state.leaving)
            )
            leaving = tuple(p for p in state.leaving if p not in done.players)
            return replace(state, tables=tables, waiting=(*state.waiting, *back), leaving=leaving)
        case Closed():
            return replace(state, status="closed", waiting=(), leaving=())
    raise AssertionError(f"unhandled event {event!r}")


def fold(events: Iterable[ArenaEventUnion], state: ArenaState | None = None) -> ArenaState | None:
    return replay(evolve, events, state)


#: The arena's decider (``max_members`` and ``max_tables`` at their defaults; the
#: gateway binds the settings' bounds into the decision it hands the host).
DECIDER: Rules[ArenaCommandUnion, ArenaState | None, ArenaEventUnion] = Rules(None, decide, evolve)
