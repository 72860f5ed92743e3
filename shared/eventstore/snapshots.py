"""Snapshots of a table: an optimisation only, never a source of truth.

The reducer writes one every ``snapshot_every`` events, so a cold table (a
restart, a cache eviction) folds the snapshot plus the events after it instead
of its whole stream. A snapshot is trusted only when all of these hold, and
otherwise ignored, which means the whole stream is folded as if there were none:

* it decodes, with the game's ``state_type``, and names a registered game;
* it was written by the same rules: its ``fingerprint`` digests the source of
  the kernel and of every game (and of the state type's own module), so after a
  deploy that changes any rule, old snapshots are replayed over, never
  reinterpreted;
* it belongs to this stream: its ``anchor`` digests the stored envelope of the
  version it holds, so a snapshot left from another stream under the same key,
  or past the stream's end, does not match.

The platform's own aggregates (player accounts, arenas, invitations,
tournaments: :mod:`shared.eventstore.aggregates`) keep snapshots on the same
three conditions, in an :class:`AggregateSnapshot`: their fingerprint digests
the packages their folds live in instead of the games'.
"""

from __future__ import annotations

import hashlib
import importlib
import sys
from functools import cache
from pathlib import Path
from typing import Any

import msgspec

from shared.games import registry
from shared.kernel.contract import GameModule
from shared.kernel.table import Table

#: Sources whose change can change what a fold derives (content packs are data
#: the rules read); documentation is left out.
_SOURCE_SUFFIXES = frozenset({".py", ".yaml", ".yml", ".json", ".toml"})


class Snapshot(msgspec.Struct, array_like=True, frozen=True):
    game: str
    fingerprint: bytes  # the rules that wrote it (see :func:`fingerprint`)
    anchor: bytes  # digest of the stored envelope at ``version``
    version: int
    table: bytes  # msgpack of the table with ``state=None``
    state: bytes  # msgpack of the game's state


class AggregateSnapshot(msgspec.Struct, array_like=True, frozen=True):
    kind: str  # the aggregate's kind (its event id prefix: ``player``, ``arena``...)
    fingerprint: bytes  # the fold that wrote it (see :func:`aggregate_fingerprint`)
    anchor: bytes  # digest of the stored envelope at ``version``
    version: int
    state: bytes  # msgpack of the folded state


#: The packages a game's fold may read: the kernel and the games (content packs included).
_GAME_RULES = ("shared.kernel", "shared.games")
#: The packages the platform aggregates' folds live in: the pure core but the games
#: (pyproject's import contracts keep the folds inside it). Any change to them makes
#: every aggregate snapshot unusable, which costs each aggregate one whole fold.
_PLATFORM_RULES = (
    "shared.kernel",
    "shared.players",
    "shared.arenas",
    "shared.casual",
    "shared.tournaments",
    "shared.ladders",
)

_encode = msgspec.msgpack.Encoder().encode
_decode_snapshot = msgspec.msgpack.Decoder(Snapshot).decode
_decode_aggregate = msgspec.msgpack.Decoder(AggregateSnapshot).decode
_decode_table = msgspec.msgpack.Decoder(Table).decode


def anchor(raw_envelope: bytes) -> bytes:
    return hashlib.blake2b(raw_envelope, digest_size=16).digest()


def encode(table: Table, raw_envelope: bytes) -> bytes:
    """The snapshot of ``table``, whose last event is stored as ``raw_envelope``."""
    game = registry.get(table.game)
    if game.state_type is None:
        raise ValueError(f"{game.key} declares no state_type, so it cannot be snapshotted")
    return _encode(
        Snapshot(
            game=game.key,
            fingerprint=fingerprint(game),
            anchor=anchor(raw_envelope),
            version=table.version,
            table=_encode(msgspec.structs.replace(table, state=None)),
            state=_encode(table.state),
        )
    )


