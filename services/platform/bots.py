"""Plays the bot entrants' seats through the public HTTP API.

A bot entrant is a client like any other: for each live tournament table
with bot seats (the set the process manager keeps), it reads the seat's view
with the seat's token and submits one of the legal commands the view lists,
chosen at random (seeded by the game id, so a rerun plays alike). Human
seats at the same table are left alone; the bot waits for its turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import uuid
from typing import Any

import httpx
import structlog

from shared.kernel.legal_groups import expand
from shared.observability import metrics
from shared.tournaments.keys import BOT_TABLES, bot_seats

log = structlog.get_logger()
IDLE_S = 0.1
MAX_MOVES = 20_000


class BotRunner:
    def __init__(self, redis: Any, api_url: str, pace_s: float = 0.0) -> None:
        self.redis = redis
        self.api_url = api_url.rstrip("/")
        self.pace_s = pace_s
        self._tasks: dict[str, asyncio.Task[None]] = {}

    async def run(self, stopping: asyncio.Event) -> None:
        limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
        async with httpx.AsyncClient(base_url=self.api_url, timeout=30, limits=limits) as client:
            while not stopping.is_set():
                try:
                    for raw in await self.redis.smembers(BOT_TABLES):
                        game_id = raw.decode()
                        if game_id not in self._tasks:
                            self._tasks[game_id] = asyncio.create_task(self._play(client, game_id))
                    for game_id, task in list(self._tasks.items()):
                        if task.done():
                            del self._tasks[game_id]
                except Exception:
                    metrics.ERRORS.labels("tournaments", "bots").inc()
                    log.exception("bot_runner_failed")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stopping.wait(), timeout=0.2)
            for task in self._tasks.values():
                task.cancel()
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def _play(self, client: httpx.AsyncClient, game_id: str) -> None:
        try:
            await self._moves(client, game_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            # Left in the set: the runner starts a fresh player for it shortly.
            metrics.ERRORS.labels("tournaments", "bot").inc()
            log.exception("bot_failed", game_id=game_id)
            await asyncio.sleep(1)

    async def _moves(self, client: httpx.AsyncClient, game_id: str) -> None:
        raw = await self.redis.hgetall(bot_seats(game_id))
        tokens = {int(seat): token.decode() for seat, token in raw.items()}
        if not tokens:
            return
        rng = random.Random(game_id)
        # Reads go with a seat's token, so they are charged to that seat's own
        # budget, and wait for the next version instead of polling. A move's
        # accepted reply holds its seat's new view, so a bot that acts again
        # reads nothing in between.
        watcher = {"authorization": f"Bearer {tokens[min(tokens)]}"}
        version = 0
        doc: dict[str, Any] | None = None
        for _ in range(MAX_MOVES):
            if doc is None:
                doc = await self._read(client, game_id, watcher, version + 1 if version else 0)
                if doc is None:
                    continue
            if doc["over"]:
                await self.redis.srem(BOT_TABLES, game_id)
                return
            mine = [s for s in doc["actors"] if s in tokens]
            if not mine:  # a human's turn: wait for the table to move on
                version, doc = doc["version"], None
                continue
            seat = rng.choice(mine)
            headers = {"authorization": f"Bearer {tokens[seat]}"}
            seen = doc if doc.get("seat") == seat else await self._read(client, game_id, headers, 0)
            if seen is None or not seen.get("legal") or seen.get("version") != doc["version"]:
                version, doc = 0, None  # the projection is catching up: read again
                await asyncio.sleep(0.01)
                continue
            command = rng.choice(expand(seen["legal"]))
            version, doc = await self._submit(client, game_id, headers, command, seen["version"])
            # Without a view that shows it, wait for the version this move made (or any newer one).
            version = max(0, version - 1)
            if self.pace_s:
                await asyncio.sleep(self.pace_s)
        log.error("bot_gave_up", game_id=game_id)

    async def _read(
        self, client: httpx.AsyncClient, game_id: str, headers: dict[str, str], min_version: int
    ) -> dict[str, Any] | None:
        """The seat's view (once it shows ``min_version``), or None to try again."""
        params = {"min_version": min_version} if min_version else None
        r = await client.get(f"/v1/tables/{game_id}/view", headers=headers, params=params)
        if r.status_code == 429:
            await asyncio.sleep(float(r.headers.get("retry-after", "1")))
            return None
        if r.status_code in (404, 503):  # the table is being opened or projected
            await asyncio.sleep(IDLE_S)
            return None
        r.raise_for_status()
        doc: dict[str, Any] = r.json()
        return doc

    async def _submit(
        self, client: httpx.AsyncClient, game_id: str, headers: dict[str, str], command: Any, version: int
    ) -> tuple[int, dict[str, Any] | None]:
        """Submit once (retrying the same key while the outcome is unknown): the new
        version (or 0) and the seat's view once it shows that version (or None)."""
        key = uuid.uuid4().hex
        for _ in range(5):
            r = await client.post(
                f"/v1/tables/{game_id}/commands",
                json={"command": command, "expected_version": version, "view": True},
                headers={**headers, "idempotency-key": key},
            )
            if r.status_code == 429:
                await asyncio.sleep(float(r.headers.get("retry-after", "1")))
                continue
            if r.status_code not in (503, 504):  # busy or outcome unknown: same key again
                if r.status_code != 200:
                    return 0, None
                body = r.json()
                new = body.get("view")
                shows = new is not None and (new["version"] >= body["version"] or new["over"])
                return int(body["version"]), new if shows else None
            await asyncio.sleep(0.05)
        return 0, None
