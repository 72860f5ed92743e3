"""Tables folded from the store and kept warm in memory.

The validator, the reducer and the projector all need "the table as of the
latest event": this cache reads only the tail after the version it holds
(one pipelined round trip for a whole batch of games). A cold table (after a
restart or an eviction) starts from its latest snapshot, written by the
reducer every ``snapshot_every`` events, and folds only the events after it;
one whose snapshot is missing or unusable (see :mod:`shared.eventstore.snapshots`)
folds its whole stream, exactly as if it had none. A new or short game is read
whole in the same round trip as the warm ones; a long one costs one more.

The cache never trusts itself past the store: each read of a warm table starts
at the version it holds, and the entry there must be the one it folded (the
same command). A store that went backwards (a failover that lost the last
writes: shared/eventstore/rewinds.py) has no entry there, or another
command's: the table is read again from the store, and the finding is handed
to ``noticed`` (which marks the table) before the caller sees the table.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from shared.eventstore import snapshots
from shared.eventstore.envelope import EventEnvelope
from shared.eventstore.keys import GameKeys
from shared.eventstore.rewinds import Noticed, Rewind
from shared.eventstore.store import ColdRead, EventStore, Row, decode_envelope
from shared.games import registry
from shared.kernel import table as tables
from shared.kernel.codec import codec_for
from shared.kernel.table import Table


class TableCache:
    def __init__(
        self,
        store: EventStore,
        capacity: int = 20_000,
        snapshots: bool = True,
        noticed: Noticed | None = None,
    ) -> None:
        self.store = store
        self.capacity = capacity
        #: Whether cold tables start from their snapshots (off: the whole stream, for comparisons).
        self.snapshots = snapshots
        #: Told the tables found further on here than in the store (None: nobody is told).
        self.noticed = noticed
        self._tables: OrderedDict[str, Table] = OrderedDict()
        #: Decisions whose events the next read may find appended verbatim, per
        #: game and command id (see :meth:`foresee`); dropped at that read.
        self._foreseen: dict[str, dict[str, Foreseen]] = {}

    def get(self, game_id: str) -> Table | None:
        table = self._tables.get(game_id)
        if table is not None:
            self._tables.move_to_end(game_id)
        return table

    def put(self, game_id: str, table: Table) -> None:
        self._tables[game_id] = table
        self._tables.move_to_end(game_id)
        while len(self._tables) > self.capacity:
            self._foreseen.pop(self._tables.popitem(last=False)[0], None)

    def forget(self, game_id: str) -> None:
        self._tables.pop(game_id, None)
        self._foreseen.pop(game_id, None)

    def foresee(self, game_id: str, foreseen: Foreseen) -> None:
        """A decision made against the held table (the validator's dry run): when the
        next read finds its events appended right after that version, under its
        command id, byte for byte, the table becomes ``foreseen.after`` instead of
        the events being decoded and folded again. Anything else is folded as read."""
        if self._tables.get(game_id) is foreseen.before:
            self._foreseen.setdefault(game_id, {})[foreseen.command_id] = foreseen

    def forget_where(self, doomed: Callable[[str], bool]) -> None:
        """Forget every table whose game id ``doomed`` picks (a partition another may have written)."""
        for game_id in [g for g in self._tables if doomed(g)]:
            del self._tables[game_id]
            self._foreseen.pop(game_id, None)

    def ids_where(self, picked: Callable[[str], bool]) -> list[str]:
        """The ids of the tables held whose game id ``picked`` picks."""
        return [game_id for game_id in self._tables if picked(game_id)]

    def __len__(self) -> int:
        return len(self._tables)

    async def refresh(self, keys: Iterable[GameKeys]) -> dict[str, Table | None]:
        """Bring every named table up to the store's latest version."""
        tables_, _ = await self.refresh_and_read(keys)
        return tables_

    async def refresh_and_read(
        self, keys: Iterable[GameKeys], then: Callable[[Any], None] | None = None
    ) -> tuple[dict[str, Table | None], list[Any]]:
        """:meth:`refresh`, with more reads (queued by ``then``) in the same round trip."""
        wanted = list({k.game_id: k for k in keys}.values())
        cold = [k for k in wanted if k.game_id not in self._tables] if self.snapshots else []
        warm = [k for k in wanted if k.game_id in self._tables] if cold else wanted
        tails, firsts, extra = await self.store.read_many(
            [(k, self._version(k.game_id)) for k in warm], then, cold
        )
        out: dict[str, Table | None] = {}
        behind: list[tuple[GameKeys, Table]] = []
        for keys_, tail in zip(warm, tails, strict=True):
            held = self.get(keys_.game_id)
            if held is not None and not continues(held, tail):
                self.forget(keys_.game_id)
                behind.append((keys_, held))
            else:
                out[keys_.game_id] = self.apply(keys_.game_id, tail)
        for keys_, table in zip(cold, await self._load_cold(cold, firsts), strict=True):
            if table is not None:
                self.put(keys_.game_id, table)
            out[keys_.game_id] = table
        if behind:
            out.update(await self._reread(behind))
        return out, extra

    async def _reread(self, behind: list[tuple[GameKeys, Table]]) -> dict[str, Table | None]:
        """Tables the store no longer holds as this cache did: read again, and told."""
        found = await self.refresh(keys for keys, _ in behind)
        rewinds = [
            Rewind(keys, held.version, held.last_command, t.version if (t := found[keys.game_id]) else 0)
            for keys, held in behind
        ]
        if self.noticed is not None:
            await self.noticed(rewinds)
        return found

    async def _load_cold(self, cold: list[GameKeys], firsts: list[ColdRead]) -> list[Table | None]:
        loads = [_ColdLoad(first) for first in firsts]
        while True:
            # Only for a stream longer than the first page, or a snapshot past it.
            reading = [
                (keys, load, at)
                for keys, load in zip(cold, loads, strict=True)
                if (at := load.next_read()) is not None
            ]
            if not reading:
                return [load.table() for load in loads]
            found = await self.store.read_rows([(keys, at) for keys, _, at in reading])
            for (_, load, _), rows in zip(reading, found, strict=True):
                load.feed(rows)

    def apply(
        self, game_id: str, envelopes: list[EventEnvelope], folded: list[Folded] | None = None
    ) -> Table | None:
        """Fold envelopes that follow the cached version; ignores ones already folded.

        ``folded``, if given, receives each folded event as (version, server
        time, event), so a caller that needs the events too (the projector's
        feeds) does not decode them a second time.
        """
        table = self.get(game_id)
        # Kept while the log holds nothing new (the decision may not be appended yet).
        grows = table is None or (bool(envelopes) and envelopes[-1].version > table.version)
        foreseen = self._foreseen.pop(game_id, None) if grows else None
        at = 0
        while at < len(envelopes):
            env = envelopes[at]
            at += 1
            if table is not None and env.version <= table.version:
                continue
            hit = foreseen.get(env.command_id) if foreseen and folded is None else None
            if hit is not None and table is not None and hit.follows(table, envelopes, at - 1):
                table = hit.after
                at += len(hit.payloads) - 1
                continue
            table, event = _fold_decoding(table, env)
            if folded is not None:
                folded.append((env.version, env.server_time, event))
        if table is not None:
            self.put(game_id, table)
        return table

    def _version(self, game_id: str) -> int:
        table = self._tables.get(game_id)
        return table.version if table else 0


class _ColdLoad:
    """One cold table: its snapshot and the events after it, or its whole stream.

    ``rows`` are consecutive stored events that follow ``base`` (the restored
    snapshot), or start at version 1 when there is none, or, while a snapshot
    is still to be checked, start at the snapshot's own version.
    """

    def __init__(self, first: ColdRead) -> None:
        self.pending = snapshots.decode(first.snapshot) if first.snapshot else None
        self.base: Table | None = None
        self.rows = first.rows
        self.complete = first.complete
        self._settle()

    def next_read(self) -> int | None:
        """The version to read from next, or ``None`` once every row is here."""
        if self.pending is not None:
            return self.pending.version
        if self.complete:
            return None
        if self.rows:
            return self.rows[-1][0] + 1
        return self.base.version + 1 if self.base else 1

    def feed(self, rows: list[Row]) -> None:
        """The rows from :meth:`next_read` to the stream's end."""
        self.rows = rows if self.pending is not None else self.rows + rows
        self.complete = True
        self._settle()

    def _settle(self) -> None:
        snap = self.pending
        if snap is None:
            return
        first = self.rows[0][0] if self.rows else 0
        if self.rows and first <= snap.version <= self.rows[-1][0]:
            self.pending = None
            at = snap.version - first
            version, raw = self.rows[at] if at < len(self.rows) else (0, b"")
            table = snapshots.restore(snap, raw) if version == snap.version else None
            if table is not None:
                self.base, self.rows = table, self.rows[at + 1 :]
                return
        elif self.complete:
            self.pending = None  # the stream ends before the snapshot: not this stream's
        else:
            return  # the snapshot lies past the rows read so far: read from it
        if first != 1:  # the rows began at the snapshot, which is unusable: read from the start
            self.rows, self.complete = [], False

    def table(self) -> Table | None:
        table = self.base
        for _, raw in self.rows:
            table = fold_envelope(table, decode_envelope(raw))
        return table


#: An event as folded: (version, server time, the decoded event).
Folded = tuple[int, int, Any]


class Foreseen(NamedTuple):
    """A decision made against the table ``before``: its command, its events as the
    log would hold them, and the table they lead to, the move counted."""

    before: Table
    command_id: str
    payloads: tuple[bytes, ...]
    after: Table

    def follows(self, table: Table, envelopes: list[EventEnvelope], at: int) -> bool:
        """Whether ``table`` is the very table decided against and ``envelopes`` from
        ``at`` on start with exactly these events, right after its version."""
        run = envelopes[at : at + len(self.payloads)]
        version = table.version
        return (
            table is self.before
            and len(run) == len(self.payloads)
            and all(
                env.version == version + 1 + k and env.command_id == self.command_id and env.payload == raw
                for k, (env, raw) in enumerate(zip(run, self.payloads, strict=True))
            )
        )


def continues(held: Table, tail: list[EventEnvelope]) -> bool:
    """Whether a read from ``held``'s version on shows the store still holds what
    was folded there: the entry at that version is the same command's."""
    return bool(tail) and tail[0].version == held.version and tail[0].command_id == held.last_command


def fold_envelope(table: Table | None, env: EventEnvelope) -> Table:
    return _fold_decoding(table, env)[0]


def _fold_decoding(table: Table | None, env: EventEnvelope) -> tuple[Table, Any]:
    """The table with the envelope's event folded in, and that event."""
    game = registry.get(table.game if table else _opened_game(env))
    event = codec_for(game).event(env.payload)
    if table is not None and env.version != table.version + 1:
        raise ValueError(f"{env.game_id}: event {env.version} does not follow {table.version}")
    return tables.count_move(tables.evolve(game, table, event), env.command_id), event


def _opened_game(env: EventEnvelope) -> str:
    """The first event of a stream is ``table.opened``; it names the game."""
    import msgspec

    opened = msgspec.msgpack.decode(env.payload, type=tables.TableOpened)
    return opened.game


def fold_all(envelopes: list[EventEnvelope]) -> Table | None:
    table: Table | None = None
    for env in envelopes:
        table = fold_envelope(table, env)
    return table


def decode_all(table_game: str, envelopes: list[EventEnvelope]) -> list[Any]:
    codec = codec_for(registry.get(table_game))
    return [codec.event(env.payload) for env in envelopes]
