"""Standings, computed purely from the tournament state.

Points: a finished table gives each player the points of their placing
(:attr:`Settings.points`, indexed by place). A shared place gives every
sharer the points of that place (1, 1, 3 scores points[0] twice). At a table
shorter than ``seats_per_table`` (allowed by ``min_table_size``) the places
are spread over the whole scale, so the winner still gets the top value and
the last the bottom one: place ``p`` of ``m`` scores
``points[(p - 1) * (seats - 1) // (m - 1)]``. A bye scores ``bye_points``.

Order, best first:

1. elimination only: the later the round a player last played, the better;
   within that round, the better place at their table;
2. points;
3. opponents' points (Buchholz-like): the sum, over every game played, of
   the current points of each opponent at the table. Strength of schedule:
   a bye adds nothing, so it neither helps nor hurts through opponents;
4. total game score (the games' own scores, summed);
5. head to head among the players still tied: how many of them the player
   finished above at a shared table;
6. seed (registration order), so the order is total and never random.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import ClassVar

from shared.kernel import levels
from shared.kernel.levels import Level
from shared.kernel.messages import Record
from shared.tournaments.commands import Placing
from shared.tournaments.state import Round, TournamentState


class Line(Record, frozen=True):
    rank: int
    player_id: str
    name: str
    points: int
    opponents_points: int
    score: int
    games: int
    byes: int
    withdrawn: bool
    #: Elimination: the last round this player took part in.
    reached: int = 0
    #: A bot entrant's level (shared/kernel/levels.py); ``None`` for a person.
    level: Level | None = None


class LineHead(Record, frozen=True):
    """A projection of :class:`Line`: a player's name, for readers that show no points."""

    projection_of: ClassVar[type[Record]] = Line
    player_id: str
    name: str


def placing_points(points: tuple[int, ...], place: int, table_size: int) -> int:
    seats = len(points)
    if table_size <= 1:
        return points[0]
    return points[(min(place, table_size) - 1) * (seats - 1) // (table_size - 1)]


@dataclass
class _Tally:
    points: int = 0
    score: int = 0
    games: int = 0
    byes: int = 0
    reached: int = 0
    last_place: int = 0
    opponents: list[str] = field(default_factory=list)


def _tally(state: TournamentState) -> dict[str, _Tally]:
    s = state.settings
    tally: dict[str, _Tally] = {p.player_id: _Tally() for p in state.players}
    for rnd in state.rounds:
        for pid in rnd.byes:
            t = tally[pid]
            t.points += s.bye_points
            t.byes += 1
            t.reached, t.last_place = rnd.number, 0
        for table in rnd.tables:
            if table.placings is None:
                continue
            for pl in table.placings:
                t = tally[pl.player_id]
                t.points += placing_points(s.points, pl.place, len(table.placings))
                t.score += pl.score
                t.games += 1
                t.reached, t.last_place = rnd.number, pl.place
                t.opponents.extend(q for q in table.players if q != pl.player_id)
    return tally


def points(state: TournamentState) -> dict[str, int]:
    """Every player's points so far."""
    return {pid: t.points for pid, t in _tally(state).items()}


def _beaten(rounds: tuple[Round, ...]) -> dict[tuple[str, str], int]:
    """(a, b) -> how often a finished above b at the same table."""
    out: dict[tuple[str, str], int] = defaultdict(int)
    for rnd in rounds:
        for table in rnd.tables:
            for a in table.placings or ():
                for b in table.placings or ():
                    if a.place < b.place:
                        out[a.player_id, b.player_id] += 1
    return out


def standings(state: TournamentState) -> tuple[Line, ...]:
    """Every registered player, best first, ranks 1..n."""
    tally = _tally(state)
    elimination = state.settings.format == "elimination"
    opp = {pid: sum(tally[o].points for o in t.opponents) for pid, t in tally.items()}

    def key(pid: str) -> tuple[int, ...]:
        t = tally[pid]
        first = (-t.reached, t.last_place) if elimination else ()
        return (*first, -t.points, -opp[pid], -t.score)

    seeds = {p.player_id: p.seed for p in state.players}
    groups: dict[tuple[int, ...], list[str]] = defaultdict(list)
    for pid in tally:
        groups[key(pid)].append(pid)
    beaten = _beaten(state.rounds)
    order: list[str] = []
    for k in sorted(groups):
        group = groups[k]
        h2h = {p: sum(beaten.get((p, q), 0) for q in group if q != p) for p in group}
        order.extend(sorted(group, key=lambda p: (-h2h[p], seeds[p])))
    by_id = {p.player_id: p for p in state.players}
    return tuple(
        Line(
            rank=i,
            player_id=pid,
            name=by_id[pid].name,
            points=tally[pid].points,
            opponents_points=opp[pid],
            score=tally[pid].score,
            games=tally[pid].games,
            byes=tally[pid].byes,
            withdrawn=by_id[pid].withdrawn,
            reached=tally[pid].reached,
            level=levels.level_of(by_id[pid].bot) if by_id[pid].kind == "bot" else None,
        )
        for i, pid in enumerate(order, start=1)
    )


def table_points(state: TournamentState, placings: tuple[Placing, ...]) -> dict[str, int]:
    """The points each player of one finished table earned."""
    pts = state.settings.points
    return {p.player_id: placing_points(pts, p.place, len(placings)) for p in placings}
