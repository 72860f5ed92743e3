"""What the store holds around each event and each command.

The payload is the event's own msgpack bytes, so the store never needs the
game's types; readers decode it with the game's union.
"""

from __future__ import annotations

from typing import Literal

from shared.kernel.messages import Record


class EventEnvelope(Record, frozen=True):
    game_id: str
    partition: int
    version: int  # 1-based position in the game's stream
    event_id: str  # GameKeys.event_id: "<namespace>:<game_id>:<version>", unique across the store
    command_id: str  # causation: the command this event answers
    correlation_id: str
    server_time: int  # ms since the epoch, stamped by the reducer
    seat: int | None  # the acting seat; None for the platform
    payload: bytes  # msgpack of the event


class CommandRecord(Record, frozen=True):
    """An accepted command, kept so a finished game can be re-decided (verify)."""

    command_id: str
    seat: int | None
    version: int  # the version the command was decided at
    payload: bytes  # msgpack of the command; empty for a timeout
    kind: str = "move"  # "open", "move" or "timeout"
    at_ms: int = 0  # the server time it was decided at (clocks depend on it)


class AppendOutcome(Record, frozen=True):
    status: Literal["appended", "duplicate", "conflict", "fenced"]
    #: appended/duplicate: the versions of the command's events (first..last);
    #: conflict: the stream's current version in ``last``; fenced: the
    #: partition's latest lease token (not the writer's), in ``last``.
    first: int
    last: int
