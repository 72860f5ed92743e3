"""Bots that play through the public HTTP API, exactly as a person's client would.

Each bot sees only its seat's view (with the legal commands the projector
lists for it) and picks one at random, so a demo or a load test exercises
every service and never touches server-side state.
"""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx

from shared.kernel.legal_groups import expand

RETRIES = 60
RETRY_PAUSE_S = 0.25


@dataclass
class Table:
    table_id: str
    game: str
    tokens: list[str]


@dataclass
class Stats:
    accepted: int = 0
    rejected: dict[str, int] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)  # seconds, accepted commands
    #: (idempotency key, final status, version when accepted) of every command sent
    sent: list[tuple[str, int, int | None]] = field(default_factory=list)
    #: Looks at a table whose views were not yet at one version (a projection catching up).
    waits: int = 0
    #: The body of the last refusal (its code, message and details).
    refusal: dict[str, Any] | None = None


async def open_table(
    client: httpx.AsyncClient, game: str, seats: int, options: dict[str, Any] | None = None
) -> Table:
    body = {"game": game, "seats": seats, "options": options or {}}
    for attempt in range(RETRIES):
        try:
            r = await client.post("/v1/tables", json=body)
            if r.status_code < 500:
                break
        except httpx.TransportError:
            if attempt == RETRIES - 1:
                raise
        await asyncio.sleep(RETRY_PAUSE_S)
    r.raise_for_status()
    opened = r.json()
    return Table(opened["table_id"], game, [t["token"] for t in opened["tokens"]])


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


async def view(client: httpx.AsyncClient, table: Table, seat: int | None) -> dict[str, Any]:
    headers = auth(table.tokens[seat]) if seat is not None else {}
    for attempt in range(RETRIES):
        try:
            r = await client.get(f"/v1/tables/{table.table_id}/view", headers=headers)
            if r.status_code < 500:
                r.raise_for_status()
                return r.json()
        except httpx.TransportError:
            if attempt == RETRIES - 1:
                raise
        await asyncio.sleep(RETRY_PAUSE_S)
    r.raise_for_status()
    return r.json()


async def play(
    client: httpx.AsyncClient,
    table: Table,
    rng: random.Random,
    stats: Stats | None = None,
    max_moves: int = 20_000,
    pace_s: float = 0.0,
) -> dict[str, Any]:
    """Play random legal moves for every seat until the game is over.

    A move asks for its seat's new view in the accepted reply, so a seat that
    acts again reads nothing more; another seat's turn costs one read."""
    stats = stats or Stats()
    doc = await view(client, table, None)
    for _ in range(max_moves):
        if doc["over"]:
            return doc
        seat = rng.choice(doc["actors"])
        mine = doc if doc["seat"] == seat else await view(client, table, seat)
        if not mine["legal"] or mine["version"] != doc["version"]:
            stats.waits += 1
            await asyncio.sleep(0.01)  # the projection is catching up
            doc = await view(client, table, None)
            continue
        r = await submit(client, table, seat, rng.choice(expand(mine["legal"])), mine["version"], stats)
        doc = _new_view(r) or await view(client, table, None)
        if pace_s:
            await asyncio.sleep(pace_s)
    raise RuntimeError(f"{table.table_id}: not over after {max_moves} moves")


def _new_view(r: httpx.Response) -> dict[str, Any] | None:
    """The seat's view an accepted reply holds, if it shows the move (the gateway's
    wait for the projection can run out, e.g. while a projector restarts)."""
    if r.status_code != 200:
        return None
    body = r.json()
    new: dict[str, Any] | None = body.get("view")
    return new if new is not None and (new["version"] >= body["version"] or new["over"]) else None


async def submit(
    client: httpx.AsyncClient, table: Table, seat: int, command: Any, version: int | None, stats: Stats
) -> httpx.Response:
    started = time.perf_counter()
    key = uuid.uuid4().hex
    r: httpx.Response | None = None
    for attempt in range(RETRIES):
        # A lost connection, a busy game or an unknown outcome: ask again with the
        # same idempotency key, which returns the first outcome if it was applied.
        try:
            r = await client.post(
                f"/v1/tables/{table.table_id}/commands",
                json={"command": command, "expected_version": version, "view": True},
                headers={**auth(table.tokens[seat]), "idempotency-key": key},
            )
            if r.status_code not in (502, 503, 504):
                break
        except httpx.TransportError:
            if attempt == RETRIES - 1:
                raise
        await asyncio.sleep(RETRY_PAUSE_S)
    assert r is not None
    stats.sent.append((key, r.status_code, r.json().get("version") if r.status_code == 200 else None))
    if r.status_code == 200:
        stats.accepted += 1
        stats.latencies.append(time.perf_counter() - started)
    else:
        stats.refusal = r.json()
        code = stats.refusal.get("code", str(r.status_code))
        stats.rejected[code] = stats.rejected.get(code, 0) + 1
    return r
