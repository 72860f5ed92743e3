"""What a gateway sends the tournament service (JSON on the command stream).

The answer is the platform's :class:`~shared.messaging.messages.Outcome`,
published on the gateway's reply channel like a game's.
"""

from __future__ import annotations

import msgspec

from shared.kernel.messages import Record


class TournamentMsg(Record, frozen=True):
    tournament_id: str
    command_id: str  # idempotency key, scoped to the tournament
    correlation_id: str
    reply_to: str  # the gateway node waiting for the outcome
    request_id: str = ""  # routes the outcome to the one request waiting for it
    received_ns: int
    command: msgspec.Raw  # a tournament command as JSON (tagged by "type")


encode = msgspec.json.Encoder().encode
decode_batch = msgspec.json.Decoder(list[TournamentMsg]).decode
