"""A store that went backwards: noticed, marked on the table, never trusted past.

Under the durability levels that do not wait for replicas (``local``,
``fsync``), a failover can promote a replica that had not received a
primary's last writes: the shard comes back older than what its clients
were told (docs/reliability.md, "Durability levels"). A process that holds a
table in memory further on than the store notices it: the reducer when its
append meets a version below the one it holds, the validator, the reducer's
clock watch and the projector when the entry at their table's version is
gone from the stream, or is another command's (:class:`~shared.eventstore.tables.TableCache`).
Each then reads the table again from the store and goes on from there; the
projector also writes the table's read models again from the log.

Every such finding is marked on the table before anything more is written
for it (:func:`noticer`): ``zg:{pN}:game:<id>:rewound`` holds, by the version
the process held, the store's version then, the last command at the held
version, when, and who saw it. So a version once acknowledged and then lost
is never silently reused by another move: the table says which versions
were rewritten. The marks are what ``ziggurat_store_rewinds_total`` counts
and ``ZigguratStoreRewound`` pages on.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, NamedTuple

import msgspec
import structlog

from shared.eventstore.keys import GameKeys
from shared.observability import metrics

log = structlog.get_logger()


class Rewind(NamedTuple):
    """A table a process held at ``held`` (after command ``last_command``) that
    the store holds only at ``store`` (or holds with another command at ``held``)."""

    keys: GameKeys
    held: int
    last_command: str
    store: int


class Mark(msgspec.Struct, frozen=True, kw_only=True):
    """One finding, kept on the table: the versions after ``store`` up to ``held``
    (at most) were acknowledged once and may have been written again by other moves."""

    held: int
    last_command: str
    store: int
    at_ms: int
    by: str


_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder(Mark).decode

#: Told the rewinds a cache found, before anything more is written for those tables.
Noticed = Callable[[list[Rewind]], Awaitable[None]]


def noticer(
    redis: Any, service: str, clock_ms: Callable[[], int] = lambda: time.time_ns() // 1_000_000
) -> Noticed:
    """What a service does with the rewinds it finds: log, count, and mark each
    table (each finding once), awaited."""

    async def noticed(rewinds: list[Rewind]) -> None:
        if not rewinds:
            return
        now = clock_ms()
        metrics.STORE_REWINDS.labels(service).inc(len(rewinds))
        async with redis.pipeline(transaction=False) as pipe:
            for r in rewinds:
                log.error(
                    "store_rewound",
                    game_id=r.keys.game_id,
                    held=r.held,
                    last_command=r.last_command,
                    store=r.store,
                )
                mark = Mark(held=r.held, last_command=r.last_command, store=r.store, at_ms=now, by=service)
                pipe.hsetnx(r.keys.rewound, f"{r.held}:{r.store}", _encode(mark))
            await pipe.execute()

    return noticed


async def marks(redis: Any, keys: GameKeys) -> list[Mark]:
    """The table's marks, by the version held."""
    found = await redis.hgetall(keys.rewound)
    return sorted((_decode(raw) for raw in found.values()), key=lambda m: m.held)


def covered(marks_: Sequence[Mark], version: int) -> bool:
    """Whether a mark says ``version`` may have been lost and written again."""
    return any(m.store < version <= m.held for m in marks_)
