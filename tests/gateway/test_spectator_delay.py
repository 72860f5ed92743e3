"""A delayed table never shows spectators a move earlier than allowed; a
finished game can be replayed step by step."""

from __future__ import annotations

import asyncio
import random
import time
from functools import partial
from typing import Any

import httpx
import pytest

from shared.cli import botclient
from shared.cli.feed import follow
from shared.infra.launcher import Stack
from shared.kernel.legal_groups import expand
from tests.support.waiting import eventually, until

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("stack"), pytest.mark.timeout(300)]


async def open_delayed(api: httpx.AsyncClient, delay: dict[str, float]) -> botclient.Table:
    r = await api.post(
        "/v1/tables",
        json={"game": "highcard", "seats": 2, "options": {"hand_size": 5}, "spectator_delay": delay},
    )
    assert r.status_code == 201, r.text
    body = r.json()
    return botclient.Table(body["table_id"], "highcard", [t["token"] for t in body["tokens"]])


async def one_move(api: httpx.AsyncClient, table: botclient.Table) -> int:
    for seat in (0, 1):
        mine = await botclient.view(api, table, seat)
        if mine["legal"]:
            r = await api.post(
                f"/v1/tables/{table.table_id}/commands",
                json={"command": expand(mine["legal"])[0]},
                headers=botclient.auth(table.tokens[seat]),
            )
            assert r.status_code == 200
            return int(r.json()["version"])
    raise AssertionError("nobody could move")


async def test_spectators_trail_by_moves_and_never_see_ahead(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        table = await open_delayed(api, {"moves": 2})
        seen: list[int] = []
        watcher = asyncio.create_task(_versions(api, table.table_id, seen))
        opening = (await botclient.view(api, table, None))["moves"]
        for _ in range(10):
            live_version = await one_move(api, table)
            # A delay wrongly applied to players holds them back by whole moves: never caught up.
            seat_view = await eventually(partial(seat_view_at, api, table, live_version), 10, every_s=0.02)
            assert seat_view is not None, "players are not delayed"
            spectator = await botclient.view(api, table, None)
            if seat_view["over"]:
                break  # a finished game is public: nothing is left to learn
            assert spectator["moves"] <= max(opening, seat_view["moves"] - 2)
            assert all(v <= spectator["version"] for v in seen), "the feed ran ahead of the delayed view"
        final = await botclient.view(api, table, None)
        assert final["over"], "once over, the whole game is public"
        await asyncio.wait_for(watcher, timeout=30)
        assert seen[-1] == final["version"]


async def seat_view_at(api: httpx.AsyncClient, table: botclient.Table, version: int) -> dict[str, Any] | None:
    """Seat 0's view once it shows ``version``, else None."""
    doc = await botclient.view(api, table, 0)
    return doc if doc["version"] == version else None


async def _versions(api: httpx.AsyncClient, table_id: str, seen: list[int]) -> None:
    async for entry in follow(api, table_id):
        seen.append(entry["version"])


async def test_a_seconds_delay_holds_a_move_back_until_it_is_old_enough(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        table = await open_delayed(api, {"seconds": 1.0})
        before = (await botclient.view(api, table, None))["version"]
        moved_at = time.monotonic()
        await one_move(api, table)
        assert (await botclient.view(api, table, None))["version"] == before

        async def shown() -> bool:
            return (await botclient.view(api, table, None))["version"] > before

        assert await until(shown, 10, every_s=0.05), "the move was never shown"
        assert time.monotonic() - moved_at >= 1.0, "shown before it was a second old"


async def test_a_finished_game_replays_step_by_step(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        table = await botclient.open_table(api, "highcard", 2, {"hand_size": 2})
        r = await api.get(f"/v1/tables/{table.table_id}/replay", params={"version": 1})
        assert r.json()["code"] == "game_not_over"
        final = await botclient.play(api, table, random.Random(1))
        steps, version = [], 0
        while version < final["version"]:
            doc = (
                await api.get(f"/v1/tables/{table.table_id}/replay", params={"version": version + 1})
            ).json()
            version = max(version + 1, doc["version"])
            steps.append(doc)
        assert steps[-1]["over"] and steps[-1]["version"] == final["version"]
        assert [s["moves"] for s in steps] == sorted(s["moves"] for s in steps)
        assert all(s["view"]["hand"] is None for s in steps), "a replay is the public view"
