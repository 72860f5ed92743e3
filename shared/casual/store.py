"""The casual tables' store adapter: invitation streams, run by the one host of
platform aggregates, and what the player process reads of a casual table when
it ends. Its keys are in :mod:`shared.casual.keys`."""

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
