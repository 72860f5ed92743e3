"""The control plane on a real Valkey: FastStream's typed publisher and batch
subscriber, with the reliability the hot path's reader has.

A batch the store failed under stays pending and the reclaim subscriber (same
group) delivers it again; a message that keeps failing is parked as a dead
letter with its entry id, acknowledged, and a retry of the dead letter puts it
back where the subscriber reads it again.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from redis.crc import key_slot
from redis.exceptions import ConnectionError as RedisConnectionError

from shared.infra.redis_client import STORE_DOWN, FailoverCluster, connect
from shared.infra.settings import Settings
from shared.infra.valkey_cluster import ValkeyCluster, start_cluster
from shared.infra.valkey_server import ValkeyServer
from shared.messaging import deadletters
from shared.messaging.broker import command_publisher, make_broker, subscribe_commands
from shared.messaging.control import COMMANDS, TournamentMsg
from tests.support.messages import tournament_start
from tests.support.waiting import until

pytestmark = pytest.mark.integration
GROUP = "tournaments"


class Handler:
    """Records what it handled; fails on the command ids it is told to."""

    def __init__(self, redis: Any, bad: set[str] | None = None, outages: int = 0) -> None:
        self.redis = redis
        self.bad = bad or set()
        self.outages = outages
        self.handled: list[str] = []

    async def handle(self, msgs: list[TournamentMsg]) -> None:
        if self.outages:
            self.outages -= 1
            raise RedisConnectionError("the store went away")
        if any(m.command_id in self.bad for m in msgs):
            raise ValueError("this command breaks the service")
        self.handled += [m.command_id for m in msgs]

    async def park(self, entry_id: bytes, fields: dict[bytes, bytes], body: bytes, error: str) -> None:
        await deadletters.park(self.redis, "tournaments", COMMANDS, GROUP, entry_id, fields, error)


def settings(valkey: ValkeyServer) -> Settings:
    # Idle long enough that the reclaim subscriber never takes a message the
    # first consumer is still retrying (that would park it twice).
    return Settings(redis_url=valkey.url, node="n1", reclaim_idle_ms=1_500, max_deliveries=2, batch=50)


async def pending(redis: Any) -> int:
    return int((await redis.xpending(COMMANDS, GROUP))["pending"])


async def test_commands_arrive_typed_in_order_and_are_acknowledged(valkey: ValkeyServer, redis: Any) -> None:
    handler = Handler(redis)
    broker = make_broker(settings(valkey))
    subscribe_commands(broker, GROUP, settings(valkey), handler.handle, handler.park)
    publisher = command_publisher(broker)
    async with broker:
        await broker.start()
        for i in range(20):
            await publisher.publish(tournament_start(f"c{i}"))

        async def done() -> bool:
            return len(handler.handled) == 20 and await pending(redis) == 0

        assert await until(done, 10, every_s=0.05)
    assert handler.handled == [f"c{i}" for i in range(20)]


async def test_a_batch_the_store_failed_under_is_delivered_again(valkey: ValkeyServer, redis: Any) -> None:
    handler = Handler(redis, outages=1)
    broker = make_broker(settings(valkey))
    subscribe_commands(broker, GROUP, settings(valkey), handler.handle, handler.park)
    async with broker:
        await broker.start()
        await command_publisher(broker).publish(tournament_start("once"))

        async def done() -> bool:
            return handler.handled == ["once"] and await pending(redis) == 0

        assert await until(done, 10, every_s=0.05)
    assert await deadletters.count(redis) == 0


async def test_poison_is_parked_acknowledged_and_a_retry_reads_it_again(
    valkey: ValkeyServer, redis: Any
) -> None:
    handler = Handler(redis, bad={"bad"})
    broker = make_broker(settings(valkey))
    subscribe_commands(broker, GROUP, settings(valkey), handler.handle, handler.park)
    async with broker:
        await broker.start()
        publisher = command_publisher(broker)
        for command_id in ("a", "bad", "b"):
            await publisher.publish(tournament_start(command_id))
        await redis.xadd(COMMANDS, {"__data__": b"not json at all"})

        async def parked() -> bool:
            return await deadletters.count(redis) == 2 and await pending(redis) == 0

        assert await until(parked, 10, every_s=0.05)
        assert sorted(handler.handled) == ["a", "b"]
        letters = await deadletters.listing(redis)
        assert all(letter.entry_id and letter.stream == COMMANDS for letter in letters)
        assert {"this command breaks the service" in letter.error for letter in letters} == {True, False}
        handler.bad.clear()
        for letter in letters:
            await deadletters.retry(redis, letter.id)

        async def retried() -> bool:
            return "bad" in handler.handled and await deadletters.count(redis) == 1

        assert await until(retried, 10, every_s=0.05)
    assert handler.handled.count("bad") == 1


async def test_the_control_plane_rides_a_failover_of_its_streams_node(tmp_path: Path) -> None:
    """A replicated cluster whose primary holding the commands' stream is killed:
    the gateway's publisher and the platform process's subscriber (FastStream's
    own cluster client) follow the promoted replica, with no restart; every
    command published is handled, once it can be. Meanwhile a publish fails only
    as the store's outage (the gateway's retryable 503), never with another
    error (a 500): the broker rides the services' own cluster client."""
    store = start_cluster(tmp_path / "store", masters=3, replicas=1, node_timeout_ms=2000)
    redis = connect(store.url, cluster=True)
    config = Settings(
        redis_url=store.url, cluster=True, node="n1", reclaim_idle_ms=1_500, max_deliveries=5, batch=50
    )
    handler = Handler(redis)
    broker = make_broker(config)
    subscribe_commands(broker, GROUP, config, handler.handle, handler.park)
    publisher = command_publisher(broker)
    try:
        async with broker:
            await broker.start()
            assert isinstance(broker.config.broker_config.connection.client, FailoverCluster)
            await publisher.publish(tournament_start("before"))

            async def first() -> bool:
                return handler.handled == ["before"]

            assert await until(first, 20, every_s=0.05)
            victim = next(s.primary for s in store.shards() if s.owns(key_slot(COMMANDS.encode())))
            store.kill(victim)
            await asyncio.to_thread(_replaced, store, victim)
            sent = []
            for i in range(10):  # a gateway retries a 503; so does this publisher
                for _ in range(100):
                    try:
                        await publisher.publish(tournament_start(f"after{i}"))
                        break
                    except STORE_DOWN:
                        await asyncio.sleep(0.2)
                sent.append(f"after{i}")

            async def done() -> bool:
                return set(sent) <= set(handler.handled) and await pending(redis) == 0

            assert await until(done, 60, every_s=0.1), f"handled {handler.handled}"
    finally:
        await redis.aclose()
        store.stop()


def _replaced(store: ValkeyCluster, primary: ValkeyServer, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while primary.port in {p.port for p in store.primaries()}:
        assert time.monotonic() < deadline, f"{primary.port} was not failed over"
        time.sleep(0.1)
