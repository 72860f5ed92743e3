"""Invitation streams: the one :class:`Aggregate` of casual tables."""

from __future__ import annotations

import msgspec

from shared.casual.events import CasualEventUnion
from shared.casual.rules import DECIDER, Invitation
from shared.eventstore.aggregates import Aggregate

INVITATIONS: Aggregate[Invitation, CasualEventUnion] = Aggregate(
    DECIDER,
    msgspec.msgpack.Decoder(CasualEventUnion).decode,
    "casual",
)


class CasualTable(msgspec.Struct):
    """What the player process needs of a casual table when it ends."""

    game: str
    rated: bool
    #: The player account at each seat; null for one of our bots.
    seats: list[str | None]
