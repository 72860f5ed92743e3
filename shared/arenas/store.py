"""The arena's store adapter: its streams run by the one host of platform aggregates,
shared by the gateway (create, join, leave) and the arena runner (pair, score,
close). Its keys are in :mod:`shared.arenas.keys`."""

from __future__ import annotations

import msgspec

from shared.arenas.events import ArenaEventUnion
from shared.arenas.rules import DECIDER
from shared.arenas.state import ArenaState
from shared.eventstore.aggregates import Aggregate

ARENAS: Aggregate[ArenaState, ArenaEventUnion] = Aggregate(
    DECIDER,
    msgspec.msgpack.Decoder(ArenaEventUnion).decode,
    "arena",
)
