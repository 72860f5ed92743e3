"""Follow a table's live feed (server-sent events) and render it for a terminal."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx


async def follow(
    client: httpx.AsyncClient, table_id: str, token: str | None = None
) -> AsyncIterator[dict[str, Any]]:
    """Yield each feed entry ``{version, server_time, event}`` until the game ends."""
    headers = {"authorization": f"Bearer {token}"} if token else {}
    async for entry in follow_path(client, f"/v1/tables/{table_id}/feed", headers):
        yield entry


async def follow_path(
    client: httpx.AsyncClient, path: str, headers: dict[str, str] | None = None
) -> AsyncIterator[dict[str, Any]]:
    """Each ``data`` of a server-sent event stream until its ``end`` event.

    A gateway cuts off a subscriber that falls behind (``event: reconnect``),
    and a connection can drop: either way this reconnects with
    ``Last-Event-ID``, which resumes exactly where it was.
    """
    last = ""
    while True:
        sent = {**(headers or {}), **({"last-event-id": last} if last else {})}
        try:
            async with client.stream("GET", path, timeout=None, headers=sent) as response:
                if response.status_code == 429:
                    await asyncio.sleep(float(response.headers.get("retry-after", "1")))
                    continue
                response.raise_for_status()
                kind = ""
                async for line in response.aiter_lines():
                    if line.startswith("id: "):
                        last = line[4:]
                    elif line.startswith("event: "):
                        kind = line[7:]
                    elif line.startswith("data: "):
                        if kind == "end":
                            return
                        if kind != "reconnect":
                            yield json.loads(line[6:])
        except httpx.TransportError:
            await asyncio.sleep(0.5)


def describe(entry: dict[str, Any], width: int = 100) -> str:
    """One line per event: version, type, and its fields in brief."""
    event = dict(entry["event"])
    kind = event.pop("type", "?")
    fields = " ".join(f"{k}={_brief(v)}" for k, v in event.items())
    line = f"v{entry['version']:<5} {kind:<28} {fields}"
    return line if len(line) <= width else line[: width - 1] + "…"


def _brief(value: Any) -> str:
    text = json.dumps(value, separators=(",", ":"))
    return text if len(text) <= 40 else text[:39] + "…"
