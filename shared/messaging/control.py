"""The control plane's messages: what a gateway sends the platform process.

Organiser commands travel as JSON on one stream, through FastStream
(:mod:`shared.messaging.broker`). The answer is the platform's
:class:`~shared.messaging.messages.Outcome`, published on the gateway's reply
channel like a game's. Both sides import the types from here, so the gateway
never needs the platform process's code, and the AsyncAPI document is
generated from the same types.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from shared.kernel.bounds import LongName
from shared.kernel.messages import Record
from shared.tournaments.keys import tournament_command_stream

#: Organiser commands from the gateways, waiting for the platform process.
COMMANDS = tournament_command_stream()


class TournamentMsg(Record, frozen=True):
    """An organiser command on its way to the platform process."""

    tournament_id: LongName
    #: The idempotency key, scoped to the tournament.
    command_id: LongName
    correlation_id: LongName
    #: The gateway node waiting for the outcome.
    reply_to: LongName
    #: When the gateway got the request (wall clock, ns).
    received_ns: Annotated[int, msgspec.Meta(ge=0)]
    #: A tournament command as JSON, tagged by "type"; the service decodes it
    #: with the tournament command union.
    command: msgspec.Raw
    #: Routes the outcome to the one request waiting for it.
    request_id: LongName = ""
