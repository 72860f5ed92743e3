"""Fold one tournament event into the state; never fails on a decided event."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from msgspec.structs import replace

from shared.tournaments.events import (
    Created,
    Finished,
    Registered,
    ResultRecorded,
    RoundCompleted,
    RoundPaired,
    Started,
    TableOpened,
    TournamentEventUnion,
    Withdrew,
)
from shared.tournaments.state import Player, Round, Table, TournamentState


def evolve(state: TournamentState | None, event: TournamentEventUnion) -> TournamentState:
    if isinstance(event, Created):
        return TournamentState(tournament_id=event.tournament_id, settings=event.settings)
    if state is None:
        raise ValueError(f"{type(event).__name__} before tournament.created")
    match event:
        case Registered():
            return replace(state, players=(*state.players, _player(event)))
        case Withdrew(player_id=pid):
            players = tuple(replace(p, withdrawn=True) if p.player_id == pid else p for p in state.players)
            return replace(state, players=players)
        case Started(players=entrants, rounds=planned, schedule=schedule):
            return replace(
                state, status="running", entrants=entrants, planned_rounds=planned, schedule=schedule
            )
        case RoundPaired():
            tables = tuple(Table(table=s.table, players=s.players) for s in event.tables)
            new_round = Round(number=event.round, tables=tables, byes=event.byes)
            return replace(state, rounds=(*state.rounds, new_round))
        case TableOpened():
            return _update_table(state, event.round, event.table, lambda t: replace(t, game_id=event.game_id))
        case ResultRecorded():
            state = _update_table(
                state,
                event.round,
                event.table,
                lambda t: replace(t, game_id=event.game_id, placings=event.placings, reason=event.reason),
            )
            return replace(state, result_order=(*state.result_order, event.game_id))
        case RoundCompleted(round=number):
            rounds = tuple(replace(r, complete=True) if r.number == number else r for r in state.rounds)
            return replace(state, rounds=rounds)
        case Finished(ranking=ranking):
            return replace(state, status="finished", ranking=ranking)
    raise AssertionError(f"unhandled event {event!r}")


def _player(event: Registered) -> Player:
    return Player(
        player_id=event.player_id,
        name=event.name,
        kind=event.kind,
        bot=event.bot,
        seed=event.seed,
        account=event.account,
        rating=event.rating,
    )


def _update_table(
    state: TournamentState, number: int, index: int, change: Callable[[Table], Table]
) -> TournamentState:
    def in_round(rnd: Round) -> Round:
        if rnd.number != number:
            return rnd
        return replace(rnd, tables=tuple(change(t) if t.table == index else t for t in rnd.tables))

    return replace(state, rounds=tuple(in_round(r) for r in state.rounds))


def fold(events: Iterable[TournamentEventUnion], state: TournamentState | None = None) -> TournamentState:
    for event in events:
        state = evolve(state, event)
    if state is None:
        raise ValueError("cannot fold an empty event list without a state")
    return state
