"""Complete games through the HTTP API, with every service its own process."""

from __future__ import annotations

import asyncio
import random

import httpx
import pytest

from shared.cli import botclient
from shared.cli.feed import follow
from shared.games import registry
from shared.infra.launcher import Stack
from shared.infra.redis_client import connect
from shared.kernel.legal_groups import expand
from tests.support.checks import check_finished_table

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("stack"), pytest.mark.timeout(600)]


def hosted_games() -> list[tuple[str, int, dict[str, object]]]:
    # Random bots need thousands of moves to reach 13 points in Catan; a shorter
    # race exercises the same rules through the platform in a CI-sized run.
    wanted: list[tuple[str, int, dict[str, object]]] = [
        ("highcard", 2, {}),
        ("highcard", 4, {}),
        ("tigris", 4, {}),
        ("tigris-cards", 2, {}),
        ("catan-ck", 3, {"points_to_win": 5}),
        ("conan", 3, {}),
    ]
    available = set(registry.available())
    return [w for w in wanted if w[0] in available]


async def test_bots_play_complete_games_and_everything_checks_out(stack: Stack) -> None:
    redis = connect(stack.redis_url or "")
    async with httpx.AsyncClient(base_url=stack.api, timeout=60) as api:
        tables_ = [
            await botclient.open_table(api, game, seats, options) for game, seats, options in hosted_games()
        ]
        spectators = [asyncio.create_task(_collect(api, t.table_id)) for t in tables_]
        stats = botclient.Stats()
        finals = await asyncio.gather(
            *(botclient.play(api, t, random.Random(i), stats) for i, t in enumerate(tables_))
        )
        assert all(f["over"] for f in finals)
        assert stats.accepted > 0
        for table, spectator in zip(tables_, spectators, strict=True):
            entries = await asyncio.wait_for(spectator, timeout=60)
            assert entries and entries[-1]["event"]["type"] == "table.finished"
            await check_finished_table(api, redis, table.table_id, stack.partitions)
    await redis.aclose()


async def _collect(api: httpx.AsyncClient, table_id: str) -> list[dict]:
    return [entry async for entry in follow(api, table_id)]


async def test_a_retry_with_the_same_idempotency_key_gets_the_first_answer(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        table = await botclient.open_table(api, "highcard", 2)
        mine = await botclient.view(api, table, 0)
        body = {"command": expand(mine["legal"])[0]}
        headers = {**botclient.auth(table.tokens[0]), "idempotency-key": "once"}
        first = await api.post(f"/v1/tables/{table.table_id}/commands", json=body, headers=headers)
        again = await api.post(f"/v1/tables/{table.table_id}/commands", json=body, headers=headers)
        assert first.status_code == again.status_code == 200
        a, b = first.json(), again.json()
        assert (a["version"], a["events"], a["duplicate"]) == (b["version"], b["events"], False) and b[
            "duplicate"
        ]
        spectator = await botclient.view(api, table, None)
        assert spectator["version"] == a["version"]
