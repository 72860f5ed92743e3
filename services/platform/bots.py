"""Plays the bot seats (tournament bot entrants, casual and lobby tables) through the public HTTP API.

A bot seat is a client like any other: for each live table with bot seats
(the set the process manager, the casual tables and the lobby keep, with
each seat's token and level: shared/tournaments/store.py), it reads the
seat's view with the seat's token and submits the command its level's bot
chose. Human seats at the same table are left alone; the bot waits for its turn.

The bot itself runs here, never in the gateway, the validator or the reducer:
a ``hard`` move is a search of about 200 ms of CPU. The table is folded from
the store (a cache that reads only the tail), and the bot is handed only its
seat's view in the form the engine plays on (:func:`shared.kernel.levels.choose`:
a determinisation), never that state. The moves are chosen one at a time in a
worker thread, so the process's event loop (tournaments, players, arenas) is
not held, and a search's CPU budget is that thread's own CPU time. Everything a bot draws comes
from a generator seeded by the table, the seat and the version, so a rerun
plays alike.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import random
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import msgspec
import structlog

from shared.eventstore.keys import GameKeys, partition_of
from shared.eventstore.store import EventStore
from shared.eventstore.tables import TableCache
from shared.games import registry
from shared.kernel import levels
from shared.kernel.legal_groups import expand
from shared.kernel.rng import Rng
from shared.observability import metrics
from shared.tournaments import store as bot_store
from shared.tournaments.keys import BOT_TABLES

log = structlog.get_logger()
IDLE_S = 0.1
MAX_MOVES = 20_000


#: Tables whose state the runner keeps warm (it reads only their tails).
CACHED_TABLES = 2_000


class BotRunner:
    def __init__(
        self, redis: Any, api_url: str, store: EventStore, partitions: int, pace_s: float = 0.0
    ) -> None:
        self.redis = redis
        self.api_url = api_url.rstrip("/")
        self.pace_s = pace_s
        self.partitions = partitions
        self.tables = TableCache(store, capacity=CACHED_TABLES)
        # One move chosen at a time, on a thread whose CPU clock measures the search's budget.
        self._thinking = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bot")
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
            self._thinking.shutdown(wait=True, cancel_futures=True)

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
        seats = await bot_store.bots_of(self.redis, game_id)
        if not seats:
            return
        tokens = {seat: token for seat, (token, _) in seats.items()}
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
            try:
                command = await self.choose(game_id, seat, seats[seat][1], seen["version"])
            except asyncio.CancelledError:
                raise
            except Exception:
                # A level's bot that fails (a sampler's bug) must not stall the
                # table: this move is any legal one the seat's view lists.
                metrics.ERRORS.labels("tournaments", "bot").inc()
                log.exception("bot_level_failed", game_id=game_id, seat=seat, level=seats[seat][1])
                command = rng.choice(expand(seen["legal"]))
            if command is None:  # the store is ahead of the view read: read the newer one
                version, doc = 0, None
                await asyncio.sleep(0.01)
                continue
            version, doc = await self._submit(client, game_id, headers, command, seen["version"])
            # Without a view that shows it, wait for the version this move made (or any newer one).
            version = max(0, version - 1)
            if self.pace_s:
                await asyncio.sleep(self.pace_s)
        log.error("bot_gave_up", game_id=game_id)

    async def choose(self, game_id: str, seat: int, level: levels.Level, version: int) -> Any | None:
        """``seat``'s move at ``level`` on the table at ``version`` (as JSON), or None
        if the store holds another version than the view that asked."""
        keys = GameKeys(game_id, partition_of(game_id, self.partitions))
        table = (await self.tables.refresh([keys]))[game_id]
        if table is None or table.version != version:
            return None
        game = registry.get(table.game)
        seed = hashlib.blake2b(f"bot:{game_id}".encode(), digest_size=32).digest()
        rng = Rng(seed, version * 64 + seat)
        loop = asyncio.get_running_loop()
        command = await loop.run_in_executor(self._thinking, _timed, game, table.state, seat, level, rng)
        return msgspec.to_builtins(command)

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


def _timed(game: levels.Game, state: Any, seat: int, level: levels.Level, rng: Rng) -> Any:
    """:func:`levels.choose`, its CPU time counted (this thread's alone)."""
    started = time.thread_time()
    try:
        # The search's budget is this thread's CPU, not the event loop's beside it.
        return levels.choose(game, state, seat, level, rng, clock=time.thread_time)
    finally:
        metrics.BOT_MOVE_CPU.labels(level).observe(time.thread_time() - started)
