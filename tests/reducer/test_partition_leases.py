"""Partition leases and the fencing token, against a real Valkey.

The lease scripts and the reducer's shell (``services/reducer/ownership.py``)
as several reducers use them: they split the partitions, one takes over what
a dead one held once its leases expire, a restarted one takes its own back at
once; and the append script refuses a writer whose lease a later one
superseded, atomically, while the new holder claims and answers what it left.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest

from services.reducer.handlers import GROUP as REDUCER
from services.reducer.handlers import Reducer
from services.reducer.ownership import Ownership
from shared.eventstore.keys import REDUCERS, GameKeys, fencing_token, reducer_lease, validated_stream
from shared.eventstore.store import EventStore
from shared.eventstore.tables import TableCache
from shared.infra.redis_client import connect
from shared.infra.settings import Settings
from shared.infra.valkey_cluster import start_cluster
from shared.messaging.messages import encode
from shared.messaging.streams import Batch
from shared.observability import metrics
from tests.reducer.highcard_table import GAME, TOKENS, a_move, assert_linear
from tests.support.messages import open_msg
from tests.support.waiting import until

pytestmark = pytest.mark.integration
TTL_S = 1.0  # the shortest the setting allows: expiry is waited out here


class Idle:
    """A handler for the readers of tests that only watch leases: no entry comes."""

    async def handle(self, batch: Batch) -> None:
        raise AssertionError(f"no entry was expected, got {len(batch)}")


def ownership(redis: Any, node: str, partitions: int, clock: Any = None) -> Ownership:
    settings = Settings(node=node, partitions=partitions, lease_ttl_s=TTL_S, reclaim_idle_ms=60_000)
    store = EventStore(redis)
    return Ownership(redis, settings, TableCache(store), **({"clock": clock} if clock else {}))


async def step(*reducers: Ownership) -> None:
    for r in reducers:
        await r.look()
        await r.follow(Idle())


def held(o: Ownership) -> set[int]:
    return set(o.owned())


async def test_two_reducers_split_the_partitions_and_one_takes_over_a_dead_ones(redis: Any) -> None:
    a, b = ownership(redis, "a", 4), ownership(redis, "b", 4)
    try:
        await step(a)
        assert held(a) == {0, 1, 2, 3}, "alone, it takes them all"
        await step(b, a, b)  # b is counted; a gives up its surplus; b takes it
        assert len(held(a)) == len(held(b)) == 2 and held(a).isdisjoint(held(b))
        tokens = {p: a.token(p) or b.token(p) for p in range(4)}
        stored = {p: int(await redis.hget(fencing_token(p), "token")) for p in range(4)}
        assert tokens == stored, "each holder's token is the partition's latest"

        old_b = {p: b.token(p) for p in held(b)}
        takeovers = metrics.LEASE_TAKEOVERS._value.get()
        await a.stop_reading()  # a dies: it renews nothing any more
        stopping = asyncio.Event()
        running = asyncio.create_task(b.run(Idle(), stopping))  # b lives on, looking every TTL/3

        async def all_b() -> bool:
            return held(b) == {0, 1, 2, 3}

        assert await until(all_b, 10 * TTL_S)
        assert metrics.LEASE_TAKEOVERS._value.get() == takeovers + 2
        for p in range(4):
            if p in old_b:  # its own: renewed, the same token
                assert b.token(p) == old_b[p]
            else:  # a's: taken, with a new token
                assert (b.token(p) or 0) > (tokens[p] or 0)
        stopping.set()
        await running
    finally:
        await a.leave()
        await b.leave()


async def test_a_restarted_reducer_takes_its_own_leases_back_at_once_with_new_tokens(redis: Any) -> None:
    first = ownership(redis, "r", 2)
    await step(first)
    old = {p: first.token(p) for p in range(2)}
    await first.stop_reading()  # killed: its leases still run in the store
    again = ownership(redis, "r", 2)  # the same node, a new process
    other = ownership(redis, "s", 2)
    try:
        await step(again)
        assert held(again) == {0, 1}
        assert all((again.token(p) or 0) > (old[p] or 0) for p in range(2))
        await step(other)
        assert held(other) == set(), "another finds them held: not free for it"
    finally:
        await again.leave()
        await other.leave()


async def test_a_clean_stop_gives_the_leases_up_for_the_others_at_once(redis: Any) -> None:
    a, b = ownership(redis, "a", 2), ownership(redis, "b", 2)
    await step(a, b)
    await a.leave()
    assert await redis.get(reducer_lease(0)) is None and await redis.get(reducer_lease(1)) is None
    await step(b)
    assert held(b) == {0, 1}, "no waiting out a TTL"
    await b.leave()


async def test_a_token_never_goes_back_even_when_the_store_lost_the_last_one(redis: Any) -> None:
    a = ownership(redis, "a", 1)
    await step(a)
    first = a.token(0) or 0
    await a.leave()
    await redis.delete(fencing_token(0))  # a store that came back without it (a failover)
    await asyncio.sleep(0.01)
    b = ownership(redis, "b", 1)
    await step(b)
    assert (b.token(0) or 0) > first
    await b.leave()


async def test_a_writer_whose_lease_was_taken_over_is_fenced_and_the_holder_answers(redis: Any) -> None:
    """A reducer paused past its lease resumes with a batch in hand: its clock
    says (wrongly, frozen here) that it still holds the partition. The store
    refuses its append, atomically; it answers and acknowledges nothing and
    gives the partition up; the new holder claims the entry and applies it once."""
    store = EventStore(redis)
    frozen = asyncio.get_running_loop().time()
    paused = ownership(redis, "paused", 1, clock=lambda: frozen)
    await paused.look()
    writer = Reducer(store, TableCache(store), leases=paused)
    await writer.process([open_msg(GAME, TOKENS)])  # with its token: appended
    keys = GameKeys("g", 0)
    version = await store.version(keys)

    await asyncio.sleep(TTL_S * 1.2)  # its lease runs out in the store
    holder = ownership(redis, "holder", 1)
    await holder.look()
    assert set(holder.owned()) == {0} and paused.token(0) is not None, "both believe they hold it"

    table = (await TableCache(store).refresh([keys]))["g"]
    move = a_move(table, "m1", random.Random(7))
    await redis.xgroup_create(validated_stream(0), REDUCER, id="0", mkstream=True)
    await redis.xadd(validated_stream(0), {"m": encode(move)})
    reply = await redis.xreadgroup(REDUCER, "paused", {validated_stream(0): ">"})
    batch = Batch([(validated_stream(0), entry_id, fields) for entry_id, fields in reply[0][1]])

    fenced = metrics.FENCED_APPENDS._value.get()
    assert await writer.handle(batch) == [], "nothing answered"
    assert metrics.FENCED_APPENDS._value.get() == fenced + 1
    assert paused.token(0) is None and paused.owned() == [], "it gave the partition up"
    assert await store.version(keys) == version, "nothing written"
    assert await redis.hget(keys.dedup, move.command_id) is None
    assert (await redis.xpending(validated_stream(0), REDUCER))["pending"] == 1, "nor acknowledged"

    # The holder claims what was left pending and applies it, once.
    applier = Reducer(store, TableCache(store), leases=holder)
    try:
        await holder.follow(applier)

        async def applied() -> bool:
            pending = (await redis.xpending(validated_stream(0), REDUCER))["pending"]
            return pending == 0 and await store.version(keys) > version

        assert await until(applied, 10)
    finally:
        await holder.leave()
    commands = await store.commands(keys)
    assert [c.command_id for c in commands].count(move.command_id) == 1
    assert_linear(await store.read(keys), commands)


async def test_past_its_lease_by_its_own_clock_it_answers_only_what_the_store_accepted(
    redis: Any,
) -> None:
    """Paused past its lease (by its clock), nobody took it over yet: its token
    is still the latest, so the store takes its append, and the outcome is the
    store's own; but it judges nothing: a rejection from its cache waits."""
    store = EventStore(redis)
    now = [0.0]
    lapsing = ownership(redis, "r", 1, clock=lambda: now[0])
    await lapsing.look()
    reducer = Reducer(store, TableCache(store), leases=lapsing)
    now[0] += TTL_S
    (opened,) = await reducer.process([open_msg(GAME, TOKENS)])
    assert opened.status == "accepted" and await store.version(GameKeys("g", 0)) == opened.last
    again = msgspec.structs.replace(open_msg(GAME, TOKENS), command_id="open-again")
    assert await reducer.process([again]) == [], "table_exists, judged from its cache, is not answered"
    await lapsing.leave()


