"""Table ``g`` of partition 0 (or another: ``keys``): a Tigris game the reducer
plays into the store, move by move, and the read models the projector writes for
it (read back, or forgotten as a failover would lose them)."""

from __future__ import annotations

import random
from typing import Any

import msgspec

from services.reducer.handlers import Reducer
from shared.eventstore.keys import GameKeys
from shared.eventstore.store import EventStore
from shared.eventstore.tables import TableCache
from shared.games import registry
from shared.readmodels.build import HISTORY
from tests.support.messages import move_msg, open_msg

KEYS = GameKeys("g", 0)
TOKENS = ("seat-0", "seat-1")
NAMES = ("spectator", "seat0", "seat1", HISTORY)


async def play(store: EventStore, moves: int, first: int = 0, keys: GameKeys = KEYS) -> None:
    """Open the table (once: a repeat is a duplicate) and play ``moves`` more, numbered from ``first``."""
    reducer = Reducer(store, TableCache(store))
    at = {"game_id": keys.game_id, "partition": keys.partition}
    opening = open_msg("tigris", TOKENS, keys.game_id)
    await reducer.process([msgspec.structs.replace(opening, partition=keys.partition)])
    game, rng = registry.get("tigris"), random.Random(4 + first)
    for i in range(moves):
        table = (await TableCache(store).refresh([keys]))[keys.game_id]
        assert table is not None and not table.over
        seat = min(game.actors(table.state))
        command = rng.choice(game.legal(table.state, seat))
        (outcome,) = await reducer.process([move_msg(TOKENS[seat], command, f"m{first + i}", **at)])
        assert outcome.status == "accepted"


async def read_models(redis: Any, keys: GameKeys = KEYS) -> dict[str, Any]:
    return {
        **{f"view:{n}": await redis.get(keys.view(n)) for n in NAMES[:3]},
        # The history holds one entry per projected batch: it follows the batches by design.
        **{f"feed:{n}": [f for _, f in await redis.xrange(keys.audience_feed(n))] for n in NAMES[:3]},
    }


async def forget_read_models(redis: Any, keys: GameKeys = KEYS) -> None:
    await redis.delete(
        keys.checkpoint, *(keys.view(n) for n in NAMES), *(keys.audience_feed(n) for n in NAMES)
    )
