"""The open command the platform process sends for each table it seats, a
tournament's or an arena's: one shape, so both open their games the same way."""

from __future__ import annotations

import time
from typing import Any

from shared.kernel.auth import token_hash
from shared.kernel.clocks import ClockSettings, SpectatorDelay
from shared.messaging.messages import OpenMsg, OpenTable


def open_command(
    game_id: str,
    partition: int,
    *,
    correlation_id: str,
    reply_to: str,
    game: str,
    options: dict[str, Any],
    tokens: list[str],
    clock: ClockSettings | None = None,
    spectator_delay: SpectatorDelay | None = None,
) -> OpenMsg:
    """Open ``game_id`` with a seat per token. The command id is the table's own, so
    a repeated open (a retry, a restart) is refused as a duplicate, never a second table."""
    return OpenMsg(
        game_id=game_id,
        partition=partition,
        command_id=f"open-{game_id}",
        correlation_id=correlation_id,
        reply_to=reply_to,
        received_ns=time.time_ns(),
        open=OpenTable(
            game=game,
            seats=len(tokens),
            options=options,
            token_hashes=tuple(token_hash(t) for t in tokens),
            clock=clock,
            spectator_delay=spectator_delay,
        ),
    )
