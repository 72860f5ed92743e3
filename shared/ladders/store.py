"""The ladders' store adapter: each game's ladder stream, run by the one host of
platform aggregates. Its keys are in :mod:`shared.ladders.keys`."""

from __future__ import annotations

from functools import cache

import msgspec

from shared.eventstore.aggregates import Aggregate
from shared.ladders.events import Rated
from shared.ladders.ladder import LadderState, decider

decode_rated = msgspec.msgpack.Decoder(Rated).decode


@cache
def ladder(game: str) -> Aggregate[LadderState, Rated]:
    """The ladder of ``game``; without snapshots (docs/architecture.md, "Aggregate
    snapshots": a ladder's state is every rated table's history, and the player
    process holds it)."""
    return Aggregate(decider(game), decode_rated, "ladder", snapshotted=False)
