"""The whole system with the game read models on a Valkey of their own,
without AOF: they land there and not on the store; a read-model server that
comes back empty while games are played is rebuilt by the projector, with
the gateway answering "rebuilding, retry" (never "no such table") meanwhile,
and nothing is lost."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from shared.cli import botclient
from shared.cli.main import main as ziggurat
from shared.eventstore.keys import GameKeys, partition_of
from shared.infra.launcher import Stack
from shared.infra.redis_client import connect
from shared.infra.settings import UNTHROTTLED
from shared.readmodels.build import HISTORY, audience_name
from tests.support.waiting import until

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]
LONG = {"deck_size": 60, "hand_size": 15}


@pytest.fixture(scope="module")
def apart(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    root: Path = tmp_path_factory.mktemp("stack-read-models")
    running = Stack(root, partitions=4, env=UNTHROTTLED, read_models="start")
    running.start()
    yield running
    running.stop()


def _rebuild(stack: Stack, *extra: str) -> list[str]:
    return [
        "rebuild",
        "--redis",
        stack.redis_url or "",
        "--read-models",
        stack.read_models or "",
        "--partitions",
        str(stack.partitions),
        *extra,
    ]


async def _models(redis: Any, keys: GameKeys, seats: int) -> dict[str, Any]:
    out: dict[str, Any] = {"checkpoint": await redis.get(keys.checkpoint)}
    for name in (audience_name(a) for a in [None, *range(seats)]):
        out[f"view:{name}"] = await redis.get(keys.view(name))
        out[f"feed:{name}"] = await redis.xrange(keys.audience_feed(name))
    return out


async def test_the_read_models_live_on_their_own_server(apart: Stack) -> None:
    async with httpx.AsyncClient(base_url=apart.api, timeout=60) as api:
        table = await botclient.open_table(api, "highcard", 2)
        await botclient.play(api, table, random.Random(1))
    keys = GameKeys(table.table_id, partition_of(table.table_id, apart.partitions))
    store, read = connect(apart.redis_url or ""), connect(apart.read_models or "")
    try:
        assert await store.exists(keys.events, keys.auth) == 2
        assert await read.exists(keys.view("spectator"), keys.checkpoint, keys.audience_feed(HISTORY)) == 3
        assert await store.exists(keys.view("spectator"), keys.checkpoint, keys.audience_feed(HISTORY)) == 0
        assert not [k for k in await store.keys("*") if b":view:" in k or b":projected" in k]
        # ziggurat rebuild reads the logs from the store and compares on the read-model server.
        assert await asyncio.to_thread(ziggurat, _rebuild(apart)) == 0
    finally:
        await store.aclose()
        await read.aclose()


async def test_a_read_model_server_that_comes_back_empty_is_rebuilt_and_play_goes_on(apart: Stack) -> None:
    read = connect(apart.read_models or "")
    async with httpx.AsyncClient(base_url=apart.api, timeout=60) as api:
        done = await botclient.open_table(api, "highcard", 3, LONG)
        await botclient.play(api, done, random.Random(2))
        keys = GameKeys(done.table_id, partition_of(done.table_id, apart.partitions))
        before = await _models(read, keys, 3)

        # With no projector to rebuild them, the gateway says what is going on.
        apart.procs["projector-0"].stop()
        await read.flushall()
        r = await api.get(f"/v1/tables/{done.table_id}/view")
        assert r.status_code == 503, r.text
        assert r.json()["code"] == "read_models_rebuilding"
        unknown = await api.get("/v1/tables/no-such-table/view")
        assert unknown.status_code == 404  # the store still knows which tables exist
        apart.procs["projector-0"].start()
        assert await until(lambda: _ok(api, done.table_id), timeout_s=60)
        assert await _models(read, keys, 3) == before  # views, feeds with their ids, checkpoint

        # Emptied again while games are being played: they finish, nothing lost.
        live = [await botclient.open_table(api, "highcard", 2, LONG) for _ in range(3)]
        # Paced, so that the flush falls mid-game.
        playing = [
            asyncio.create_task(botclient.play(api, t, random.Random(i), pace_s=0.01))
            for i, t in enumerate(live)
        ]
        await asyncio.sleep(0.3)
        assert not any(p.done() for p in playing)
        await read.flushall()
        await asyncio.wait_for(asyncio.gather(*playing), timeout=120)
        # Settled: the rebuild done (the markers back), whichever write or look found them gone.
        assert await until(lambda: _ok(api, done.table_id), timeout_s=60)
    assert await asyncio.to_thread(ziggurat, _rebuild(apart)) == 0  # every game equals its log
    await read.aclose()


async def _ok(api: httpx.AsyncClient, table_id: str) -> bool:
    return (await api.get(f"/v1/tables/{table_id}/view")).status_code == 200
