"""The replicated store, on real Valkey clusters the launcher forms: every replica
in sync at start, and the confirmation the replicated durability levels wait for
(shared/infra/durability.py) holding back its answer until a replica has the
writes, refusing to confirm what no replica has, and following a slot to its
new primary after a failover."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path
from typing import Any

import pytest
import redis as sync_redis
from redis.exceptions import ConnectionError as RedisConnectionError

from shared.infra.durability import Confirmation, confirm_at, refused_for_replicas, run_confirmed
from shared.infra.lua import LuaScript
from shared.infra.redis_client import connect
from shared.infra.valkey_cluster import SLOTS, ValkeyCluster, start_cluster
from tests.support.replicas import replica_value

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]

#: Writes its argument under its key and answers it back: a stand-in for the append.
WRITE = LuaScript("redis.call('SET', KEYS[1], ARGV[1]) return ARGV[1]")
#: Long enough that no wait in these tests runs out while a replica is merely slow.
PATIENT = Confirmation(level="replicated", replicas=1, timeout_ms=30_000)


def test_the_launcher_forms_three_shards_of_one_replica_each_all_in_sync(tmp_path: Path) -> None:
    store = start_cluster(tmp_path / "store", masters=3, replicas=1)
    try:
        shards = store.shards()
        assert len(shards) == 3 and all(len(s.replicas) == 1 for s in shards)
        covered = sorted(r for s in shards for r in s.slots)
        assert covered[0][0] == 0 and covered[-1][1] == SLOTS - 1
        assert all(a[1] + 1 == b[0] for a, b in itertools.pairwise(covered))
        assert {n.port for n in store.nodes} == {s.primary.port for s in shards} | {
            r.port for s in shards for r in s.replicas
        }
        for shard in shards:
            assert store.role(shard.primary) == "master" and store.role(shard.replicas[0]) == "slave"
            # Each primary replicates to its own replica: a key of its slots reaches it.
            key = next(f"k{i}" for i in range(10_000) if store.shard_of(f"k{i}") == shard)
            client = sync_redis.Redis(port=shard.primary.port)
            client.set(key, b"v")
            assert client.execute_command("WAIT", 1, 10_000) == 1  # type: ignore[no-untyped-call]
            client.close()
            assert replica_value(shard.replicas[0], key) == b"v"
    finally:
        store.stop()


async def test_a_confirmed_write_is_answered_only_once_the_replica_has_it(one_shard: ValkeyCluster) -> None:
    (shard,) = one_shard.shards()
    replica = shard.replicas[0]
    client = connect(one_shard.url, cluster=True)
    try:
        assert await run_confirmed(WRITE, client, [(["zg:{p0}:a"], ["1"])], PATIENT) == ([b"1"], True)
        # A replica that stops applying (SIGSTOP) holds the answer back, however
        # long it takes; the write is on the primary meanwhile.
        one_shard.pause(replica)
        try:
            pending = asyncio.ensure_future(run_confirmed(WRITE, client, [(["zg:{p1}:b"], ["2"])], PATIENT))
            await asyncio.sleep(1.0)
            assert not pending.done(), "answered while the only replica could not have the write"
        finally:
            one_shard.resume(replica)
        assert await pending == ([b"2"], True)
        assert replica_value(replica, "zg:{p1}:b") == b"2"
    finally:
        await client.aclose()


async def test_a_cut_replica_link_is_never_confirmed_and_the_primary_refuses_writes(
    one_shard: ValkeyCluster,
) -> None:
    (shard,) = one_shard.shards()
    replica = shard.replicas[0]
    client = connect(one_shard.url, cluster=True)
    short = Confirmation(level="replicated", replicas=1, timeout_ms=300)
    try:
        one_shard.cut_link(replica)
        # min-replicas-to-write: the primary takes no write it cannot pass on.
        with pytest.raises(Exception) as refused:
            await run_confirmed(WRITE, client, [(["zg:{p0}:a"], ["1"])], short)
        assert refused_for_replicas(refused.value), refused.value
        assert await client.get("zg:{p0}:a") is None
        # Without that guard the write lands, but is not confirmed: its answer must not say "held".
        primary = sync_redis.Redis(port=shard.primary.port)
        primary.config_set("min-replicas-to-write", 0)
        assert await run_confirmed(WRITE, client, [(["zg:{p0}:a"], ["2"])], short) == ([b"2"], False)
        assert not await confirm_at(client, "zg:{p0}:a", short)
        assert replica_value(replica, "zg:{p0}:a") is None
        one_shard.heal_link(replica)
        # Confirming later covers what the node held before (a retried command's first outcome).
        assert await confirm_at(client, "zg:{p0}:a", PATIENT)
        assert replica_value(replica, "zg:{p0}:a") == b"2"
        primary.close()
    finally:
        await client.aclose()


async def test_waitaof_confirms_the_primarys_and_the_replicas_disks(tmp_path: Path) -> None:
    store = start_cluster(
        tmp_path / "store", masters=1, replicas=1, durability="replicated-fsync", durability_replicas=1
    )
    client = connect(store.url, cluster=True)
    on_disk = Confirmation(level="replicated-fsync", replicas=1, timeout_ms=30_000)
    try:
        assert await run_confirmed(WRITE, client, [(["zg:{p0}:a"], ["1"])], on_disk) == ([b"1"], True)
        (shard,) = store.shards()
        store.cut_link(shard.replicas[0])
        sync_redis.Redis(port=shard.primary.port).config_set("min-replicas-to-write", 0)
        short = Confirmation(level="replicated-fsync", replicas=1, timeout_ms=300)
        assert await run_confirmed(WRITE, client, [(["zg:{p0}:a"], ["2"])], short) == ([b"2"], False)
    finally:
        await client.aclose()
        store.stop()


async def test_a_store_without_replicas_never_confirms(redis: Any) -> None:
    short = Confirmation(level="replicated", replicas=1, timeout_ms=100)
    assert await run_confirmed(WRITE, redis, [(["zg:{p0}:a"], ["1"])], short) == ([b"1"], False)
    await redis.script_flush()  # the script run again after NOSCRIPT is confirmed (or not) too
    assert await run_confirmed(WRITE, redis, [(["zg:{p0}:a"], ["2"])], short) == ([b"2"], False)


async def test_appends_follow_their_slot_to_the_new_primary_after_a_failover(tmp_path: Path) -> None:
    store = start_cluster(
        tmp_path / "store",
        masters=3,
        replicas=1,
        durability="replicated",
        durability_replicas=1,
        node_timeout_ms=1000,
    )
    client = connect(store.url, cluster=True)
    try:
        calls: list[tuple[list[str], list[Any]]] = [([f"zg:{{p{p}}}:k"], [str(p)]) for p in range(8)]
        assert await run_confirmed(WRITE, client, calls, PATIENT) == (
            [str(p).encode() for p in range(8)],
            True,
        )
        # The client's map still names the old primary, which comes back as a
        # replica of its successor and answers MOVED: the calls go again, there.
        victim = store.shard_of("zg:{p0}:k")
        old = victim.primary
        store.kill(old)
        await asyncio.to_thread(store.wait_ok)
        assert store.shard_of("zg:{p0}:k").primary == victim.replicas[0]
        store.restart(old)
        await asyncio.to_thread(store.wait_ok)
        await asyncio.to_thread(store.wait_synced)
        calls = [([f"zg:{{p{p}}}:k"], [f"again-{p}"]) for p in range(8)]
        try:
            results, confirmed = await run_confirmed(WRITE, client, calls, PATIENT)
        except RedisConnectionError:  # a pooled connection to the restarted node: an outage, retried
            results, confirmed = await run_confirmed(WRITE, client, calls, PATIENT)
        assert results == [f"again-{p}".encode() for p in range(8)] and confirmed
        assert replica_value(old, "zg:{p0}:k") == b"again-0"
    finally:
        await client.aclose()
        store.stop()
