"""The platform's aggregates (tournaments, ladders, players, arenas, invitations)
are written through one host (shared/eventstore/aggregates.py), and their
acknowledgements are as durable as a move's: under a replicated level the host
answers only once a replica holds the write, a repeated command's first outcome
included; and a store found behind a state the writer held (a failover that lost
writes under ``local``) is marked before its versions are written again.

Against real Valkey: a one-shard cluster with a replica for the levels, a plain
server rolled back key by key (DUMP and RESTORE, as a promoted replica that
lacked the last writes would be) for the rewind.
"""

from __future__ import annotations

from typing import Any

import pytest
import redis as sync_redis

from services.platform.writer import Tournaments
from shared.eventstore.rewinds import covered, marks
from shared.eventstore.store import EventStore
from shared.infra.durability import Confirmation, Unconfirmed
from shared.infra.redis_client import connect
from shared.infra.valkey_cluster import ValkeyCluster
from shared.tournaments.commands import Create, Register
from shared.tournaments.keys import tournament_keys
from tests.support.replicas import on_replica

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]
PARTITIONS = 4
CUP = Create(tournament_id="cup", game="highcard", seats_per_table=2, rounds=2)
PATIENT = Confirmation(level="replicated", replicas=1, timeout_ms=30_000)
SHORT = Confirmation(level="replicated", replicas=1, timeout_ms=300)


def _replica_has(store: ValkeyCluster, key: str) -> bool:
    (shard,) = store.shards()
    return bool(on_replica(shard.replicas[0], "EXISTS", key))


async def test_a_platform_write_is_acknowledged_only_once_a_replica_holds_it(
    one_shard: ValkeyCluster,
) -> None:
    (shard,) = one_shard.shards()
    replica = shard.replicas[0]
    client = connect(one_shard.url, cluster=True)
    keys = tournament_keys("cup", PARTITIONS)
    try:
        one_shard.cut_link(replica)
        # Without min-replicas-to-write the primary takes the write: it must still not be told as done.
        sync_redis.Redis(port=shard.primary.port).config_set("min-replicas-to-write", 0)
        with pytest.raises(Unconfirmed):
            await Tournaments(EventStore(client, durable=SHORT), PARTITIONS).execute("cup", CUP, "c1")
        assert await client.exists(keys.events) and not _replica_has(one_shard, keys.events)
        # The caller retries (the 503 is retryable): while no replica has the write, the
        # first outcome is not told either, though the store has it.
        with pytest.raises(Unconfirmed):
            await Tournaments(EventStore(client, durable=SHORT), PARTITIONS).execute("cup", CUP, "c1")
        one_shard.heal_link(replica)
        again = await Tournaments(EventStore(client, durable=PATIENT), PARTITIONS).execute("cup", CUP, "c1")
        assert again.status == "accepted" and (again.first, again.last) == (1, 1), again
        assert _replica_has(one_shard, keys.events)
        # A new write, with the replica in reach, is answered at once.
        writer = Tournaments(EventStore(client, durable=PATIENT), PARTITIONS)
        joined = await writer.execute("cup", Register(player_id="p1", name="P1"), "c2")
        assert joined.status == "accepted" and joined.first == 2, joined
    finally:
        await client.aclose()


async def _rolled_back(redis: Any, keys: Any, dumped: dict[str, bytes | None]) -> None:
    """Every key of the stream as it was when ``dumped``: what a promoted replica
    that lacked the later writes holds."""
    for key, value in dumped.items():
        await redis.delete(key)
        if value is not None:
            await redis.restore(key, 0, value)


async def test_a_store_behind_a_held_tournament_is_marked_before_its_versions_are_reused(redis: Any) -> None:
    keys = tournament_keys("cup", PARTITIONS)
    writer = Tournaments(EventStore(redis), PARTITIONS)
    assert (await writer.execute("cup", CUP, "c1")).status == "accepted"
    stream_keys = [keys.events, keys.commands, keys.dedup, keys.meta, keys.snapshot]
    dumped = {k: await redis.dump(k) for k in stream_keys}
    lost = await writer.execute("cup", Register(player_id="p1", name="P1"), "c2")
    assert lost.status == "accepted" and lost.first == 2
    await _rolled_back(redis, keys, dumped)

    # The writer still holds version 2; the store has 1. Its next command is decided
    # on the store's history, at version 2 again: the table of versions says so.
    other = await writer.execute("cup", Register(player_id="p2", name="P2"), "c3")
    assert other.status == "accepted" and other.first == 2, other
    found = await marks(redis, keys)
    assert [(m.held, m.store, m.by) for m in found] == [(2, 1, "tournaments")]
    assert covered(found, lost.first)
    # And it answers from the store's history: p1's entry was lost, so p1 may register again.
    assert (await writer.execute("cup", Register(player_id="p1", name="P1"), "c4")).status == "accepted"
