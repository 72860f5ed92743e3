"""The store's client on a cluster whose nodes fail: one node's failure stays that
node's (shared/infra/redis_client.py; docs/architecture.md, "Riding a failover").

Against real Valkey clusters of three primaries with a replica each: a killed
primary fails only the commands of its own slots, at once (not after retries
that close every connection), and once its replica is promoted the same client
reaches it; the node named in the URL is not needed once the client runs
(stream reads, pub/sub); a paused primary holds up only the requests that need
it, and a subscriber listening on two nodes loses nothing while one is silent.
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aioredis
from redis.asyncio.cluster import ClusterNode, PipelineCommand
from redis.crc import key_slot

from shared.infra.coalesce import Coalescer
from shared.infra.redis_client import (
    STORE_DOWN,
    FailoverCluster,
    Publisher,
    Subscriber,
    _adopt,
    _close_free,
    _on_node,
    _plain,
    connect,
)
from shared.infra.valkey_cluster import ValkeyCluster, start_cluster
from shared.infra.valkey_server import ValkeyServer
from tests.support.waiting import until

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]
#: One key in each partition's slot, as the services' keys are ({p0}..{p7}).
KEYS = [f"zg:{{p{p}}}:probe" for p in range(8)]


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[ValkeyCluster]:
    store = start_cluster(tmp_path, masters=3, replicas=1, node_timeout_ms=2000)
    try:
        yield store
    finally:
        store.stop()


def on(store: ValkeyCluster, node: ValkeyServer) -> list[str]:
    (shard,) = [s for s in store.shards() if s.primary.port == node.port]
    return [k for k in KEYS if shard.owns(key_slot(k.encode()))]


def a_primary(store: ValkeyCluster, url: bool) -> ValkeyServer:
    """A primary serving some of the keys: the URL's, or another."""
    return next(p for p in store.primaries() if (p.port == store.nodes[0].port) == url and on(store, p))


def replaced(store: ValkeyCluster, node: ValkeyServer, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while node.port in {p.port for p in store.primaries()}:
        assert time.monotonic() < deadline, f"{node.port} was not failed over"
        time.sleep(0.1)


async def listening(store: ValkeyCluster, copies: int) -> bool:
    """Whether ``copies`` subscriptions to the test's channel are in place, over every node."""
    total = 0
    for node in store.reachable():
        client = aioredis.Redis(port=node.port)
        try:
            total += sum(n for _, n in await client.pubsub_numsub("zg:test"))
        finally:
            await client.aclose()
    return total == copies


async def _true(value: bool) -> bool:
    return value


async def incr_all(redis: Any) -> list[Any]:
    async with redis.pipeline(transaction=False) as pipe:
        for key in KEYS:
            pipe.incr(key)
        return list(await pipe.execute(raise_on_error=False))


async def test_a_dead_primary_fails_only_its_own_commands_and_is_followed(cluster: ValkeyCluster) -> None:
    redis = connect(cluster.url, cluster=True)
    try:
        await incr_all(redis)
        victim = a_primary(cluster, url=False)
        theirs = on(cluster, victim)
        cluster.kill(victim)
        replies = dict(zip(KEYS, await incr_all(redis), strict=True))
        # Answered before the cluster even noticed: no wait for the failover, no retries.
        assert victim.port in {p.port for p in cluster.primaries()}, "answered only after the failover"
        assert all(isinstance(replies[k], STORE_DOWN) for k in theirs), replies
        assert all(replies[k] == 2 for k in KEYS if k not in theirs), replies
        # The others' connections were kept: the same client goes on with them.
        assert all(r == 3 for k, r in zip(KEYS, await incr_all(redis), strict=True) if k not in theirs)

        await asyncio.to_thread(replaced, cluster, victim)
        for _ in range(50):  # the client re-reads the slot map after a failure
            replies = dict(zip(KEYS, await incr_all(redis), strict=True))
            if not any(isinstance(r, Exception) for r in replies.values()):
                break
            await asyncio.sleep(0.1)
        assert not any(isinstance(r, Exception) for r in replies.values()), replies
    finally:
        await redis.aclose()


class Heard:
    """What a gateway-style subscriber (two copies) hears on the test's channel."""

    def __init__(self, redis: Any) -> None:
        self.messages: list[bytes] = []
        self.subscriptions = 0
        self._task = asyncio.create_task(self._listen(redis))

    def _subscribed(self) -> None:
        self.subscriptions += 1

    async def _listen(self, redis: Any) -> None:
        async for message in Subscriber(redis).messages("zg:test", self._subscribed, "gateway", copies=2):
            self.messages.append(message)

    async def stop(self) -> None:
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)


