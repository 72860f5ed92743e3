"""``GET /view?min_version=N`` answers once the projection shows version N."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from shared.cli import botclient
from shared.infra.launcher import Stack
from shared.kernel.legal_groups import expand

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("stack"), pytest.mark.timeout(120)]


async def test_a_waiting_read_is_answered_by_the_move_that_reaches_its_version(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        r = await api.post("/v1/tables", json={"game": "highcard", "seats": 2})
        assert r.status_code == 201, r.text
        body = r.json()
        table = botclient.Table(body["table_id"], "highcard", [t["token"] for t in body["tokens"]])
        views = [await botclient.view(api, table, seat) for seat in (0, 1)]
        seat = next(s for s, v in enumerate(views) if v["legal"])
        before = views[seat]["version"]

        # Asked before the move exists: the gateway must hold the request...
        waiting = asyncio.create_task(
            api.get(
                f"/v1/tables/{table.table_id}/view",
                params={"min_version": before + 1},
                headers=botclient.auth(table.tokens[seat]),
            )
        )
        # A fixed wait, as nothing happens to wait for: the test is that the
        # read is still held after it.
        await asyncio.sleep(0.3)
        assert not waiting.done(), "the read did not wait for the version it asked for"

        # ...and answer it with the view the move produced.
        r = await api.post(
            f"/v1/tables/{table.table_id}/commands",
            json={"command": expand(views[seat]["legal"])[0], "expected_version": before},
            headers=botclient.auth(table.tokens[seat]),
        )
        assert r.status_code == 200, r.text
        answered = await asyncio.wait_for(waiting, timeout=5)
        assert answered.status_code == 200
        assert answered.json()["version"] >= r.json()["version"] > before


async def test_a_version_already_visible_is_answered_at_once(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        r = await api.post("/v1/tables", json={"game": "highcard", "seats": 2})
        table_id = r.json()["table_id"]
        token = r.json()["tokens"][0]["token"]
        view = await api.get(f"/v1/tables/{table_id}/view", headers=botclient.auth(token))
        version = view.json()["version"]
        again = await asyncio.wait_for(
            api.get(
                f"/v1/tables/{table_id}/view",
                params={"min_version": version},
                headers=botclient.auth(token),
            ),
            timeout=2,
        )
        assert again.json()["version"] == version


async def test_a_bad_min_version_is_a_clear_error(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        r = await api.post("/v1/tables", json={"game": "highcard", "seats": 2})
        table_id = r.json()["table_id"]
        bad = await api.get(f"/v1/tables/{table_id}/view", params={"min_version": "soon"})
        assert bad.status_code == 400 and bad.json()["code"] == "bad_request"
