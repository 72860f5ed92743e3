"""Which round comes next, by format: the bridge from state to the pairing methods."""

from __future__ import annotations

from shared.kernel.rng import Rng
from shared.tournaments.events import ScheduledRound, Seating
from shared.tournaments.pairing import elimination, round_robin, swiss
from shared.tournaments.pairing.common import Pairing, history
from shared.tournaments.settings import MAX_SEATS
from shared.tournaments.standings import points
from shared.tournaments.state import TournamentState, active_players, round_running


def past_pairings(state: TournamentState) -> list[Pairing]:
    return [Pairing(tables=tuple(t.players for t in r.tables), byes=r.byes) for r in state.rounds]


def initial_schedule(state: TournamentState, rng: Rng) -> tuple[ScheduledRound, ...]:
    """Round robin only: the whole schedule, fixed at the start."""
    s = state.settings
    if s.format != "round_robin":
        return ()
    rounds = round_robin.schedule(active_players(state), s.seats_per_table, s.min_table_size, rng, s.rounds)
    return tuple(
        ScheduledRound(
            tables=tuple(Seating(table=i, players=t) for i, t in enumerate(r.tables, 1)), byes=r.byes
        )
        for r in rounds
    )


def _elimination_field(state: TournamentState) -> tuple[list[str], bool]:
    """(players still in, strongest first; whether the final was played)."""
    active = set(active_players(state))
    if not state.rounds:
        return list(active_players(state)), False
    last = state.rounds[-1]
    results = [t.placings for t in last.tables if t.placings is not None]
    seeds = {p.player_id: p.seed for p in state.players}
    through = elimination.qualified(results, last.byes, state.settings.qualifiers, seeds)
    played = Pairing(tables=tuple(t.players for t in last.tables), byes=last.byes)
    return [p for p in through if p in active], elimination.is_final(played)


def has_next_round(state: TournamentState) -> bool:
    """Whether the format has another round to pair once the current one is over."""
    s = state.settings
    if s.format == "swiss":
        return len(state.rounds) < state.planned_rounds
    if s.format == "round_robin":
        return len(state.rounds) < len(state.schedule)
    players, final = _elimination_field(state)
    return not final and len(players) > 1


def is_complete(state: TournamentState) -> bool:
    """Every planned round is played: time to finish."""
    return state.status == "running" and not round_running(state) and not has_next_round(state)


def _from_schedule(state: TournamentState) -> Pairing:
    planned = state.schedule[len(state.rounds)]
    active = set(active_players(state))
    tables, byes = [], [p for p in planned.byes if p in active]
    for seating in planned.tables:
        present = tuple(p for p in seating.players if p in active)
        # Withdrawals can leave a table below the organiser's minimum: it is
        # not played, and whoever is left gets a bye rather than no round.
        if len(present) >= state.settings.min_table_size:
            tables.append(present)
        else:
            byes.extend(present)
    return Pairing(tables=tuple(tables), byes=tuple(byes))


def next_pairing(state: TournamentState, rng: Rng) -> Pairing:
    """The next round's tables; call only when :func:`has_next_round` holds."""
    s = state.settings
    hist = history(past_pairings(state), MAX_SEATS)
    if s.format == "swiss":
        return swiss.pair(
            active_players(state), points(state), hist, s.seats_per_table, s.min_table_size, rng
        )
    if s.format == "round_robin":
        return _from_schedule(state)
    players, _ = _elimination_field(state)
    return elimination.pair(players, s.seats_per_table, s.min_table_size, s.qualifiers, hist)
