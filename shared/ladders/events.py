"""The one event of a ladder: a table's result, among the registered players who sat there."""

from __future__ import annotations

from shared.kernel.messages import Event, Record


class RatedPlacing(Record, frozen=True):
    player_id: str
    #: 1 is best; equal places are a tie.
    place: int
    score: int = 0


class Rated(Event, tag="ladder.rated", kw_only=True):
    #: The game's table id: a table is rated once (the store's dedup key).
    table_id: str
    #: Where the result comes from: ``tournament:<id>`` or ``casual``.
    source: str
    placings: tuple[RatedPlacing, ...]
    at_ms: int = 0


LadderEventUnion = Rated
