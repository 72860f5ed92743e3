"""A batch's last write rides with the reader's next read, against a real Valkey.

The reader sends a handler's final pipeline (results, answers,
acknowledgements) in one request ahead of its next ``XREADGROUP``. Nothing
may be lost by it: when a write of that pipeline fails, the handler's
``failed`` hook runs and the batch is handled again with its writes awaited;
the entries stay pending until then. Outside the reader's
loop (a retry, a test calling the handler) the write is sent at once.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from services.projector.handlers import GROUP as PROJECTOR
from services.projector.handlers import Projector
from shared.eventstore.keys import partition_feed
from shared.eventstore.store import EventStore
from shared.eventstore.tables import TableCache
from shared.messaging.streams import Batch, StreamReader
from shared.observability import metrics
from tests.messaging.readers import run_until
from tests.support.played_table import KEYS, forget_read_models, play, read_models
from tests.support.waiting import until

pytestmark = pytest.mark.integration
STREAM = "zg:{p0}:test-stream"
GROUP = "g"


class Writer:
    """Acknowledges each batch in its last write; the first batch's write can be made to fail."""

    def __init__(self, redis: Any, fail_first: bool = False, drop_first: bool = False) -> None:
        self.redis = redis
        self.fail_first = fail_first
        self.drop_first = drop_first
        self.handled: list[bytes] = []
        self.deferred: list[bool] = []
        self.undone = 0

    async def handle(self, batch: Batch) -> None:
        self.handled += batch.bodies()
        self.deferred.append(batch.defer)
        pipe = self.redis.pipeline(transaction=False)
        if self.fail_first:
            self.fail_first = False
            pipe.incr("not-a-number")  # answered with an error, after the handler returned
        if self.drop_first:
            self.drop_first = False
            pipe.execute_command("QUIT")  # the server closes the connection: nothing after it runs
        pipe.rpush("written", *batch.bodies())
        batch.ack(pipe, GROUP)
        await batch.write(pipe, failed=self.undo)

    def undo(self) -> None:
        self.undone += 1


def reader(redis: Any, streams: tuple[str, ...] = (STREAM,), group: str = GROUP) -> StreamReader:
    return StreamReader(redis, group, "node", streams, 50, 60_000, block_ms=50, retry_pause_s=0.05)


async def test_each_batch_is_written_and_acknowledged_with_the_next_read(redis: Any) -> None:
    handler = Writer(redis)
    await redis.xgroup_create(STREAM, GROUP, id="0", mkstream=True)
    stopping = asyncio.Event()
    task = asyncio.create_task(reader(redis).run(handler, stopping))
    try:
        for i in range(5):  # one entry at a time: five batches
            await redis.xadd(STREAM, {"m": f"m{i}".encode()})
            assert await until(lambda n=i + 1: _written(redis, n), 10, every_s=0.01)
    finally:
        stopping.set()
        await asyncio.wait_for(task, 5)
    assert handler.handled == [f"m{i}".encode() for i in range(5)]
    assert all(handler.deferred), "in the reader's loop every last write is held for the next read"
    assert await redis.lrange("written", 0, -1) == handler.handled
    assert (await redis.xpending(STREAM, GROUP))["pending"] == 0


async def _written(redis: Any, n: int) -> bool:
    return bool(await redis.llen("written") >= n)


async def _three_entries(redis: Any) -> list[bytes]:
    """The group, and three entries on its stream; their bodies."""
    await redis.xgroup_create(STREAM, GROUP, id="0", mkstream=True)
    bodies = [f"m{i}".encode() for i in range(3)]
    for body in bodies:
        await redis.xadd(STREAM, {"m": body})
    return bodies


async def _settled(redis: Any, written: int) -> bool:
    """Every entry acknowledged, and at least ``written`` bodies written."""
    pending = (await redis.xpending(STREAM, GROUP))["pending"]
    return bool(pending == 0 and await _written(redis, written))


async def test_a_held_write_that_fails_is_undone_and_the_batch_handled_again(redis: Any) -> None:
    await redis.set("not-a-number", "x")
    handler = Writer(redis, fail_first=True)
    bodies = await _three_entries(redis)
    await run_until(reader(redis), handler, lambda: _settled(redis, 6))
    assert handler.undone == 1, "the failed hook ran once, before the batch was handled again"
    # The batch (its write held, and failed), then again with its write awaited.
    assert handler.handled == [*bodies, *bodies]
    assert handler.deferred == [True, False]
    # The failed request ran its other writes too: the first attempt's and the retries'.
    assert sorted(await redis.lrange("written", 0, -1)) == sorted([*bodies, *bodies])
    assert (await redis.xpending(STREAM, GROUP))["pending"] == 0, "every entry acknowledged"


