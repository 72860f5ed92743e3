"""A game's ladder: every registered player's OpenSkill rating and history.

``evolve`` rates one table: the players' current ratings (or the model's
default for a newcomer) go through one Plackett-Luce update, each player a
team of one, ranked by place. Nothing else is read, so the ladder is a pure
function of its ordered log (recomputing equals the live ladder).

**Provisional**: a player with fewer than :data:`PROVISIONAL_GAMES` rated
games is marked provisional on the leaderboard; their rating still moves a
lot from game to game. The displayed rating is the ordinal ``mu - 3 sigma``,
as in tournaments, so a newcomer starts near zero rather than at the top.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from msgspec.structs import replace

from shared.kernel.decider import Rules
from shared.kernel.messages import Record
from shared.ladders.events import Rated
from shared.tournaments.ratings import _model

#: Fewer rated games than this: provisional.
PROVISIONAL_GAMES = 5


class Point(Record, frozen=True):
    """One rated table in a player's history: the result and the rating after it."""

    table_id: str
    source: str
    at_ms: int
    place: int
    players: int
    mu: float
    sigma: float
    rating: float


class Entry(Record, frozen=True):
    player_id: str
    mu: float
    sigma: float
    games: int
    wins: int
    history: tuple[Point, ...] = ()


class LadderState(Record, frozen=True):
    game: str
    entries: dict[str, Entry] = {}
    #: Table ids in the order they were rated.
    tables: tuple[str, ...] = ()


def _ordinal(mu: float, sigma: float) -> float:
    return float(_model().rating(mu=mu, sigma=sigma).ordinal())


def evolve(state: LadderState, event: Rated) -> LadderState:
    """Rate one table. A table already rated, or with fewer than two players, changes nothing."""
    if event.table_id in state.tables or len(event.placings) < 2:
        return state
    model = _model()
    before = [state.entries.get(p.player_id) for p in event.placings]
    teams = [[model.rating(mu=e.mu, sigma=e.sigma) if e else model.rating()] for e in before]
    rated = model.rate(teams, ranks=[float(p.place) for p in event.placings])
    entries = dict(state.entries)
    for placing, old, (new,) in zip(event.placings, before, rated, strict=True):
        point = Point(
            table_id=event.table_id,
            source=event.source,
            at_ms=event.at_ms,
            place=placing.place,
            players=len(event.placings),
            mu=new.mu,
            sigma=new.sigma,
            rating=new.ordinal(),
        )
        entries[placing.player_id] = Entry(
            player_id=placing.player_id,
            mu=new.mu,
            sigma=new.sigma,
            games=(old.games if old else 0) + 1,
            wins=(old.wins if old else 0) + (placing.place == 1),
            history=(*(old.history if old else ()), point),
        )
    return replace(state, entries=entries, tables=(*state.tables, event.table_id))


def decider(game: str) -> Rules[Rated, LadderState | None, Rated]:
    """The ladder of ``game``: its command is the rated table itself, appended once
    (a table it has rated decides nothing)."""

    def rate(state: LadderState | None, event: Rated) -> list[Rated]:
        return [] if state is not None and event.table_id in state.tables else [event]

    def evolve_from(state: LadderState | None, event: Rated) -> LadderState:
        return evolve(LadderState(game=game) if state is None else state, event)

    return Rules(LadderState(game=game), rate, evolve_from)


def fold(game: str, events: Iterable[Rated]) -> LadderState:
    state = LadderState(game=game)
    for event in events:
        state = evolve(state, event)
    return state


def prior(state: LadderState, player_id: str) -> tuple[float, float] | None:
    """The (mu, sigma) a tournament starts this player from; None for a newcomer."""
    entry = state.entries.get(player_id)
    return (entry.mu, entry.sigma) if entry is not None else None


class LadderLine(Record, frozen=True):
    rank: int
    player_id: str
    name: str
    bot: bool
    rating: float
    mu: float
    sigma: float
    games: int
    wins: int
    provisional: bool


class LadderView(Record, frozen=True):
    """A game's public leaderboard, best first."""

    game: str
    #: A player with fewer rated games than this is provisional.
    provisional_below: int
    tables: int
    lines: tuple[LadderLine, ...]


class PlayerLadder(Record, frozen=True):
    """One player's rating on one game's ladder, with every rated table (the
    rank is the leaderboard's: it moves with everyone else's games)."""

    game: str
    rating: float
    mu: float
    sigma: float
    games: int
    wins: int
    provisional: bool
    history: tuple[Point, ...]


def _ranked(state: LadderState) -> list[Entry]:
    return sorted(state.entries.values(), key=lambda e: (-_ordinal(e.mu, e.sigma), e.player_id))


def leaderboard(
    state: LadderState, names: Mapping[str, str], bots: Mapping[str, bool] | None = None
) -> LadderView:
    bots = bots or {}
    lines = tuple(
        LadderLine(
            rank=i,
            player_id=e.player_id,
            name=names.get(e.player_id, e.player_id),
            bot=bots.get(e.player_id, False),
            rating=_ordinal(e.mu, e.sigma),
            mu=e.mu,
            sigma=e.sigma,
            games=e.games,
            wins=e.wins,
            provisional=e.games < PROVISIONAL_GAMES,
        )
        for i, e in enumerate(_ranked(state), start=1)
    )
    return LadderView(
        game=state.game, provisional_below=PROVISIONAL_GAMES, tables=len(state.tables), lines=lines
    )


def player_ladder(state: LadderState, player_id: str) -> PlayerLadder | None:
    e = state.entries.get(player_id)
    if e is None:
        return None
    return PlayerLadder(
        game=state.game,
        rating=_ordinal(e.mu, e.sigma),
        mu=e.mu,
        sigma=e.sigma,
        games=e.games,
        wins=e.wins,
        provisional=e.games < PROVISIONAL_GAMES,
        history=e.history,
    )
