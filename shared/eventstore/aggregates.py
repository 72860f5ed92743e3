"""The one host of the platform's aggregates (player accounts, arenas, casual
invitations, tournaments, ladders): load, decide, append, keep snapshots.

Each aggregate's rules are a :class:`shared.kernel.decider.Decider` (initial,
decide, evolve), pure; this host is the only code that reads or writes their
streams, so a new aggregate brings its rules and its keys, never its own loop.

**Load.** An aggregate's state is a fold of its stream, and its stream grows
with every join, leave or key rotation a client sends, so a load reads a
snapshot (:class:`shared.eventstore.snapshots.AggregateSnapshot`, in the
stream's ``...:snapshot`` hash) and only the events after it, in one round
trip: reading an aggregate costs the same at 10 events and at 100,000. A
snapshot is an optimisation only: one that is missing, stale, corrupt, of
another fold (a deploy changed the rules) or of another stream (its anchor
does not match) is ignored, the whole stream is folded, and the snapshot is
replaced. An answer never depends on it. A process that keeps states (the
tournament writer, the ladders) hands the one it holds (``held``) and only the
events after it are read.

**Snapshots are kept** by whoever folded ``aggregate_snapshot_every`` events
past the last one (a setting, :func:`snapshot_every`): the writer
after its append, or a reader (a stream written before snapshots existed, or
whose snapshot a deploy voided). The write replaces only an older snapshot or
the unusable one the loader found, so racing writers never move it backwards.

**Decide and append** (:meth:`Aggregate.transact`). Load, decide, append with
the expected version and the command id; a writer that lost the race loads
again and decides again. A command id the stream has already seen answers the
state as it is and the versions its first append took, without deciding
twice. Every event gets the store's one event id, ``<namespace>:<id>:<version>``
(:meth:`GameKeys.event_id`). Then ``project`` updates the read models, on a
repeat too (it repairs a write lost after the append).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from functools import cache, cached_property
from typing import Any, Generic, TypeVar, get_type_hints

import msgspec
import structlog

from shared.eventstore import snapshots
from shared.eventstore.envelope import CommandRecord, EventEnvelope
from shared.eventstore.keys import GameKeys
from shared.eventstore.rewinds import Noticed, Rewind
from shared.eventstore.store import AppendRequest, EventStore, Row, decode_envelope, encode_envelope
from shared.infra.lua import LuaScript
from shared.infra.settings import load
from shared.kernel.decider import Decider

log = structlog.get_logger()
S = TypeVar("S")
E = TypeVar("E")
MAX_ATTEMPTS = 5
_encode = msgspec.msgpack.Encoder().encode
#: Aggregates whose state its own type refused, told once per process.
_refused: set[tuple[str, str]] = set()

# The snapshot and the events from its version on (the first one anchors it), or
# every event when there is no snapshot whose version can name a stream id.
_READ = LuaScript(
    """
local snap = redis.call("HMGET", KEYS[1], "version", "state")
local first = "-"
if snap[2] and snap[1] and #snap[1] <= 15 and string.match(snap[1], "^%d+$") then
  first = "0-" .. snap[1]
end
return {snap[1], snap[2], redis.call("XRANGE", KEYS[2], first, "+")}
"""
)
# ARGV: 1 version, 2 snapshot, 3 the stored version it may replace whatever it is
# (one its loader could not use; "" for none). Otherwise only an older one is replaced.
_SAVE = LuaScript(
    """
local current = redis.call("HGET", KEYS[1], "version")
if current and current ~= ARGV[3] and (tonumber(current) or -1) >= tonumber(ARGV[1]) then
  return 0
end
redis.call("HSET", KEYS[1], "version", ARGV[1], "state", ARGV[2])
return 1
"""
)


@cache
def snapshot_every() -> int:
    """The setting ``aggregate_snapshot_every``: how far a snapshot may fall behind its stream."""
    return load().aggregate_snapshot_every


class Busy(RuntimeError):
    """The stream kept moving under us: nothing was appended."""

    def __init__(self, message: str, conflicts: int = 0) -> None:
        super().__init__(message)
        self.conflicts = conflicts


class Loaded(msgspec.Struct, Generic[S], frozen=True):
    """An aggregate's state at a version, and what it cost to get there."""

    version: int
    state: S | None
    #: The version of the latest snapshot known to be stored (0: none).
    snapshot: int = 0
    #: Events this load took from the store (a snapshot's anchor included).
    read: int = 0


class Decided(msgspec.Struct, Generic[S, E]):
    version: int
    state: S | None
    #: The events this call appended (none for a repeat or a no-op).
    events: list[E]
    duplicate: bool = False
    #: The versions the command's events took (a repeat: its first append's;
    #: nothing appended: ``first == last + 1``).
    first: int = 0
    last: int = 0
    #: Appends that met a stream moved on and were decided again.
    conflicts: int = 0
    #: The state as loaded and kept, for a caller that holds states.
    loaded: Loaded[S] | None = None


