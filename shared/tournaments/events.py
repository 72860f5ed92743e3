"""Events of a tournament: facts, with every decision (pairings) written in.

``evolve`` only applies these; it never pairs, draws or scores anything the
event does not already say.
"""

from __future__ import annotations

from shared.kernel.messages import Event, Record
from shared.tournaments.commands import Placing, PlayerKind
from shared.tournaments.settings import Settings


class Seating(Record, frozen=True):
    """One table of a round: players in seat order (seat 0 moves first)."""

    table: int
    players: tuple[str, ...]


class ScheduledRound(Record, frozen=True):
    tables: tuple[Seating, ...]
    byes: tuple[str, ...] = ()


class TournamentEvent(Event, kw_only=True):
    at_ms: int = 0


class Created(TournamentEvent, tag="tournament.created"):
    tournament_id: str
    settings: Settings


class Registered(TournamentEvent, tag="tournament.registered", kw_only=True):
    player_id: str
    name: str
    kind: PlayerKind
    bot: str | None = None
    #: Registration order from 1: the last tie-break, and elimination seeding.
    seed: int
    #: A player account (its results feed the ladder), with its ladder rating as prior.
    account: bool = False
    rating: tuple[float, float] | None = None


class Withdrew(TournamentEvent, tag="tournament.withdrew"):
    player_id: str


class Started(TournamentEvent, tag="tournament.started"):
    #: Active players at the start, in seed order.
    players: tuple[str, ...]
    #: The rounds to play; 0 when the format decides as it goes (elimination).
    rounds: int
    #: Round robin: every round's tables, fixed at the start.
    schedule: tuple[ScheduledRound, ...] = ()


class RoundPaired(TournamentEvent, tag="tournament.round_paired"):
    round: int
    tables: tuple[Seating, ...]
    byes: tuple[str, ...] = ()


class TableOpened(TournamentEvent, tag="tournament.table_opened"):
    round: int
    table: int
    game_id: str


class ResultRecorded(TournamentEvent, tag="tournament.result_recorded"):
    round: int
    table: int
    game_id: str
    placings: tuple[Placing, ...]
    reason: str = ""


class RoundCompleted(TournamentEvent, tag="tournament.round_completed"):
    round: int


class Finished(TournamentEvent, tag="tournament.finished"):
    #: Final ranking, best first (computed by the standings at finish).
    ranking: tuple[str, ...]


TournamentEventUnion = (
    Created
    | Registered
    | Withdrew
    | Started
    | RoundPaired
    | TableOpened
    | ResultRecorded
    | RoundCompleted
    | Finished
)
