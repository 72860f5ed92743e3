"""Rebuild on empty: a read-model server without AOF comes back empty after a
restart (or is flushed); the projector rebuilds every game's read models from
the store before it acknowledges anything more.

One projector rebuilds at a time (a lock with an expiry, renewed while it
works); the others wait for the markers. The store is only read.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import structlog

from shared.eventstore import game_index
from shared.readmodels.rebuild import models_with_history
from shared.readmodels.rebuilder import rebuild_games
from shared.readmodels.server import REBUILD_LOCK, mark_ready, missing

log = structlog.get_logger()
#: The lock's life; renewed at a third of it while the rebuild runs.
LOCK_MS = 30_000
#: How often a projector looks for the markers between writes (a flushed
#: server with no game being played is otherwise noticed only by the next write).
CHECK_EVERY_S = 2.0


class Restorer:
    def __init__(self, store: Any, read: Any, partitions: int, node: str) -> None:
        self.store = store
        self.read = read
        self.partitions = partitions
        self.node = node
        self._lock = asyncio.Lock()  # one rebuild per process, whoever asks

    async def ensure(self) -> bool:
        """Return once the read-model server holds every game's models; True if
        this projector rebuilt them."""
        async with self._lock:
            rebuilt = False
            while await missing(self.read, self.partitions):
                if await self.read.set(REBUILD_LOCK, self.node, nx=True, px=LOCK_MS):
                    await self._rebuild()
                    rebuilt = True
                else:
                    await asyncio.sleep(0.1)  # another projector rebuilds
            return rebuilt

    async def watch(self, stopping: asyncio.Event) -> None:
        while not stopping.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stopping.wait(), CHECK_EVERY_S)
            if not stopping.is_set():
                try:
                    await self.ensure()
                except Exception:  # an outage: the reader's loop reports it too
                    log.warning("read_models_check_failed", exc_info=True)

    async def _rebuild(self) -> None:
        renew = asyncio.create_task(self._renew())
        try:
            games = await game_index.every_game(self.store, self.partitions)
            log.warning("read_models_rebuilding", games=len(games))
            stuck = await rebuild_games(self.store, games, True, models=models_with_history, read=self.read)
            if stuck:  # a write came between (none should: writes wait for the markers)
                log.warning("read_models_rebuild_retry", games=len(stuck))
                return
            await mark_ready(self.read, self.partitions)
            log.warning("read_models_rebuilt", games=len(games))
        finally:
            renew.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renew
            if await self.read.get(REBUILD_LOCK) == self.node.encode():
                await self.read.delete(REBUILD_LOCK)

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(LOCK_MS / 3000)
            await self.read.pexpire(REBUILD_LOCK, LOCK_MS)
