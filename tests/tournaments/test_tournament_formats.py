"""Round robin and single elimination through the services, and `ziggurat verify`
on a finished table."""

from __future__ import annotations

import asyncio
import random

import httpx
import pytest

from shared.cli import botclient
from shared.cli.main import main as ziggurat
from shared.infra.launcher import Stack
from tests.support.accounts import bearer
from tests.tournaments.organiser_api import create, finished, register, wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("stack"), pytest.mark.timeout(300)]


async def run_tournament(api: httpx.AsyncClient, players: int, **settings: object) -> dict:
    tid, token = await create(
        api, name="E2E formats", game="highcard", game_options={"hand_size": 2}, **settings
    )
    for i in range(players):
        await register(api, tid, token, f"Bot {i}")
    r = await api.post(f"/v1/tournaments/{tid}/start", headers=bearer(token))
    assert r.status_code == 200, r.text
    return await wait_for(api, tid, finished, within=120)


async def test_round_robin_meets_everyone(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=60) as api:
        doc = await run_tournament(api, 4, format="round_robin", seats_per_table=2)
    met = {frozenset(t["players"]) for rnd in doc["rounds"] for t in rnd["tables"]}
    assert len(met) == 6, "each of the 6 pairs of 4 players met"
    assert all(rnd["complete"] for rnd in doc["rounds"])


async def test_single_elimination_halves_the_field_each_round(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=60) as api:
        doc = await run_tournament(api, 8, format="elimination", seats_per_table=2, qualifiers=1)
    sizes = [sum(len(t["players"]) for t in rnd["tables"]) for rnd in doc["rounds"]]
    assert sizes == [8, 4, 2]
    for earlier, later in zip(doc["rounds"], doc["rounds"][1:], strict=False):
        # A shared first place is settled by the tournament's tie-breaks.
        winners = {
            p
            for t in earlier["tables"]
            for p, place in zip(t["players"], t["places"], strict=True)
            if place == min(t["places"])
        }
        assert {p for t in later["tables"] for p in t["players"]} <= winners


async def test_ziggurat_verify_reports_a_finished_game_fair(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=60) as api:
        table = await botclient.open_table(api, "highcard", 3)
        await botclient.play(api, table, random.Random(3))
    code = await asyncio.to_thread(ziggurat, ["verify", table.table_id, "--api", stack.api])
    assert code == 0
    unfinished = await asyncio.to_thread(ziggurat, ["verify", "no-such-table", "--api", stack.api])
    assert unfinished == 2