class Aggregate(Generic[S, E]):
    """One kind of aggregate: its decider, how its events are decoded, and its kind
    (``prefix``, the namespace of its keys), which names its snapshots.

    Its snapshots hold the state as the type the decider's ``evolve`` returns.
    """

    def __init__(
        self,
        decider: Decider[Any, S | None, E],
        decode: Callable[[bytes], E],
        prefix: str,
        snapshotted: bool = True,
    ) -> None:
        self.decider = decider
        self.decode = decode
        self.prefix = prefix
        #: False for a kind whose snapshot would cost more than its fold (a ladder:
        #: every rated table's history, rewritten each time; its process holds it).
        self.snapshotted = snapshotted
        self.state_type = get_type_hints(decider.evolve)["return"]
        self._decode_state: Callable[[bytes], S | None] = msgspec.msgpack.Decoder(self.state_type).decode

    @cached_property
    def fingerprint(self) -> bytes:
        return snapshots.aggregate_fingerprint(self.prefix, self.state_type)

    def fold(self, events: Iterable[E], state: S | None = None) -> S | None:
        """The state ``events`` lead to from ``state`` (None: the decider's initial state)."""
        current = self.decider.initial if state is None else state
        for event in events:
            current = self.decider.evolve(current, event)
        return current

    async def load(self, store: EventStore, keys: GameKeys) -> tuple[int, S | None]:
        loaded = await self.current(store, keys)
        return loaded.version, loaded.state

    async def current(self, store: EventStore, keys: GameKeys, held: Loaded[S] | None = None) -> Loaded[S]:
        """The state as of the stream's last event: from ``held`` (a state this process
        keeps) if given, else from the snapshot; then the events after it."""
        if held is not None:
            [rows] = await store.read_rows([(keys, held.version + 1)])
            return await self._kept(store, keys, held, rows, len(rows))
        stored, raw, reply = await _READ.call(store.redis, [keys.snapshot, keys.events], [])
        rows = [(int(entry_id[2:]), fields[1]) for entry_id, fields in reply]
        start = self._restored(raw, rows) if raw is not None else None
        if start is not None:
            return await self._kept(store, keys, start, rows[1:], len(rows))
        read = len(rows)
        if stored is not None and (not rows or rows[0][0] != 1):
            # The rows began at a snapshot it cannot use: the stream from its start.
            [rows] = await store.read_rows([(keys, 1)])
            read += len(rows)
        return await self._kept(store, keys, Loaded(0, self.decider.initial), rows, read, replaces=stored)

    async def appended(
        self,
        store: EventStore,
        keys: GameKeys,
        before: Loaded[S],
        events: Sequence[E],
        envelopes: Sequence[EventEnvelope],
    ) -> Loaded[S]:
        """The state after ``events``, just appended as ``envelopes`` on top of ``before``."""
        loaded = Loaded(envelopes[-1].version, self.fold(events, before.state), before.snapshot)
        return await self._keep(store, keys, loaded, encode_envelope(envelopes[-1]), None)

    async def execute(
        self,
        store: EventStore,
        keys: GameKeys,
        decide: Callable[[S | None], Sequence[E]],
        command_id: str,
        now_ms: int,
        *,
        project: Callable[[Decided[S, E]], Awaitable[None]] | None = None,
    ) -> Decided[S, E]:
        """:meth:`transact` for a decision that needs only the state."""
        return await self.transact(
            store, keys, lambda loaded: decide(loaded.state), command_id, now_ms, project=project
        )

    async def transact(
        self,
        store: EventStore,
        keys: GameKeys,
        decide: Callable[[Loaded[S]], Sequence[E]],
        command_id: str,
        now_ms: int,
        *,
        held: Loaded[S] | None = None,
        command: Any = None,
        correlation_id: str | None = None,
        project: Callable[[Decided[S, E]], Awaitable[None]] | None = None,
        noticed: Noticed | None = None,
    ) -> Decided[S, E]:
        """Load, decide, append; ``decide`` may raise (a rule violation): nothing is
        appended then. ``command``, if given, is kept in the stream's command log;
        ``project`` runs after every answer that has a state (read models);
        ``noticed`` is told when the store turns out to be behind ``held``.

        Under a replicated durability level (the store's ``durable``) nothing is
        answered that the replicas do not hold: the append waits for them, and so
        does the answer to a repeated command (:class:`~shared.infra.durability.Unconfirmed`
        otherwise, an outage to the caller)."""
        correlation = command_id if correlation_id is None else correlation_id
        conflicts = 0
        for attempt in range(MAX_ATTEMPTS):
            # A state held across a conflict may be of a history the store no longer has.
            loaded = await self.current(store, keys, held if attempt == 0 else None)
            version = loaded.version
            if attempt == 1 and held is not None and version < held.version and noticed is not None:
                # The stream only grows: a store behind what this process appended and
                # held lost those writes in a failover. Marked before the versions are
                # written again by other commands (shared/eventstore/rewinds.py).
                await noticed([Rewind(keys, held.version, "", version)])
            seen = await store.redis.hget(keys.dedup, command_id)
            if seen is not None:
                await store.confirm(keys)
                first, last = (int(x) for x in seen.decode().split(":"))
                done = self._answer(loaded, [], first, last, conflicts, duplicate=True)
                return await self._projected(done, project)
            events = list(decide(loaded))
            if not events:
                return await self._projected(
                    self._answer(loaded, [], version + 1, version, conflicts), project
                )
            envelopes = [
                _envelope(keys, version + i, command_id, correlation, now_ms, e)
                for i, e in enumerate(events, 1)
            ]
            record = (
                None
                if command is None
                else CommandRecord(
                    command_id=command_id, seat=None, version=version, payload=_encode(command)
                )
            )
            outcome = await store.append(
                AppendRequest(
                    keys=keys, expected=version, command_id=command_id, command=record, envelopes=envelopes
                )
            )
            if outcome.status == "appended":
                after = await self.appended(store, keys, loaded, events, envelopes)
                done = self._answer(after, events, outcome.first, outcome.last, conflicts)
                return await self._projected(done, project)
            if outcome.status == "duplicate":  # another writer appended it meanwhile
                loaded = await self.current(store, keys)
                done = self._answer(loaded, [], outcome.first, outcome.last, conflicts, duplicate=True)
                return await self._projected(done, project)
            conflicts += 1
        raise Busy(f"{keys.game_id}: the stream kept moving", conflicts)

    @staticmethod
    def _answer(
        loaded: Loaded[S], events: list[E], first: int, last: int, conflicts: int, duplicate: bool = False
    ) -> Decided[S, E]:
        return Decided(
            version=loaded.version,
            state=loaded.state,
            events=events,
            duplicate=duplicate,
            first=first,
            last=last,
            conflicts=conflicts,
            loaded=loaded,
        )

    @staticmethod
    async def _projected(
        done: Decided[S, E], project: Callable[[Decided[S, E]], Awaitable[None]] | None
    ) -> Decided[S, E]:
        if project is not None and done.state is not None:
            await project(done)
        return done

    def _restored(self, raw: bytes, rows: list[Row]) -> Loaded[S] | None:
        """The snapshot's state, if it is this fold's and ``rows`` start at the event it was taken after."""
        snap = snapshots.decode_aggregate(raw, self.prefix, self.fingerprint)
        if (
            snap is None
            or not rows
            or rows[0][0] != snap.version
            or snapshots.anchor(rows[0][1]) != snap.anchor
        ):
            return None
        try:
            state = self._decode_state(snap.state)
        except msgspec.MsgspecError:
            return None
        return Loaded(snap.version, state, snap.version)

    async def _kept(
        self,
        store: EventStore,
        keys: GameKeys,
        start: Loaded[S],
        rows: list[Row],
        read: int,
        replaces: bytes | None = None,
    ) -> Loaded[S]:
        """``start`` with ``rows`` (the events after it) folded in, its snapshot kept."""
        for expected, (version, _) in enumerate(rows, start.version + 1):
            if version != expected:
                raise ValueError(f"{keys.game_id}: event {version} where {expected} was due")
        envelopes = [decode_envelope(raw) for _, raw in rows]
        state = self.fold((self.decode(e.payload) for e in envelopes), start.state) if rows else start.state
        loaded = Loaded(start.version + len(rows), state, start.snapshot, read)
        return await self._keep(store, keys, loaded, rows[-1][1] if rows else None, replaces)

    async def _keep(
        self, store: EventStore, keys: GameKeys, loaded: Loaded[S], last: bytes | None, replaces: bytes | None
    ) -> Loaded[S]:
        """Write a snapshot of ``loaded`` when the last is ``aggregate_snapshot_every``
        events behind it, or unusable (``replaces``: its stored version); ``last`` is
        the stored envelope at ``loaded.version``."""
        behind = loaded.version - loaded.snapshot >= snapshot_every()
        if (
            not self.snapshotted
            or last is None
            or loaded.version == 0
            or not (behind or replaces is not None)
        ):
            return loaded
        state = _encode(loaded.state)
        try:
            self._decode_state(state)
        except msgspec.ValidationError:
            # A state its type's bounds refuse (tightened since it was folded): its
            # snapshot could never be read back, so this aggregate is folded whole.
            if (self.prefix, keys.game_id) not in _refused:
                _refused.add((self.prefix, keys.game_id))
                log.warning("aggregate_snapshot_refused", kind=self.prefix, id=keys.game_id, exc_info=True)
            return msgspec.structs.replace(loaded, snapshot=loaded.version)
        raw = snapshots.encode_aggregate(self.prefix, self.fingerprint, loaded.version, state, last)
        await _SAVE.call(store.redis, [keys.snapshot], [loaded.version, raw, replaces or b""])
        return msgspec.structs.replace(loaded, snapshot=loaded.version)


def _envelope(
    keys: GameKeys, version: int, command_id: str, correlation_id: str, now_ms: int, event: Any
) -> EventEnvelope:
    return EventEnvelope(
        game_id=keys.game_id,
        partition=keys.partition,
        version=version,
        event_id=keys.event_id(version),
        command_id=command_id,
        correlation_id=correlation_id,
        server_time=now_ms,
        seat=None,
        payload=_encode(event),
    )