async def test_a_token_above_the_stores_latest_is_refused_too(redis: Any) -> None:
    """A failover can lose a taking: its bearer's token is then above the
    store's latest, and the store does not know it as the holder."""
    store = EventStore(redis)
    bearer = ownership(redis, "bearer", 1)
    await bearer.look()
    token = bearer.token(0) or 0
    await redis.hset(fencing_token(0), "token", token - 1)  # the store came back without it
    fenced = metrics.FENCED_APPENDS._value.get()
    assert await Reducer(store, TableCache(store), leases=bearer).process([open_msg(GAME, TOKENS)]) == []
    assert metrics.FENCED_APPENDS._value.get() == fenced + 1
    assert await store.version(GameKeys("g", 0)) == 0 and bearer.token(0) is None
    await bearer.leave()


async def test_a_silent_node_does_not_cost_the_leases_the_live_nodes_serve(tmp_path: Path) -> None:
    """One node of a cluster paused (as by a failing machine, before any failover):
    its partitions' leases lapse by the reducer's own clock, but those of the other
    nodes are renewed in time at every look. Were the renewals sent after the
    looks' other requests, each waiting out the silent node, they would reach the
    live nodes too late and every partition would stall while one node fails."""
    ttl_s, partitions = 3.0, 8
    cluster = start_cluster(tmp_path / "store", masters=3, node_timeout_ms=60_000, durable=False)
    redis = connect(cluster.url, cluster=True)
    settings = Settings(node="r", partitions=partitions, lease_ttl_s=ttl_s, reclaim_idle_ms=60_000)
    o = Ownership(redis, settings, TableCache(EventStore(redis)))
    silent = cluster.shard_of(REDUCERS).primary  # the heartbeats wait it out too
    live = {p for p in range(partitions) if cluster.shard_of(reducer_lease(p)).primary.port != silent.port}
    try:
        await o.look()
        await o.follow(Idle())
        assert held(o) == set(range(partitions))
        cluster.pause(silent)
        try:
            for _ in range(5):  # 5 looks, each waiting out the silent node, past the TTL
                await o.look()
                assert live <= held(o), f"lost a live node's lease: {live - held(o)}"
                assert live <= set(o.owned()), "a live node's lease lapsed by this reducer's clock"
                await asyncio.sleep(ttl_s / 3)
            for p in live:
                assert await redis.get(reducer_lease(p)) is not None, f"{p}: expired in the store"
        finally:
            cluster.resume(silent)
        await o.leave()
    finally:
        await redis.aclose()
        cluster.stop()
