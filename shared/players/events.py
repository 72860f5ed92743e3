"""Events of a player account: facts, never re-decided by ``evolve``."""

from __future__ import annotations

from shared.kernel.messages import Event


class PlayerEvent(Event, kw_only=True):
    at_ms: int = 0


class Registered(PlayerEvent, tag="player.registered", kw_only=True):
    player_id: str
    name: str
    bot: bool = False
    operator: str | None = None
    key_hash: str


class KeyRotated(PlayerEvent, tag="player.key_rotated", kw_only=True):
    key_hash: str


PlayerEventUnion = Registered | KeyRotated
