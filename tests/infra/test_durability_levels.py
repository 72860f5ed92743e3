"""The durability levels (docs/reliability.md, "Durability levels") end to end, on
stacks whose store the launcher replicates: games play out under each level, and
under the replicated ones every accepted move is already on the replica when the
game ends; a move no replica can hold is never answered accepted, and its retry
with the same idempotency key gets its real outcome."""

from __future__ import annotations

import asyncio
import random
import re
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis as sync_redis

from shared.cli import botclient
from shared.eventstore.keys import GameKeys, partition_of
from shared.eventstore.store import EventStore
from shared.infra.durability import Level, appendfsync, replicated
from shared.infra.launcher import Stack
from shared.infra.redis_client import connect
from shared.infra.settings import UNTHROTTLED
from shared.infra.valkey_server import ValkeyServer
from shared.kernel.legal_groups import expand
from tests.support.checks import check_finished_table

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(600)]


@contextmanager
def running(root: Path, env: dict[str, str] | None = None, **options: Any) -> Iterator[Stack]:
    """A stack on a store with a replica per primary, stopped afterwards."""
    stack = Stack(root, env={**UNTHROTTLED, **(env or {})}, **{"partitions": 4, "replicas": 1, **options})
    try:
        stack.start(timeout=120)
        yield stack
    finally:
        stack.stop()


def waits(stack: Stack) -> dict[str, float]:
    """``ziggurat_durability_waits_total`` by outcome, over every reducer."""
    counted: dict[str, float] = {}
    for name, url in stack.metrics_urls().items():
        if name.startswith("reducer"):
            with urllib.request.urlopen(url, timeout=5) as response:
                text = response.read().decode()
            for outcome, value in re.findall(
                r'^ziggurat_durability_waits_total\{outcome="(\w+)"\} (\S+)$', text, re.M
            ):
                counted[outcome] = counted.get(outcome, 0.0) + float(value)
    return counted


def events_on(node: ValkeyServer, keys: GameKeys) -> int:
    """How many events of a game the node itself holds (a replica serves reads with READONLY)."""
    client = sync_redis.Redis(port=node.port, socket_timeout=5)
    try:
        client.execute_command("READONLY")  # type: ignore[no-untyped-call]
        return int(client.xlen(keys.events))
    finally:
        client.close()


@pytest.mark.parametrize(
    ("level", "primaries"), [("local", 1), ("fsync", 1), ("replicated", 3), ("replicated-fsync", 1)]
)
async def test_games_play_out_under_each_level(tmp_path: Path, level: Level, primaries: int) -> None:
    with running(tmp_path, durability=level, primaries=primaries, reducers=2) as stack:
        assert stack.store is not None
        redis = connect(stack.redis_url or "", cluster=True)
        try:
            async with httpx.AsyncClient(base_url=stack.api, timeout=60) as api:
                tables = [await botclient.open_table(api, "highcard", seats) for seats in (2, 3)]
                stats = botclient.Stats()
                finals = await asyncio.gather(
                    *(botclient.play(api, t, random.Random(i), stats) for i, t in enumerate(tables))
                )
                assert all(f["over"] for f in finals) and "unavailable" not in stats.rejected
                for table in tables:
                    await check_finished_table(api, redis, table.table_id, stack.partitions)
            games = [GameKeys(t.table_id, partition_of(t.table_id, stack.partitions)) for t in tables]
            if not replicated(level):  # the replicas catch up in their own time
                await asyncio.to_thread(stack.store.wait_synced)
            # Replicated: every move was answered only once a replica held it, so
            # the replicas have whole games the moment the last answer came.
            for keys in games:
                shard = stack.store.shard_of(keys.events)
                assert events_on(shard.replicas[0], keys) == events_on(shard.primary, keys) > 0
            for node in stack.store.nodes:
                client = sync_redis.Redis(port=node.port, decode_responses=True)
                assert client.config_get("appendfsync")["appendfsync"] == appendfsync(level)
                expected = "1" if replicated(level) else "0"
                assert client.config_get("min-replicas-to-write")["min-replicas-to-write"] == expected
                client.close()
            counted = waits(stack)
            if replicated(level):
                assert counted["confirmed"] > 0 and counted["short"] == counted["refused"] == 0
            else:
                assert sum(counted.values()) == 0
        finally:
            await redis.aclose()


async def test_a_move_no_replica_holds_is_answered_503_and_its_retry_gets_the_real_outcome(
    tmp_path: Path,
) -> None:
    with running(
        tmp_path, durability="replicated", partitions=2, env={"ZIGGURAT_DURABILITY_TIMEOUT_MS": "500"}
    ) as stack:
        assert stack.store is not None
        (shard,) = stack.store.shards()
        (replica,) = shard.replicas
        redis = connect(stack.redis_url or "", cluster=True)
        store = EventStore(redis)
        async with httpx.AsyncClient(base_url=stack.api, timeout=60) as api:
            table = await botclient.open_table(api, "highcard", 2)
            keys = GameKeys(table.table_id, partition_of(table.table_id, stack.partitions))
            sent: dict[str, tuple[int, dict[str, Any]]] = {}

            async def move(key: str) -> httpx.Response:
                """The seat to act plays its first legal card (a retried key sends what it sent)."""
                if key not in sent:
                    doc = await botclient.view(api, table, None)
                    seat = doc["actors"][0]
                    mine = await botclient.view(api, table, seat)
                    body = {"command": expand(mine["legal"])[0], "expected_version": mine["version"]}
                    sent[key] = (seat, body)
                seat, body = sent[key]
                headers = {**botclient.auth(table.tokens[seat]), "idempotency-key": key}
                return await api.post(f"/v1/tables/{table.table_id}/commands", json=body, headers=headers)

            assert (await move("healthy")).status_code == 200
            before = await store.version(keys)

            # The replica's link cut: min-replicas-to-write refuses the writes, so
            # the move is answered 503 unavailable and nothing of it is stored.
            stack.store.cut_link(replica)
            refused = await move("refused")
            assert (refused.status_code, refused.json()["code"]) == (503, "unavailable")
            assert await store.version(keys) == before

            # A primary without that guard takes the append; the reducer's wait for
            # the replica runs out, so it is still not answered accepted.
            primary = sync_redis.Redis(port=shard.primary.port)
            primary.config_set("min-replicas-to-write", 0)
            unconfirmed = await move("unconfirmed")
            assert (unconfirmed.status_code, unconfirmed.json()["code"]) == (503, "unavailable")
            assert await store.version(keys) > before
            assert waits(stack)["short"] >= 1

            # Back in sync, the retries learn what really happened: the one stored
            # is accepted (a duplicate, at its version), the one refused is stale.
            stack.store.heal_link(replica)
            await asyncio.to_thread(stack.store.wait_synced)
            again = await move("unconfirmed")
            assert again.status_code == 200 and again.json()["duplicate"] is True
            assert again.json()["version"] == await store.version(keys)
            stale = await move("refused")
            assert (stale.status_code, stale.json()["code"]) == (409, "stale_version")
            primary.config_set("min-replicas-to-write", 1)
            primary.close()

            # The table goes on and ends as any other; the refused move is nowhere.
            final = await botclient.play(api, table, random.Random(7))
            assert final["over"]
            await check_finished_table(api, redis, table.table_id, stack.partitions)
            ids = [c.command_id for c in await store.commands(keys)]
            assert sum(i.endswith(":unconfirmed") for i in ids) == 1
            assert not any(i.endswith(":refused") for i in ids)
        await redis.aclose()
