"""The folded state of one tournament, and the queries the rules ask of it."""

from __future__ import annotations

from typing import Literal

from shared.kernel.messages import Record
from shared.tournaments.commands import Placing, PlayerKind
from shared.tournaments.events import ScheduledRound
from shared.tournaments.settings import Settings

Status = Literal["registering", "running", "finished"]


class Player(Record, frozen=True):
    player_id: str
    name: str
    kind: PlayerKind
    bot: str | None
    seed: int
    withdrawn: bool = False
    account: bool = False
    rating: tuple[float, float] | None = None


class Table(Record, frozen=True):
    table: int
    players: tuple[str, ...]
    game_id: str | None = None
    placings: tuple[Placing, ...] | None = None
    reason: str = ""


class Round(Record, frozen=True):
    number: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()
    complete: bool = False


class TournamentState(Record, frozen=True):
    tournament_id: str
    settings: Settings
    status: Status = "registering"
    players: tuple[Player, ...] = ()
    #: Players at the start, in seed order (fixed once running).
    entrants: tuple[str, ...] = ()
    planned_rounds: int = 0
    #: Round robin: the rounds fixed at the start.
    schedule: tuple[ScheduledRound, ...] = ()
    rounds: tuple[Round, ...] = ()
    #: Game ids in the order their results were recorded (ratings replay it).
    result_order: tuple[str, ...] = ()
    ranking: tuple[str, ...] = ()


def player(state: TournamentState, player_id: str) -> Player | None:
    return next((p for p in state.players if p.player_id == player_id), None)


def active_players(state: TournamentState) -> tuple[str, ...]:
    """Players still in, in seed order."""
    return tuple(p.player_id for p in sorted(state.players, key=lambda p: p.seed) if not p.withdrawn)


def current_round(state: TournamentState) -> Round | None:
    return state.rounds[-1] if state.rounds else None


def round_running(state: TournamentState) -> bool:
    last = current_round(state)
    return last is not None and not last.complete


def find_table(state: TournamentState, game_id: str) -> tuple[Round, Table] | None:
    for rnd in state.rounds:
        for table in rnd.tables:
            if table.game_id == game_id:
                return rnd, table
    return None


def results_in_order(state: TournamentState) -> list[tuple[Placing, ...]]:
    """Every recorded result in the order it was recorded."""
    by_game = {t.game_id: t.placings for r in state.rounds for t in r.tables if t.placings is not None}
    return [by_game[g] for g in state.result_order]
