"""The game read models on a Valkey of their own, without AOF (``read_model_url``).

The projector writes them there and acknowledges its partition-feed entries
on the store only after that write is confirmed; a read-model server that
comes back empty is rebuilt from the store before anything more is
acknowledged; and whatever the crash, nothing is written twice or lost.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import msgspec
import pytest

from services.projector.handlers import GROUP, Projector
from services.projector.restore import Restorer
from shared.eventstore import game_index
from shared.eventstore.keys import live_tables, partition_feed
from shared.eventstore.store import EventStore
from shared.eventstore.tables import TableCache
from shared.infra.valkey_server import ValkeyServer
from shared.messaging.streams import Batch
from shared.readmodels.build import HISTORY
from shared.readmodels.server import missing, ready_marker
from tests.conftest import emptied, served
from tests.support.played_table import KEYS, NAMES, play

pytestmark = pytest.mark.integration
FEED = partition_feed(0)
PARTITIONS = 1  # every key of these tests is in partition 0


@pytest.fixture(scope="module")
def read_valkey(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ValkeyServer]:
    yield from served(tmp_path_factory, "read-models", durable=False)


@pytest.fixture
async def read(read_valkey: ValkeyServer) -> AsyncIterator[Any]:
    async for client in emptied(read_valkey):
        yield client


async def models(redis: Any) -> dict[str, Any]:
    """Every read model of the game, feed entry ids included (the history aside:
    it follows the projector's batches, which a rebuild cannot know)."""
    out: dict[str, Any] = {"checkpoint": await redis.get(KEYS.checkpoint)}
    out["live"] = await redis.smembers(live_tables(0, "tigris"))
    for name in NAMES:
        if name != HISTORY:
            out[f"view:{name}"] = await redis.get(KEYS.view(name))
            out[f"feed:{name}"] = await redis.xrange(KEYS.audience_feed(name))
    return out


async def read_new(redis: Any, consumer: str = "p") -> Batch:
    reply = await redis.xreadgroup(GROUP, consumer, {FEED: ">"})
    return Batch([(FEED, entry_id, fields) for entry_id, fields in reply[0][1]] if reply else [])


async def pending(redis: Any) -> int:
    return int((await redis.xpending(FEED, GROUP))["pending"])


async def started(redis: Any, read: Any) -> tuple[EventStore, Projector, Restorer]:
    """A store with the game indexed (as the gateway does) and a projector that
    found the read-model server empty at start, as a first start does."""
    store = EventStore(redis)
    await game_index.index(redis, KEYS, 0)
    await redis.xgroup_create(FEED, GROUP, id="0", mkstream=True)
    restorer = Restorer(redis, read, PARTITIONS, "p")
    assert await restorer.ensure()  # an empty store: the markers, nothing to rebuild
    assert not await missing(read, PARTITIONS)
    return store, Projector(TableCache(store), redis, read, restorer), restorer


async def one_server(redis: Any, store: EventStore) -> dict[str, Any]:
    """What the one-server projector writes from the same feed, on the store."""
    reply = await redis.xrange(FEED)
    await Projector(TableCache(store), redis).handle(Batch([(FEED, i, f) for i, f in reply]))
    return await models(redis)


async def test_the_models_land_on_their_server_and_none_on_the_store(redis: Any, read: Any) -> None:
    store, projector, _ = await started(redis, read)
    await play(store, 20)
    await projector.handle(await read_new(redis))
    await play(store, 10, first=20)  # a second batch, on top of the first
    await projector.handle(await read_new(redis))
    assert await pending(redis) == 0  # acknowledged on the store
    on_read = await models(read)
    assert on_read["checkpoint"] == str(await redis.xlen(KEYS.events)).encode()
    assert await read.xlen(KEYS.audience_feed(HISTORY)) == 2  # one snapshot per batch
    store_keys = {k.decode() for k in await redis.keys("*")}
    assert not [k for k in store_keys if ":view:" in k or ":feed:" in k or k.endswith(":projected")]
    assert not [k for k in store_keys if ":live:" in k or ":read-models:" in k]
    # The same models, entry for entry, as the one-server layout writes.
    assert await one_server(redis, store) == on_read


async def test_a_server_that_comes_back_empty_is_rebuilt_before_more_is_acknowledged(
    redis: Any, read: Any
) -> None:
    store, projector, _ = await started(redis, read)
    await play(store, 20)
    await projector.handle(await read_new(redis))
    before = await models(read)
    await read.flushall()  # a restart without AOF, while the game is live
    assert await missing(read, PARTITIONS)
    await play(store, 10, first=20)
    batch = await read_new(redis)
    await projector.handle(batch)  # finds the marker missing: rebuilds, then writes
    assert not await missing(read, PARTITIONS)
    assert await read.get(ready_marker(0)) == b"1"
    assert await pending(redis) == 0
    after = await models(read)
    assert after["feed:spectator"][: len(before["feed:spectator"])] == before["feed:spectator"]
    # The history is back, a spectator's view per command: replays and delayed
    # spectators find the table as it was (never the live view), e.g. where the
    # first batch ended.
    history = await read.xrange(KEYS.audience_feed(HISTORY))
    assert len(history) >= 30
    at_first = [fields[b"e"] for entry_id, fields in history if entry_id == b"0-" + before["checkpoint"]]
    assert len(at_first) == 1
    assert msgspec.json.decode(at_first[0])["doc"] == msgspec.json.decode(before["view:spectator"])
    # Equal to what one server that never lost anything holds after the same play.
    assert await one_server(redis, store) == after
    # And play goes on: the next batch is written as usual.
    await play(store, 5, first=30)
    await projector.handle(await read_new(redis))
    assert (await models(read))["checkpoint"] == str(await redis.xlen(KEYS.events)).encode()


async def test_a_projector_killed_between_the_write_and_the_ack_writes_nothing_twice(
    redis: Any, read: Any
) -> None:
    store, projector, restorer = await started(redis, read)
    await play(store, 20)
    batch = await read_new(redis)
    batch.defer = True  # the acks are held for the next read, which never comes: killed
    await projector.handle(batch)
    assert batch.tail is not None
    written = await models(read)
    assert await pending(redis) == len(batch)
    # A new projector (an empty cache) gets the same entries again, as a
    # reclaim or a restart delivers them; the checkpoint skips every one.
    again = Projector(TableCache(store), redis, read, restorer)
    reply = await redis.xreadgroup(GROUP, "p", {FEED: "0"})
    redelivered = Batch([(FEED, entry_id, fields) for entry_id, fields in reply[0][1]])
    assert len(redelivered) == len(batch)
    await again.handle(redelivered)
    assert await pending(redis) == 0
    assert await models(read) == written
    assert await read.xlen(KEYS.audience_feed(HISTORY)) == 1


async def test_one_projector_rebuilds_while_the_others_wait(redis: Any, read: Any) -> None:
    store, projector, _restorer = await started(redis, read)
    await play(store, 20)
    await projector.handle(await read_new(redis))
    written = await models(read)
    await read.flushall()
    others = [Restorer(redis, read, PARTITIONS, f"p{i}") for i in range(3)]
    rebuilt = await asyncio.gather(*(r.ensure() for r in others))
    assert sorted(rebuilt) == [False, False, True]
    assert await models(read) == written
