"""The tournaments' store adapter: tournament streams, run by the one host of
platform aggregates (the writer, services/platform/writer.py, holds their
states and answers). Its keys are in :mod:`shared.tournaments.keys`."""

from __future__ import annotations

import msgspec

from shared.eventstore.aggregates import Aggregate
from shared.tournaments.decide import DECIDER
from shared.tournaments.events import TournamentEventUnion
from shared.tournaments.state import TournamentState

decode_event = msgspec.msgpack.Decoder(TournamentEventUnion).decode  # type: ignore[arg-type]
TOURNAMENTS: Aggregate[TournamentState, TournamentEventUnion] = Aggregate(DECIDER, decode_event, "tournament")
