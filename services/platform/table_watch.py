"""The tables player accounts sit at, read from their own event streams.

The player process needs every move of a table with an account seat (a turn
for the bot API) and the end of it (history, arena score, casual rating),
and nothing of any other table. Reading the partition feeds would make every
move of every table cost it a read, a decode and an acknowledgement; so it
reads instead, with one blocking ``XREAD``, only the event streams of the
tables in the seated index (``SEATED``), each after the last version it
handled. A table at which no account sits costs nothing per move.

Tables join the watch when this process seats them (tournament tables, arena
tables), and when the index is polled (every :data:`POLL_S`: tables the
gateway seated, casual ones, and every live one after a restart, read again
from the start; a turn twice is harmless and a table's end is handled
idempotently). The index entry is removed only once a table's end has been
handled, so nothing is lost if this process stops in between.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

import structlog

from shared.eventstore.keys import GameKeys, partition_of
from shared.infra.lua import is_cluster
from shared.observability import metrics
from shared.players.keys import SEATED

log = structlog.get_logger()
#: How often the seated index is read for tables seated elsewhere.
POLL_S = 0.5
#: How long one read waits for a move (a table added meanwhile waits at most this long).
BLOCK_MS = 250
#: Events read per table per call (a long table is read in several).
COUNT = 500
OUTAGE_PAUSE_S = 1.0
#: ``handle({table_id: [(version, event envelope bytes), ...]})``; raises to have them read again.
Handler = Callable[[dict[str, list[tuple[int, bytes]]]], Awaitable[None]]


class TableWatch:
    def __init__(self, redis: Any, partitions: int) -> None:
        self.redis = redis
        self.partitions = partitions
        #: table id -> the last version handled.
        self._after: dict[str, int] = {}
        self._stream: dict[str, str] = {}
        self._added = asyncio.Event()

    def add(self, table_id: str) -> None:
        if table_id not in self._after:
            self._after[table_id] = 0
            self._stream[table_id] = GameKeys(table_id, partition_of(table_id, self.partitions)).events
            self._added.set()

    def drop(self, table_id: str) -> None:
        self._after.pop(table_id, None)
        self._stream.pop(table_id, None)

    def watched(self) -> set[str]:
        return set(self._after)

    async def poll(self) -> None:
        """Watch every table in the seated index; forget any that left it."""
        seated = {t.decode() for t in await self.redis.hkeys(SEATED)}
        for table_id in sorted(seated):
            self.add(table_id)
        for table_id in self.watched() - seated:
            self.drop(table_id)

    async def run(self, handle: Handler, stopping: asyncio.Event) -> None:
        loop = asyncio.get_running_loop()
        next_poll = 0.0
        while not stopping.is_set():
            try:
                if loop.time() >= next_poll:
                    next_poll = loop.time() + POLL_S
                    await self.poll()
                if not self._after:
                    self._added.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._added.wait(), timeout=POLL_S)
                    continue
                read = await self.read()
                if read:
                    await handle(read)
                    for table_id, events in read.items():
                        if table_id in self._after:
                            self._after[table_id] = max(self._after[table_id], events[-1][0])
            except asyncio.CancelledError:
                raise
            except Exception:
                # The same versions are read again once Redis answers.
                metrics.ERRORS.labels("players", "watch").inc()
                log.warning("table_watch_failed", exc_info=True)
                await asyncio.sleep(OUTAGE_PAUSE_S)

    async def read(self) -> dict[str, list[tuple[int, bytes]]]:
        """New events of the watched tables (waits up to :data:`BLOCK_MS` for one)."""
        if is_cluster(self.redis):
            # One call cannot span slots: one per partition, side by side.
            by_slot: dict[int, dict[str, str]] = {}
            for table_id, after in self._after.items():
                slot = partition_of(table_id, self.partitions)
                by_slot.setdefault(slot, {})[self._stream[table_id]] = f"0-{after}"
            replies = await asyncio.gather(
                *(self.redis.xread(streams, count=COUNT, block=BLOCK_MS) for streams in by_slot.values())
            )
        else:
            wanted = {self._stream[t]: f"0-{after}" for t, after in self._after.items()}
            replies = [await self.redis.xread(wanted, count=COUNT, block=BLOCK_MS)]
        table_of = {stream: t for t, stream in self._stream.items()}
        out: dict[str, list[tuple[int, bytes]]] = {}
        for reply in replies:
            if not reply:
                continue
            # redis-py answers a list of [stream, entries] under RESP2 and a dict under RESP3.
            pairs = reply.items() if isinstance(reply, dict) else reply
            for stream, entries in pairs:
                name = stream.decode() if isinstance(stream, bytes) else stream
                found = table_of.get(name)
                if found is None or not entries:
                    continue
                out[found] = [(_version(entry_id), fields[b"e"]) for entry_id, fields in entries]
        return out


def _version(entry_id: bytes | str) -> int:
    raw = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
    return int(raw.rsplit("-", 1)[1])
