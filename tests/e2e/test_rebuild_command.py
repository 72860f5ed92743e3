"""`ziggurat rebuild`: projections equal a rebuild from the log; a corrupted one
is reported, and `--write` repairs it."""

from __future__ import annotations

import asyncio
import random

import httpx
import pytest

from shared.cli import botclient
from shared.cli.main import main as ziggurat
from shared.eventstore.keys import GameKeys, partition_of
from shared.infra.launcher import Stack
from shared.infra.redis_client import connect

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("stack"), pytest.mark.timeout(300)]


async def test_rebuild_reports_and_repairs_a_corrupted_projection(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=60) as api:
        table = await botclient.open_table(api, "highcard", 2)
        await botclient.play(api, table, random.Random(5))
    args = [
        "rebuild",
        table.table_id,
        "--redis",
        stack.redis_url or "",
        "--partitions",
        str(stack.partitions),
    ]
    assert await asyncio.to_thread(ziggurat, args) == 0
    redis = connect(stack.redis_url or "")
    keys = GameKeys(table.table_id, partition_of(table.table_id, stack.partitions))
    good = await redis.get(keys.view("seat1"))
    await redis.set(keys.view("seat1"), b'{"corrupted":true}')
    assert await asyncio.to_thread(ziggurat, args) == 1
    assert await asyncio.to_thread(ziggurat, [*args, "--write"]) == 0
    assert await redis.get(keys.view("seat1")) == good
    assert await asyncio.to_thread(ziggurat, args) == 0
    await redis.aclose()
