"""Follow a table's live feed (server-sent events) and render it for a terminal."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx


async def follow(
    client: httpx.AsyncClient, table_id: str, token: str | None = None
) -> AsyncIterator[dict[str, Any]]:
    """Yield each feed entry ``{version, server_time, event}`` until the game ends."""
    headers = {"authorization": f"Bearer {token}"} if token else {}
    async with client.stream("GET", f"/v1/tables/{table_id}/feed", headers=headers, timeout=None) as response:
        kind = ""
        async for line in response.aiter_lines():
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: "):
                if kind == "end":
                    return
                yield json.loads(line[6:])


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
