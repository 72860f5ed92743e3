"""Events of an invitation."""

from __future__ import annotations

from typing import Any

from shared.casual.commands import CasualSeat
from shared.kernel.messages import Event


class CasualEvent(Event, kw_only=True):
    at_ms: int = 0


class Invited(CasualEvent, tag="casual.invited", kw_only=True):
    invitation_id: str
    host: str
    game: str
    game_options: dict[str, Any]
    seats: tuple[CasualSeat, ...]
    rated: bool


class Accepted(CasualEvent, tag="casual.accepted"):
    player_id: str


class Declined(CasualEvent, tag="casual.declined"):
    player_id: str


class Opened(CasualEvent, tag="casual.opened"):
    table_id: str


CasualEventUnion = Invited | Accepted | Declined | Opened
