"""A table nobody plays but its clocks: high card of two seats whose every move
times out after 150 ms and is played (``bot``) or forfeited (``forfeit``) by
the reducer's clock watch; and the wait for the end that brings."""

from __future__ import annotations

from typing import Any

import httpx

from shared.cli import botclient
from tests.support.waiting import eventually


async def open_clocked(api: httpx.AsyncClient, policy: str) -> botclient.Table:
    r = await api.post(
        "/v1/tables",
        json={
            "game": "highcard",
            "seats": 2,
            "options": {"hand_size": 2},
            "clock": {"per_move_ms": 150, "policy": policy},
        },
    )
    assert r.status_code == 201, r.text
    body = r.json()
    return botclient.Table(body["table_id"], "highcard", [t["token"] for t in body["tokens"]])


async def until_over(api: httpx.AsyncClient, table: botclient.Table) -> dict[str, Any]:
    async def final() -> dict[str, Any] | None:
        doc = await botclient.view(api, table, None)
        return doc if doc["over"] else None

    doc = await eventually(final, 20, every_s=0.05)
    assert doc is not None, "the clocks did not finish the game"
    return doc