async def test_the_node_in_the_url_is_not_needed_once_running(cluster: ValkeyCluster) -> None:
    redis = connect(cluster.url, cluster=True)
    heard = Heard(redis)
    publisher = Publisher(redis)
    try:
        streams = [k.replace("probe", "stream") for k in KEYS]
        for stream in streams:
            await redis.xadd(stream, {"m": "1"})
            await redis.xgroup_create(stream, "g", id="0")
        assert await until(lambda: listening(cluster, 2), 10)
        url_node = a_primary(cluster, url=True)
        elsewhere = [s for s, k in zip(streams, KEYS, strict=True) if k not in on(cluster, url_node)]
        cluster.kill(url_node)
        for i in range(20):
            await publisher.after([("zg:test", f"m{i}".encode())])
            # A stream read finds its node without asking the URL's (COMMAND GETKEYS).
            for stream in elsewhere:
                async with redis.pipeline(transaction=False) as pipe:
                    pipe.xreadgroup("g", "c", {stream: "0"}, count=1)
                    (reply,) = await pipe.execute(raise_on_error=False)
                assert not isinstance(reply, Exception), (stream, reply)
            await asyncio.sleep(0.05)
        assert await until(lambda: _true(len(heard.messages) >= 20), 10), (
            f"heard {heard.messages}; both copies deaf at once {heard.subscriptions - 1} time(s) since "
            f"the first subscription; killed {url_node.port}, published last through {publisher._node}"
        )
        assert heard.messages == [f"m{i}".encode() for i in range(20)], "every message, once, in order"
    finally:
        await heard.stop()
        await redis.aclose()


async def test_publishers_meeting_a_failed_node_at_once_all_publish_elsewhere(cluster: ValkeyCluster) -> None:
    """A stage reads each partition in a loop of its own, and their publishes
    share one connection to a node. When that node fails, every loop's publish
    fails at once: each must send again through another node (the second to see
    the failure found the connection already dropped and failed on it, its batch
    handled again and again: the chaos test's slowed partitions under a pause)."""
    redis = connect(cluster.url, cluster=True)
    heard = Heard(redis)
    publisher = Publisher(redis)
    with socket.socket() as probe:  # a port nobody listens on: refused at once
        probe.bind(("127.0.0.1", 0))
        dead = probe.getsockname()[1]
    try:
        assert await until(lambda: listening(cluster, 2), 10)
        publisher._node = ("127.0.0.1", dead)
        publisher._plain = _plain("127.0.0.1", dead, 1.0, 1.0)
        sent = [f"m{i}".encode() for i in range(8)]
        await asyncio.gather(*(publisher.after([("zg:test", m)]) for m in sent))
        assert await until(lambda: _true(len(heard.messages) >= len(sent)), 10)
        assert sorted(heard.messages) == sorted(sent), "every message, once"
    finally:
        await heard.stop()
        await redis.aclose()


async def test_a_paused_primary_holds_up_only_its_own_requests(cluster: ValkeyCluster) -> None:
    redis = connect(cluster.url, cluster=True)
    heard = Heard(redis)
    try:
        batch = Coalescer(redis)
        for key in KEYS:
            await batch.run(lambda pipe, key=key: pipe.set(key, 0))
        assert await until(lambda: listening(cluster, 2), 10)
        paused = a_primary(cluster, url=False)
        theirs = set(on(cluster, paused))
        cluster.pause(paused)
        try:
            requests = {k: asyncio.ensure_future(batch.run(lambda pipe, k=k: pipe.incr(k))) for k in KEYS}
            others = [requests[k] for k in KEYS if k not in theirs]
            # One pipeline for all of them, yet the others are answered while the paused node's wait.
            await asyncio.wait_for(asyncio.gather(*others), 4)
            assert all(f.result() == 1 for f in others)
            assert not any(requests[k].done() for k in theirs), "the paused node answered?"
            # Published on a node that answers, heard by the copy that does: nothing lost.
            await redis.publish("zg:test", "while paused")
            assert await until(lambda: _true(b"while paused" in heard.messages), 10)
        finally:
            cluster.resume(paused)
        mine = await asyncio.gather(*(requests[k] for k in theirs), return_exceptions=True)
        assert all(r == 1 or isinstance(r, STORE_DOWN) for r in mine), mine
        assert heard.subscriptions == 1, "the other copy was listening all along: nothing could be missed"
    finally:
        await heard.stop()
        await redis.aclose()


