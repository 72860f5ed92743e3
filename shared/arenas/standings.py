"""An arena's leaderboard, a pure function of its state.

A table gives each player the points of their place, as in a tournament
(``seats - 1`` for the winner down to 0, a shared place scores the better
value, a short table spreads places over the whole scale). Order: points,
then wins, then fewer tables played (the same points in fewer games), then
the order of joining.
"""

from __future__ import annotations

from shared.arenas.state import ArenaState, Status, bot_levels
from shared.kernel.messages import Record
from shared.tournaments.settings import default_points
from shared.tournaments.standings import placing_points


class ArenaLine(Record, frozen=True):
    rank: int
    player_id: str
    points: int
    games: int
    wins: int
    #: Waiting for a table now.
    waiting: bool
    #: At a table now.
    playing: bool
    #: The level of one of our bots; null for a person.
    level: str | None = None


class ArenaTableView(Record, frozen=True):
    table_id: str
    players: tuple[str, ...]
    #: Places in seat order, once the game is over.
    places: tuple[int, ...] | None


class ArenaView(Record, frozen=True):
    arena_id: str
    game: str
    seats: int
    status: Status
    starts_at_ms: int
    ends_at_ms: int
    lines: tuple[ArenaLine, ...]
    tables: tuple[ArenaTableView, ...]


def arena_view(state: ArenaState) -> ArenaView:
    points = default_points(state.seats)
    tally = {pid: [0, 0, 0] for pid in state.members}  # points, games, wins
    busy: set[str] = set()
    for t in state.tables:
        if t.placings is None:
            busy.update(t.players)
            continue
        for p in t.placings:
            line = tally.setdefault(p.player_id, [0, 0, 0])
            line[0] += placing_points(points, p.place, len(t.placings))
            line[1] += 1
            line[2] += p.place == 1
    order = {pid: i for i, pid in enumerate(state.members)}
    bots = bot_levels(state)
    ranked = sorted(tally, key=lambda pid: (-tally[pid][0], -tally[pid][2], tally[pid][1], order.get(pid, 0)))
    lines = tuple(
        ArenaLine(
            rank=i,
            player_id=pid,
            points=tally[pid][0],
            games=tally[pid][1],
            wins=tally[pid][2],
            waiting=pid in state.waiting,
            playing=pid in busy,
            level=bots.get(pid),
        )
        for i, pid in enumerate(ranked, start=1)
    )
    tables = tuple(
        ArenaTableView(
            table_id=t.table_id,
            players=t.players,
            places=tuple(p.place for p in t.placings) if t.placings is not None else None,
        )
        for t in state.tables
    )
    return ArenaView(
        arena_id=state.arena_id,
        game=state.game,
        seats=state.seats,
        status=state.status,
        starts_at_ms=state.starts_at_ms,
        ends_at_ms=state.ends_at_ms,
        lines=lines,
        tables=tables,
    )