def decode(raw: bytes) -> Snapshot | None:
    """The snapshot if this code may use it (decodes, same rules), else ``None``."""
    try:
        snap = _decode_snapshot(raw)
        game = registry.get(snap.game)
    except (msgspec.MsgspecError, registry.UnknownGame):
        return None
    if game.state_type is None or snap.fingerprint != fingerprint(game):
        return None
    return snap


def restore(snap: Snapshot, raw_envelope: bytes) -> Table | None:
    """The table ``snap`` holds, if ``raw_envelope`` (the stream's envelope at
    ``snap.version``) is the one it was taken after; else ``None``."""
    if anchor(raw_envelope) != snap.anchor:
        return None
    game = registry.get(snap.game)
    try:
        table = _decode_table(snap.table)
        state = _state_decoder(game).decode(snap.state)
    except msgspec.MsgspecError:
        return None
    if table.version != snap.version or table.game != snap.game:
        return None
    return msgspec.structs.replace(table, state=state)


def encode_aggregate(kind: str, fingerprint: bytes, version: int, state: bytes, raw_envelope: bytes) -> bytes:
    """The snapshot of an aggregate's ``state`` (msgpack), whose last event is stored as ``raw_envelope``."""
    return _encode(AggregateSnapshot(kind, fingerprint, anchor(raw_envelope), version, state))


def decode_aggregate(raw: bytes, kind: str, fingerprint: bytes) -> AggregateSnapshot | None:
    """The snapshot if it decodes and was written by this fold of this kind, else ``None``."""
    try:
        snap = _decode_aggregate(raw)
    except msgspec.MsgspecError:
        return None
    return snap if snap.kind == kind and snap.fingerprint == fingerprint else None


@cache
def aggregate_fingerprint(kind: str, state_type: Any) -> bytes:
    """The aggregate's kind and state type, and its rules' source, digested once per process."""
    h = hashlib.blake2b(digest_size=16)
    h.update(f"{kind}\0{state_type!r}\0".encode())
    h.update(_sources_digest(_PLATFORM_RULES))
    return h.digest()


_state_decoders: dict[str, msgspec.msgpack.Decoder[Any]] = {}
_fingerprints: dict[str, bytes] = {}


def _state_decoder(game: GameModule[Any, Any, Any, Any]) -> msgspec.msgpack.Decoder[Any]:
    decoder = _state_decoders.get(game.key)
    if decoder is None:
        decoder = _state_decoders[game.key] = msgspec.msgpack.Decoder(game.state_type)
    return decoder


def fingerprint(game: GameModule[Any, Any, Any, Any]) -> bytes:
    """The game's key and state type, and the rules' source, digested once per process."""
    found = _fingerprints.get(game.key)
    if found is None:
        found = _fingerprints[game.key] = _fingerprint(game)
    return found


def _fingerprint(game: GameModule[Any, Any, Any, Any]) -> bytes:
    h = hashlib.blake2b(digest_size=16)
    h.update(f"{game.key}\0{game.state_type.__module__}.{game.state_type.__qualname__}\0".encode())
    h.update(_sources_digest(_GAME_RULES))
    module = sys.modules.get(game.state_type.__module__)
    path = Path(module.__file__) if module is not None and module.__file__ else None
    if path is not None and not _under(path, _GAME_RULES):
        h.update(path.read_bytes())
    return h.digest()


def _roots(packages: tuple[str, ...]) -> list[Path]:
    return [Path(p) for name in packages for p in importlib.import_module(name).__path__]


def _under(path: Path, packages: tuple[str, ...]) -> bool:
    return any(path.resolve().is_relative_to(root.resolve()) for root in _roots(packages))


@cache
def _sources_digest(packages: tuple[str, ...]) -> bytes:
    h = hashlib.blake2b(digest_size=16)
    for root in _roots(packages):
        for path in sorted(root.rglob("*")):
            if path.suffix in _SOURCE_SUFFIXES and "__pycache__" not in path.parts and path.is_file():
                h.update(str(path.relative_to(root)).encode() + b"\0")
                h.update(path.read_bytes())
    return h.digest()
