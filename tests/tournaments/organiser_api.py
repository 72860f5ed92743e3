"""A tournament through the running system's API, as its organiser runs one:
create it, register its players, and wait until its public pairings show what
a test waits for (``finished``, or any other condition on the document).

The organiser's and the players' tokens go in ``tests.support.accounts.bearer``
headers; the pure driver of the domain tests is ``helpers.py``."""

from __future__ import annotations

from typing import Any

import httpx

from tests.support.accounts import bearer
from tests.support.waiting import eventually


async def create(api: httpx.AsyncClient, **settings: Any) -> tuple[str, str]:
    r = await api.post("/v1/tournaments", json=settings)
    assert r.status_code == 201, r.text
    body = r.json()
    return body["tournament_id"], body["organiser_token"]


async def register(
    api: httpx.AsyncClient, tid: str, token: str, name: str, kind: str = "bot"
) -> dict[str, Any]:
    r = await api.post(
        f"/v1/tournaments/{tid}/players", json={"name": name, "kind": kind}, headers=bearer(token)
    )
    assert r.status_code == 201, r.text
    return r.json()


async def wait_for(api: httpx.AsyncClient, tid: str, done: Any, within: float = 90.0) -> dict[str, Any]:
    seen: list[dict[str, Any]] = []

    async def there() -> dict[str, Any] | None:
        seen.append((await api.get(f"/v1/tournaments/{tid}/pairings")).json())
        return seen[-1] if done(seen[-1]) else None

    doc = await eventually(there, within, every_s=0.1)
    assert doc is not None, f"{tid}: not there in {within}s: {seen[-1]}"
    return doc


def finished(doc: dict[str, Any]) -> bool:
    return bool(doc["status"] == "finished")
