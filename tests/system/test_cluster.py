"""Scale-out, shown: the whole system on a three-master Valkey cluster, with two
reducers sharing the partitions, two validators and two projectors."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import httpx
import pytest

from shared.cli import botclient
from shared.infra.launcher import Stack
from shared.infra.redis_client import connect
from shared.infra.settings import UNTHROTTLED
from shared.infra.valkey_cluster import start_cluster
from tests.support.checks import check_finished_table

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(600)]


async def test_games_play_out_on_a_three_master_cluster(tmp_path: Path) -> None:
    valkeys = start_cluster(tmp_path / "cluster", masters=3)
    stack = Stack(
        tmp_path / "stack",
        redis_url=valkeys.url,
        cluster=True,
        partitions=4,
        reducers=2,
        validators=2,
        projectors=2,
        env=UNTHROTTLED,
    )
    try:
        stack.start(timeout=90)
        redis = connect(valkeys.url, cluster=True)
        async with httpx.AsyncClient(base_url=stack.api, timeout=60) as api:
            tables = [await botclient.open_table(api, "highcard", seats) for seats in (2, 3, 4, 2, 3, 4)]
            finals = await asyncio.gather(
                *(botclient.play(api, t, random.Random(i)) for i, t in enumerate(tables))
            )
            assert all(f["over"] for f in finals)
            for table in tables:
                await check_finished_table(api, redis, table.table_id, stack.partitions)
        # The partitions really are spread over the masters.
        masters = {redis.get_node_from_key(f"zg:{{p{p}}}:feed").name for p in range(stack.partitions)}
        assert len(masters) >= 2, masters
        await redis.aclose()
    finally:
        stack.stop()
        valkeys.stop()
