"""Public views of a tournament: canonical, so equal facts encode to equal bytes.

Everything here is public (standings, pairings, ratings): a tournament holds
no hidden facts; the games' own views guard what happens at the tables.
"""

from __future__ import annotations

from typing import ClassVar

from shared.kernel.messages import Record
from shared.tournaments.ratings import tournament_ratings
from shared.tournaments.rounds import is_complete
from shared.tournaments.standings import Line, LineHead, standings
from shared.tournaments.state import Status, TournamentState


class TableView(Record, frozen=True):
    table: int
    #: Display names are looked up by the client from ``players``.
    players: tuple[str, ...]
    game_id: str | None
    #: Places in seat order, once the game is over.
    places: tuple[int, ...] | None


class RoundView(Record, frozen=True):
    number: int
    complete: bool
    tables: tuple[TableView, ...]
    byes: tuple[str, ...]


class PairingsView(Record, frozen=True):
    tournament_id: str
    status: Status
    rounds: tuple[RoundView, ...]


class RatedLine(Record, frozen=True):
    line: Line
    rating: float
    mu: float
    sigma: float


class StandingsView(Record, frozen=True):
    tournament_id: str
    name: str
    game: str
    format: str
    status: Status
    round: int
    planned_rounds: int
    complete: bool
    lines: tuple[RatedLine, ...]


# -- projections: the fields of a view a reader needs, decoded without the rest
# (a listing of 200 tournaments decodes no ratings; a check of a finished
# tournament, no lines). tests/readmodels/test_projections.py holds each to its
# full type's fields and types.


class TableHead(Record, frozen=True):
    """A projection of :class:`TableView`: who sits at a table, its game, its places."""

    projection_of: ClassVar[type[Record]] = TableView
    table: int
    players: tuple[str, ...]
    game_id: str | None = None
    places: tuple[int, ...] | None = None


class RoundHead(Record, frozen=True):
    """A projection of :class:`RoundView`: its tables and byes."""

    projection_of: ClassVar[type[Record]] = RoundView
    number: int
    tables: tuple[TableHead, ...]
    byes: tuple[str, ...] = ()


class PairingsHead(Record, frozen=True):
    """A projection of :class:`PairingsView`: the rounds' tables, not the view's id."""

    projection_of: ClassVar[type[Record]] = PairingsView
    status: Status
    rounds: tuple[RoundHead, ...] = ()


class RatedLineHead(Record, frozen=True):
    """A projection of :class:`RatedLine`: the player's name, no rating."""

    projection_of: ClassVar[type[Record]] = RatedLine
    line: LineHead


class StandingsHead(Record, frozen=True):
    """A projection of :class:`StandingsView`: what a listing shows of a tournament
    (its name, game, state and players' names, never their points or ratings)."""

    projection_of: ClassVar[type[Record]] = StandingsView
    name: str
    game: str
    format: str
    status: Status
    round: int
    planned_rounds: int
    lines: tuple[RatedLineHead, ...] = ()


class StandingsStatus(Record, frozen=True):
    """A projection of :class:`StandingsView`: the tournament's game and state alone."""

    projection_of: ClassVar[type[Record]] = StandingsView
    game: str
    status: Status


def pairings_view(state: TournamentState) -> PairingsView:
    rounds = tuple(
        RoundView(
            number=r.number,
            complete=r.complete,
            tables=tuple(
                TableView(
                    table=t.table,
                    players=t.players,
                    game_id=t.game_id,
                    places=tuple(p.place for p in t.placings) if t.placings is not None else None,
                )
                for t in sorted(r.tables, key=lambda t: t.table)
            ),
            byes=tuple(sorted(r.byes)),
        )
        for r in sorted(state.rounds, key=lambda r: r.number)
    )
    return PairingsView(tournament_id=state.tournament_id, status=state.status, rounds=rounds)


def standings_view(state: TournamentState) -> StandingsView:
    rated = tournament_ratings(state)
    lines = tuple(
        RatedLine(
            line=line,
            rating=rated[line.player_id].ordinal,
            mu=rated[line.player_id].mu,
            sigma=rated[line.player_id].sigma,
        )
        for line in standings(state)
    )
    s = state.settings
    return StandingsView(
        tournament_id=state.tournament_id,
        name=s.name,
        game=s.game,
        format=s.format,
        status=state.status,
        round=len(state.rounds),
        planned_rounds=state.planned_rounds,
        complete=is_complete(state) or state.status == "finished",
        lines=lines,
    )
