"""Commands an organiser (or the process manager) sends to a tournament.

Times (``at_ms``, milliseconds since the epoch) come from the shell: the
tournament logic never reads a clock. Ids (player ids, game ids) are made by
the shell too, so that deciding twice gives the same events.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from shared.kernel.messages import Command, Record
from shared.tournaments.settings import ClockSettings, Format, SpectatorDelay

PlayerKind = Literal["human", "bot"]


class Placing(Record, frozen=True, forbid_unknown_fields=True):
    """One seat of a finished game: who sat there, their place, their score.

    Equal ``place`` is a shared place (1, 1, 3), as in a game's ``Result``.
    """

    seat: int
    player_id: str
    place: int
    score: int


class TournamentCommand(Command):
    at_ms: int = 0


class Create(TournamentCommand, tag="tournament.create"):
    tournament_id: str
    name: str = ""
    game: str
    game_options: dict[str, Any] = msgspec.field(default_factory=dict)
    format: Format = "swiss"
    seats_per_table: int = 2
    #: ``None``: every table full (see :mod:`shared.tournaments.settings`).
    min_table_size: int | None = None
    rounds: int = 0
    clock: ClockSettings | None = None
    points: tuple[int, ...] | None = None
    bye_points: int | None = None
    delay: SpectatorDelay = SpectatorDelay()
    qualifiers: int = 1


class Register(TournamentCommand, tag="tournament.register"):
    player_id: str
    name: str
    kind: PlayerKind = "human"
    #: The bot that plays this entry (``kind == "bot"`` only).
    bot: str | None = None


class Withdraw(TournamentCommand, tag="tournament.withdraw"):
    player_id: str


class Start(TournamentCommand, tag="tournament.start"):
    pass


class PairRound(TournamentCommand, tag="tournament.pair_round"):
    pass


class OpenTable(TournamentCommand, tag="tournament.open_table"):
    round: int
    table: int
    game_id: str


class RecordResult(TournamentCommand, tag="tournament.record_result"):
    game_id: str
    placings: tuple[Placing, ...]
    reason: str = ""


class Finish(TournamentCommand, tag="tournament.finish"):
    pass


TournamentCommandUnion = Create | Register | Withdraw | Start | PairRound | OpenTable | RecordResult | Finish
