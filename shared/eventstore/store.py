"""The event store's client: appends through one Lua script, reads by version.

Each method is one Redis round trip; ``append_many`` and ``read_many`` put a
whole batch of games in one pipeline, which is how the reducer and the
validator keep their round trips per command below one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from importlib.resources import files
from typing import Any, NamedTuple

import msgspec

from shared.eventstore.envelope import AppendOutcome, CommandRecord, EventEnvelope
from shared.eventstore.keys import GameKeys, fencing_token
from shared.infra.durability import Confirmation, Unconfirmed, confirm_at, run_confirmed
from shared.infra.lua import Call, LuaScript

_encode = msgspec.msgpack.Encoder().encode
_decode_envelope = msgspec.msgpack.Decoder(EventEnvelope).decode
_decode_command = msgspec.msgpack.Decoder(CommandRecord).decode
_APPEND_LUA = files("shared.eventstore").joinpath("append.lua").read_text()
#: A cold table's first read takes this many events with its snapshot: a new or
#: short game is then read whole in the same round trip as the warm ones.
COLD_PAGE = 256

#: (version, the stored envelope's bytes), decoded only if it is folded.
Row = tuple[int, bytes]


class ColdRead(NamedTuple):
    """A cold table's first read: its snapshot's bytes and its first events."""

    snapshot: bytes | None
    rows: list[Row]
    complete: bool  # the rows reach the stream's end


class AppendRequest(msgspec.Struct, frozen=True, kw_only=True):
    keys: GameKeys
    expected: int
    command_id: str
    command: CommandRecord | None
    envelopes: Sequence[EventEnvelope]


def encode_envelope(envelope: EventEnvelope) -> bytes:
    return _encode(envelope)


def decode_envelope(raw: bytes) -> EventEnvelope:
    return _decode_envelope(raw)


def _version_id(version: int) -> str:
    return f"0-{version}"


class EventStore:
    def __init__(self, redis: Any, durable: Confirmation | None = None) -> None:
        self.redis = redis
        #: How a replicated durability level confirms :meth:`append` (None: the
        #: primary's reply is the acknowledgement). The reducer confirms its
        #: batches itself, with the same confirmation (:meth:`append_confirmed`).
        self.durable = durable
        self._append = LuaScript(_APPEND_LUA)

    def _args(self, req: AppendRequest, token: int = 0) -> tuple[list[str], list[Any]]:
        k = req.keys
        keys = [k.events, k.commands, k.dedup, k.meta, k.feed, fencing_token(k.partition)]
        args: list[Any] = [
            req.expected,
            req.command_id,
            _encode(req.command) if req.command else b"",
            k.game_id,
            token,
            *map(_encode, req.envelopes),
        ]
        return keys, args

    async def append(self, req: AppendRequest) -> AppendOutcome:
        """One append; under a replicated level, answered only once the replicas
        hold it (and whatever its node held before): else :class:`Unconfirmed`."""
        if self.durable is None:
            return _outcome(await self._append.call(self.redis, *self._args(req)))
        [raw], confirmed = await run_confirmed(self._append, self.redis, [self._args(req)], self.durable)
        if not confirmed:
            raise Unconfirmed(f"{req.keys.game_id}: the replicas did not confirm the append in time")
        return _outcome(raw)

    async def confirm(self, keys: GameKeys) -> None:
        """Before telling a write found already made (a retried command's first
        outcome): under a replicated level, the replicas hold everything the
        stream's node holds now, else :class:`Unconfirmed`."""
        if self.durable is not None and not await confirm_at(self.redis, keys.dedup, self.durable):
            raise Unconfirmed(f"{keys.game_id}: the replicas did not confirm the stream in time")

    async def append_many(
        self, reqs: Sequence[AppendRequest], tokens: Mapping[int, int] | None = None
    ) -> list[AppendOutcome]:
        """Independent appends (different games) in one round trip.

        ``tokens``: the writer's lease token of each partition (a reducer's);
        the store refuses (``fenced``) an append whose token is not the
        partition's latest. Without one, the append is not fenced.
        """
        if not reqs:
            return []
        return [_outcome(r) for r in await self._append.run(self.redis, self._calls(reqs, tokens))]

    async def append_confirmed(
        self, reqs: Sequence[AppendRequest], confirm: Confirmation, tokens: Mapping[int, int] | None = None
    ) -> tuple[list[AppendOutcome], bool]:
        """:meth:`append_many`, each node's appends followed by a replicated durability
        level's wait (shared/infra/durability.py): the outcomes, and whether the
        replicas hold them all (and whatever else their nodes held)."""
        if not reqs:
            return [], True
        results, confirmed = await run_confirmed(self._append, self.redis, self._calls(reqs, tokens), confirm)
        return [_outcome(r) for r in results], confirmed

    def _calls(self, reqs: Sequence[AppendRequest], tokens: Mapping[int, int] | None) -> list[Call]:
        return [self._args(req, tokens.get(req.keys.partition, 0) if tokens else 0) for req in reqs]

    async def read(self, keys: GameKeys, after: int = 0) -> list[EventEnvelope]:
        """The game's events with version > ``after``, in order."""
        rows = await self.redis.xrange(keys.events, min=f"({_version_id(after)}", max="+")
        return [_decode_envelope(fields[b"e"]) for _, fields in rows]

    async def read_many(
        self,
        wanted: Sequence[tuple[GameKeys, int]],
        then: Callable[[Any], None] | None = None,
        cold: Sequence[GameKeys] = (),
    ) -> tuple[list[list[EventEnvelope]], list[ColdRead], list[Any]]:
        """Each game's events from a version on (that version's included, so the
        caller can tell the store still holds what it folded there), and each
        ``cold`` game's snapshot and first :data:`COLD_PAGE` events, in one round trip.

        ``then`` may queue more reads in the same pipeline; their replies come
        back last.
        """
        if not wanted and not cold and then is None:
            return [], [], []
        async with self.redis.pipeline(transaction=False) as pipe:
            for keys, since in wanted:
                pipe.xrange(keys.events, min=_version_id(since), max="+")
            for keys in cold:
                pipe.hget(keys.snapshot, "state")
                pipe.xrange(keys.events, min="-", max="+", count=COLD_PAGE)
            if then is not None:
                then(pipe)
            results = await pipe.execute()
        n = len(wanted)
        tails = [[_decode_envelope(fields[b"e"]) for _, fields in rows] for rows in results[:n]]
        firsts = [
            ColdRead(results[i], _rows(results[i + 1]), len(results[i + 1]) < COLD_PAGE)
            for i in range(n, n + 2 * len(cold), 2)
        ]
        return tails, firsts, results[n + 2 * len(cold) :]

    async def read_rows(self, wanted: Sequence[tuple[GameKeys, int]]) -> list[list[Row]]:
        """Each game's stored envelopes from a version on (inclusive), undecoded, in one round trip."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for keys, first in wanted:
                pipe.xrange(keys.events, min=_version_id(first), max="+")
            return [_rows(rows) for rows in await pipe.execute()]

    async def read_range(self, keys: GameKeys, first: int, last: int) -> list[EventEnvelope]:
        rows = await self.redis.xrange(keys.events, min=_version_id(first), max=_version_id(last))
        return [_decode_envelope(fields[b"e"]) for _, fields in rows]

    async def version(self, keys: GameKeys) -> int:
        return int(await self.redis.hget(keys.meta, "version") or 0)

    async def commands(self, keys: GameKeys) -> list[CommandRecord]:
        rows = await self.redis.xrange(keys.commands)
        return [_decode_command(fields[b"c"]) for _, fields in rows]

    async def save_snapshot(self, keys: GameKeys, version: int, state: bytes) -> None:
        await self.redis.hset(keys.snapshot, mapping={"version": version, "state": state})

    @staticmethod
    def queue_snapshot(pipe: Any, keys: GameKeys, version: int, state: bytes) -> None:
        """:meth:`save_snapshot` in a pipeline the caller executes (one HSET: atomic)."""
        pipe.hset(keys.snapshot, mapping={"version": version, "state": state})

    async def load_snapshot(self, keys: GameKeys) -> tuple[int, bytes] | None:
        row = await self.redis.hgetall(keys.snapshot)
        if not row:
            return None
        return int(row[b"version"]), row[b"state"]


def _rows(rows: list[tuple[bytes, dict[bytes, bytes]]]) -> list[Row]:
    # Stream ids are "0-<version>" (the append script sets them).
    return [(int(entry_id[2:]), fields[b"e"]) for entry_id, fields in rows]


def _outcome(raw: list[Any]) -> AppendOutcome:
    status = raw[0].decode() if isinstance(raw[0], bytes) else raw[0]
    return AppendOutcome(status=status, first=int(raw[1]), last=int(raw[2]))
