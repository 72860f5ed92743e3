"""Commands on an invitation. Ids and times come from the shell."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from shared.kernel.bounds import MAX_SEATS, EpochMs, Name, RawOptions
from shared.kernel.levels import Level
from shared.kernel.messages import Command, Record


class CasualSeat(Record, frozen=True, forbid_unknown_fields=True):
    """A seat: a player account (invited), or one of our bots at a level (``bot``:
    easy, medium or hard; ``random``, its name before levels, plays easy)."""

    player_id: Name | None = None
    bot: Level | Literal["random"] | None = None


class CasualCommand(Command, kw_only=True):
    at_ms: EpochMs = 0


class Invite(CasualCommand, tag="casual.invite", kw_only=True):
    invitation_id: Name
    host: Name
    game: Name
    game_options: RawOptions = msgspec.field(default_factory=dict)
    seats: Annotated[tuple[CasualSeat, ...], msgspec.Meta(min_length=1, max_length=MAX_SEATS)]
    rated: bool = False


class Accept(CasualCommand, tag="casual.accept"):
    player_id: Name


class Decline(CasualCommand, tag="casual.decline"):
    player_id: Name


class MarkOpened(CasualCommand, tag="casual.mark_opened"):
    table_id: Name


CasualCommandUnion = Invite | Accept | Decline | MarkOpened
