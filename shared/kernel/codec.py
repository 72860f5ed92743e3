"""Encoders and decoders for one game's table stream, built once per game.

MessagePack inside the system, JSON at the edge for people. A table's stream
holds the platform's events and the game's, so the event decoder is the union
of both.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from shared.kernel.contract import GameModule
from shared.kernel.table import TableEvent


class GameCodec:
    def __init__(self, game: GameModule[Any, Any, Any, Any]) -> None:
        self.game = game
        union = TableEvent | game.event_type
        self._event_pack = msgspec.msgpack.Decoder(union)
        self._events_pack = msgspec.msgpack.Decoder(list[union])  # type: ignore[valid-type]
        self._event_json = msgspec.json.Decoder(union)
        self._command_json = msgspec.json.Decoder(game.command_type)
        self._command_pack = msgspec.msgpack.Decoder(game.command_type)
        self.pack = msgspec.msgpack.Encoder().encode
        self.json = msgspec.json.Encoder().encode

    def event(self, raw: bytes) -> Any:
        return self._event_pack.decode(raw)

    def events(self, raw: bytes) -> list[Any]:
        """Many events packed as one array (:func:`packed_array`): one call
        where a rebuild's log would take one per event."""
        return self._events_pack.decode(raw)

    def event_from_json(self, raw: bytes) -> Any:
        return self._event_json.decode(raw)

    def command_from_json(self, raw: bytes) -> Any:
        """Raises ``msgspec.ValidationError`` / ``DecodeError`` on bad input."""
        return self._command_json.decode(raw)

    def command(self, raw: bytes) -> Any:
        return self._command_pack.decode(raw)


def packed_array(items: Sequence[bytes]) -> bytes:
    """MessagePack items, each packed already, as one array of them."""
    return b"\xdd%b%b" % (len(items).to_bytes(4, "big"), b"".join(items))


_codecs: dict[str, GameCodec] = {}


def codec_for(game: GameModule[Any, Any, Any, Any]) -> GameCodec:
    codec = _codecs.get(game.key)
    if codec is None:
        codec = _codecs[game.key] = GameCodec(game)
    return codec
