"""Commands an organiser (or the process manager) sends to a tournament.

Times (``at_ms``, milliseconds since the epoch) come from the shell: the
tournament logic never reads a clock. Ids (player ids, game ids) are made by
the shell too, so that deciding twice gives the same events.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from shared.kernel.bounds import (
    MAX_SEATS,
    Count,
    EpochMs,
    LongName,
    Name,
    PointsPerPlace,
    RawOptions,
    Score,
    Seat,
    SeatCount,
)
from shared.kernel.messages import Command, Record
from shared.tournaments.settings import ClockSettings, Format, SpectatorDelay

PlayerKind = Literal["human", "bot"]
#: An OpenSkill (mu, sigma) carried in from a ladder.
Prior = tuple[Annotated[float, msgspec.Meta(ge=-1e6, le=1e6)], Annotated[float, msgspec.Meta(ge=0, le=1e6)]]


class Placing(Record, frozen=True, forbid_unknown_fields=True):
    """One seat of a finished game: who sat there, their place, their score.

    Equal ``place`` is a shared place (1, 1, 3), as in a game's ``Result``.
    """

    seat: Seat
    player_id: Name
    place: SeatCount
    score: Score


class TournamentCommand(Command, kw_only=True):
    at_ms: EpochMs = 0


class Create(TournamentCommand, tag="tournament.create", kw_only=True):
    tournament_id: Name
    name: LongName = ""
    game: Name
    game_options: RawOptions = msgspec.field(default_factory=dict)
    format: Format = "swiss"
    seats_per_table: SeatCount = 2
    #: ``None``: every table full (see :mod:`shared.tournaments.settings`).
    min_table_size: SeatCount | None = None
    rounds: Count = 0
    clock: ClockSettings | None = None
    points: PointsPerPlace | None = None
    bye_points: Score | None = None
    delay: SpectatorDelay = SpectatorDelay()
    qualifiers: SeatCount = 1


class Register(TournamentCommand, tag="tournament.register"):
    player_id: Name
    name: LongName
    kind: PlayerKind = "human"
    #: The bot that plays this entry (``kind == "bot"`` only).
    bot: Name | None = None
    #: A registered player account (``player_id`` is its id): its results feed the ladder.
    account: bool = False
    #: Its ladder rating (mu, sigma): the tournament's ratings start from it.
    rating: Prior | None = None


class Withdraw(TournamentCommand, tag="tournament.withdraw"):
    player_id: Name


class Start(TournamentCommand, tag="tournament.start"):
    pass


class PairRound(TournamentCommand, tag="tournament.pair_round"):
    pass


class OpenTable(TournamentCommand, tag="tournament.open_table"):
    round: Count
    table: Count
    game_id: LongName


class RecordResult(TournamentCommand, tag="tournament.record_result"):
    game_id: LongName
    placings: Annotated[tuple[Placing, ...], msgspec.Meta(max_length=MAX_SEATS)]
    reason: LongName = ""


class Finish(TournamentCommand, tag="tournament.finish"):
    pass


TournamentCommandUnion = Create | Register | Withdraw | Start | PairRound | OpenTable | RecordResult | Finish
