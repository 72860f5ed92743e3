"""Clocks kept by the platform: nobody moves, and the reducer's clock watch
plays (bot policy) or forfeits (forfeit policy) every seat in turn."""

from __future__ import annotations

import re

import httpx
import pytest

from shared.cli import botclient
from shared.infra.launcher import Stack
from shared.infra.redis_client import connect
from shared.kernel.legal_groups import expand
from tests.support.checks import check_finished_table
from tests.support.clocked_tables import open_clocked, until_over

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("stack"), pytest.mark.timeout(300)]


def timeouts(text: str, policy: str) -> float:
    found = re.search(rf'^ziggurat_clock_timeouts_total{{policy="{policy}"}} (\S+)$', text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


@pytest.mark.parametrize("policy", ["bot", "forfeit"])
async def test_nobody_moves_and_the_clocks_finish_the_game(stack: Stack, policy: str) -> None:
    redis = connect(stack.redis_url or "")
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        table = await open_clocked(api, policy)
        final = await until_over(api, table)
        feed = [e["event"] for e in (await api.get(f"/v1/tables/{table.table_id}/log")).json()["events"]]
        timed_out = [e for e in feed if e["type"] == "table.timed_out"]
        assert timed_out and {e["policy"] for e in timed_out} == {policy}
        if policy == "forfeit":
            assert sorted(final["forfeited"]) == [0, 1]
            assert [e["type"] for e in feed].count("table.forfeited") == 2
        else:
            assert len(timed_out) == 4, "two cards each, every one played by the bot"
        reducer_metrics = (await api.get(stack.metrics_urls()["reducer-0"])).text
        assert timeouts(reducer_metrics, policy) >= len(timed_out)
        await check_finished_table(api, redis, table.table_id, stack.partitions)
    await redis.aclose()


async def test_a_seat_that_moves_in_time_keeps_its_turn(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        r = await api.post(
            "/v1/tables",
            json={"game": "highcard", "seats": 2, "clock": {"initial_ms": 60_000, "increment_ms": 1_000}},
        )
        body = r.json()
        table = botclient.Table(body["table_id"], "highcard", [t["token"] for t in body["tokens"]])
        mine = await botclient.view(api, table, 0)
        assert mine["remaining"] == [60_000, 60_000] and mine["clock"]["policy"] == "bot"
        r = await api.post(
            f"/v1/tables/{table.table_id}/commands",
            json={"command": expand(mine["legal"])[0]},
            headers=botclient.auth(table.tokens[0]),
        )
        assert r.status_code == 200
        # Read seat 1's view as of that move (the projection may still be catching up).
        after = (
            await api.get(
                f"/v1/tables/{table.table_id}/view",
                params={"min_version": r.json()["version"]},
                headers=botclient.auth(table.tokens[1]),
            )
        ).json()
        assert after["remaining"][0] > 59_000 and after["remaining"][1] == 60_000
        assert after["actors"] == [1]
        bad = await api.post("/v1/tables", json={"game": "highcard", "seats": 2, "clock": {"initial_ms": -1}})
        assert (bad.status_code, bad.json()["code"]) == (400, "bad_clock")
