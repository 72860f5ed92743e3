"""Faults under load: kill -9 each service, and Valkey itself, while bots play.

The short form runs in ``make test``; ``make test-slow`` (the ``slow`` marker)
plays more games and kills more often. Afterwards: no acknowledged command is
lost, none is applied twice, every projection equals a rebuild from the log,
and nothing is left pending in any consumer group.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from shared.cli import botclient
from shared.eventstore.keys import GameKeys, partition_of
from shared.eventstore.store import EventStore
from shared.infra.launcher import Layout, Stack
from shared.infra.redis_client import connect
from shared.messaging.messages import client_key
from tests.support.checks import check_finished_table
from tests.support.pipeline_load import FAST_RECLAIM, keep_playing, pending_entries
from tests.support.waiting import until

pytestmark = [pytest.mark.e2e, pytest.mark.chaos, pytest.mark.timeout(900)]


async def run_with_faults(
    root: Path, workers: int, victims: list[str], pause_s: float, layout: Layout = "separate"
) -> None:
    stack = Stack(root, partitions=2, fsync="always", env=FAST_RECLAIM, layout=layout).start()
    try:
        async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
            tables: list[botclient.Table] = []
            stats = botclient.Stats()
            stop = asyncio.Event()
            load = asyncio.gather(*(keep_playing(api, tables, stats, stop, w) for w in range(workers)))
            for victim in victims:
                # Pacing, not waiting for anything: the load runs on between
                # faults, so each lands on games in every stage of play.
                await asyncio.sleep(pause_s)
                assert not load.done(), "the load stopped before the faults were over"
                await asyncio.to_thread(_crash_and_restart, stack, victim)
            stop.set()  # let every game in progress play to its end
            await load
            assert len(tables) >= workers
            await _check(stack, api, tables, stats)
    finally:
        stack.stop()


def _crash_and_restart(stack: Stack, victim: str) -> None:
    if victim == "valkey":
        assert stack.valkey is not None
        stack.valkey.kill()
        stack.valkey.start()
        return
    stack.procs[victim].kill()
    stack.procs[victim].start()
    stack.wait_healthy(names=[victim])


async def _check(
    stack: Stack, api: httpx.AsyncClient, tables: list[botclient.Table], stats: botclient.Stats
) -> None:
    redis = connect(stack.redis_url or "")
    accepted = {key for key, status, _ in stats.sent if status == 200}
    assert accepted, "no command was accepted"
    applied: set[str] = set()
    for table in tables:
        await check_finished_table(api, redis, table.table_id, stack.partitions)
        keys = GameKeys(table.table_id, partition_of(table.table_id, stack.partitions))
        applied |= {
            client_key(c.command_id) for c in await EventStore(redis).commands(keys) if c.kind == "move"
        }
    assert accepted <= applied, f"acknowledged but lost: {sorted(accepted - applied)[:5]}"

    async def drained() -> bool:  # the reclaimers took over what the dead left pending
        return await pending_entries(redis, stack.partitions) == 0

    assert await until(drained, 20), f"{await pending_entries(redis, stack.partitions)} entries still pending"
    await redis.aclose()


async def test_killing_each_process_in_turn_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    victims = ["validator-0", "reducer-0", "projector-0", "gateway", "valkey"]
    await run_with_faults(tmp_path, workers=4, victims=victims, pause_s=0.7)


async def test_killing_the_process_hosting_every_stage_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    """The stages hosted together (services/stages) die together: each one's
    pending entries, leases and in-memory tables are lost at once, twice."""
    await run_with_faults(
        tmp_path, workers=4, victims=["stages-0", "gateway", "stages-0"], pause_s=0.7, layout="together"
    )


@pytest.mark.slow
async def test_killing_repeatedly_under_longer_load(tmp_path: Path) -> None:
    victims = ["validator-0", "reducer-0", "projector-0", "gateway", "valkey"] * 3
    await run_with_faults(tmp_path, workers=12, victims=victims, pause_s=0.7)