async def test_a_node_leaving_the_slot_map_never_hands_out_a_connection_mid_close(
    valkey: ValkeyServer,
) -> None:
    """A node that leaves the slot map (a failover) has its idle connections closed
    in the background; a command that looked its slot up a moment before still
    holds the node and takes a connection from it. It must never get one being
    closed (redis-py's own close left them in the pool: the command wrote to a
    connection without a socket, an AttributeError and a 500 at the edge)."""
    node = ClusterNode("127.0.0.1", valkey.port, server_type="primary")
    idle = node.acquire_connection()
    await idle.connect()
    node.release(idle)
    closing = asyncio.create_task(_close_free(node))
    await asyncio.sleep(0)  # the close has begun
    taken = node.acquire_connection()
    assert taken is not idle, "a connection being closed was handed out"
    await closing
    await taken.send_command("PING")
    assert await taken.read_response() == b"PONG"
    node.release(taken)
    again = node.acquire_connection()  # the closed one is back, and connects on use
    await again.send_command("PING")
    assert await again.read_response() == b"PONG"
    await node.disconnect()


async def test_a_failed_connection_never_closes_a_nodes_idle_connections_in_place(
    cluster: ValkeyCluster,
) -> None:
    """When a command meets a failed connection, redis-py closes the node's idle
    connections in place (``disconnect_free_connections``), while they stay in the
    pool: a pipeline of another request took one mid-close and read from a socket
    that was going (a 500 in the chaos test). Every node of the services' client
    closes them out of the pool instead."""
    redis = connect(cluster.url, cluster=True)
    try:
        await incr_all(redis)
        nodes = [n for n in redis.get_nodes() if n._free]
        assert nodes, "the pipeline left idle connections"
        for node in nodes:
            idle = set(node._free)
            closing = asyncio.create_task(node.disconnect_free_connections())
            await asyncio.sleep(0)  # the close has begun
            taken = node.acquire_connection()
            assert taken not in idle, f"{node.name}: a connection being closed was handed out"
            await closing
            node.release(taken)
        assert await incr_all(redis), "the closed connections connect again on use"
    finally:
        await redis.aclose()


async def test_a_reply_that_cannot_be_read_is_the_nodes_failure(valkey: ValkeyServer) -> None:
    """redis-py keeps whatever reading a reply raised as the command's result; one
    that is not the server's own error (the connection broke under the read) must
    reach the caller as the store's outage, the retryable 503, and the node be
    suspected, not as an unexpected error (a 500)."""
    client = connect(f"redis://127.0.0.1:{valkey.port}", cluster=True)
    assert isinstance(client, FailoverCluster)
    node = _adopt(ClusterNode("127.0.0.1", valkey.port, server_type="primary"))

    def unreadable(response: Any, **_: Any) -> Any:
        raise AttributeError("'NoneType' object has no attribute 'read'")

    node.response_callbacks = {**node.response_callbacks, "PING": unreadable}
    commands = [PipelineCommand(0, "PING"), PipelineCommand(1, "ECHO", "x")]
    await _on_node(client, node, commands)
    assert isinstance(commands[0].result, STORE_DOWN), commands[0].result
    assert commands[1].result == b"x", "the other replies stand"
    assert client.suspected(node.name)
    await node.disconnect()


async def test_a_new_clients_first_command_goes_to_its_slots_node_while_another_is_dead(
    cluster: ValkeyCluster,
) -> None:
    """A fresh client has no slot map until its first command; redis-py picks a
    command's node before reading it, so that first command went to a random
    node, the dead one about one time in three (and again on each retry). Each
    of thirty fresh clients writes a live node's key at once."""
    dead = a_primary(cluster, url=False)
    cluster.kill(dead)
    live = [k for k in KEYS if k not in on(cluster, dead)]
    for i in range(30):
        client = connect(cluster.url, cluster=True)
        try:
            await client.set(live[i % len(live)], i)
        finally:
            await client.aclose()
