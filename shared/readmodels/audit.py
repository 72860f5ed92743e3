"""A game's audit log: every event and command, hidden ones included, and its
verification (the seed against its commitment, every event re-derived from the
commands). The gateway serves the log once the game is over and checks it for
the lobby (``GET /v1/tables/{table_id}/verify``); ``ziggurat verify`` fetches
and checks it from outside; the tests check every finished game with it.
"""

from __future__ import annotations

import msgspec

from shared.eventstore.envelope import CommandRecord, EventEnvelope
from shared.eventstore.tables import decode_all
from shared.games import registry
from shared.kernel.codec import codec_for
from shared.kernel.table import TableOpened
from shared.kernel.verify import Decided, Verdict, verify


class AuditLog(msgspec.Struct):
    """Every event and command of a game, hidden ones included (payloads are base64 MessagePack)."""

    events: list[EventEnvelope]
    commands: list[CommandRecord]


def verify_log(log: AuditLog) -> tuple[str, Verdict]:
    opened = msgspec.msgpack.decode(log.events[0].payload, type=TableOpened)
    game = registry.get(opened.game)
    codec = codec_for(game)
    events = decode_all(opened.game, log.events)
    decided = [
        Decided(
            seat=c.seat if c.seat is not None else -1,
            version=c.version,
            command=codec.command(c.payload) if c.payload else None,
            kind=c.kind,
            at_ms=c.at_ms,
        )
        for c in log.commands
        if c.kind != "open" and (c.payload or c.kind == "timeout")
    ]
    return opened.game, verify(game, events, decided)