async def test_a_held_write_lost_with_its_connection_is_undone_and_the_batch_handled_again(
    redis: Any,
) -> None:
    """The request carrying a held write (and the next read) fails as a whole: none of
    its writes may have landed, so the handler's undo hook runs (a projector forgets
    the games it folded) and the entries, still pending, are handled again."""
    handler = Writer(redis, drop_first=True)
    bodies = await _three_entries(redis)
    await run_until(reader(redis), handler, lambda: _settled(redis, 3))
    assert handler.undone == 1, "the undo hook ran for the write lost with the connection"
    assert handler.handled == [*bodies, *bodies]
    assert await redis.lrange("written", 0, -1) == bodies, "the lost request wrote nothing"


async def test_a_projection_whose_held_write_finds_no_script_is_written_by_the_retry(redis: Any) -> None:
    # A restarted server has no scripts: the held write of the projector's
    # read models is answered NOSCRIPT, after the handler has folded the
    # games into its cache. The retry must write them, not find them done.
    store, _, feeds = await _played_and_projected(redis)
    expected = await read_models(redis)

    await forget_read_models(redis)
    await redis.xgroup_destroy(feeds[0], PROJECTOR)
    await redis.xgroup_create(feeds[0], PROJECTOR, id="0")
    await redis.script_flush()
    fresh = Projector(TableCache(store), redis)
    fresh._script_loaded = True  # loaded before the server restarted and lost it
    failed = metrics.ERRORS.labels(PROJECTOR, "batch")
    before = failed._value.get()
    await run_until(reader(redis, feeds, PROJECTOR), fresh, lambda: _projected(redis))
    assert failed._value.get() == before + 1, "the held write was answered NOSCRIPT"
    assert await read_models(redis) == expected
    assert (await redis.xpending(feeds[0], PROJECTOR))["pending"] == 0


async def test_a_projection_whose_held_write_finds_the_models_behind_is_handled_again(redis: Any) -> None:
    """A failover lost the models of the projector's last batch (and its
    acknowledgement), and the next move's entry follows its fold. The held
    write finds the stored checkpoint below the version the feeds continue
    from and writes nothing; the batch is handled again, its game read afresh
    from the store, and every feed ends up whole."""
    store, projector, feeds = await _played_and_projected(redis)
    entries = [(feeds[0], entry_id, fields) for entry_id, fields in await redis.xrange(feeds[0])]
    await forget_read_models(redis)
    await Projector(TableCache(store), redis).handle(Batch(entries[:-1]))  # the successor's models
    await play(store, 1, first=12)
    behind = metrics.READ_MODELS_BEHIND._value.get()
    await run_until(reader(redis, feeds, PROJECTOR), projector, lambda: _projected(redis))
    assert metrics.READ_MODELS_BEHIND._value.get() == behind + 1, "the held write found the models behind"
    got = await read_models(redis)
    await forget_read_models(redis)
    entries = [(feeds[0], entry_id, fields) for entry_id, fields in await redis.xrange(feeds[0])]
    await Projector(TableCache(store), redis).handle(Batch(entries))
    assert got == await read_models(redis), "every feed holds every version the store holds"


async def _played_and_projected(redis: Any) -> tuple[EventStore, Projector, tuple[str]]:
    """Twelve moves, projected through the reader until the models show the last."""
    store = EventStore(redis)
    await play(store, 12)
    projector = Projector(TableCache(store), redis)
    feeds = (partition_feed(0),)
    await redis.xgroup_create(feeds[0], PROJECTOR, id="0")
    await run_until(reader(redis, feeds, PROJECTOR), projector, lambda: _projected(redis))
    return store, projector, feeds


async def _projected(redis: Any) -> bool:
    """The read models show the last event, and the feed is all acknowledged."""
    last = len(await EventStore(redis).read(KEYS))
    checkpoint = int(await redis.get(KEYS.checkpoint) or 0)
    pending = (await redis.xpending(partition_feed(0), PROJECTOR))["pending"]
    return last > 0 and checkpoint == last and pending == 0
