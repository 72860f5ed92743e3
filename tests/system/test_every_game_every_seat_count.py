"""Complete games of every hosted game at every seat count its issue names, in
full (no shortened races), through every service, all at once."""

from __future__ import annotations

import asyncio
import random

import httpx
import pytest

from shared.cli import botclient
from shared.games import registry
from shared.infra.launcher import Stack
from shared.infra.redis_client import connect
from tests.support.checks import check_finished_table

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("stack"), pytest.mark.timeout(1800)]

#: Looks at a table before its game counts as never ending. Uniformly random
#: play is long at Cities & Knights: at four seats, twelve seeds played in the
#: engine alone took 6,404 to 41,215 commands (mean 30,000), and a CI run went
#: past the 50,000 this was; each look may also be a wait for a projection.
MAX_MOVES = 150_000

SEAT_COUNTS = {
    "tigris": (2, 3, 4),
    "tigris-cards": (2, 3, 4),
    "catan": (3, 4),
    "catan-ck": (3, 4),
    "conan": (2, 3, 4),
}


async def test_complete_games_at_every_seat_count(stack: Stack) -> None:
    hosted = set(registry.available())
    wanted = [(game, seats) for game, counts in SEAT_COUNTS.items() if game in hosted for seats in counts]
    assert len(wanted) == sum(len(c) for c in SEAT_COUNTS.values()), "every game must be hosted"
    redis = connect(stack.redis_url or "")
    async with httpx.AsyncClient(base_url=stack.api, timeout=60) as api:
        tables = [await botclient.open_table(api, game, seats) for game, seats in wanted]
        finals = await asyncio.gather(
            *(botclient.play(api, t, random.Random(i), max_moves=MAX_MOVES) for i, t in enumerate(tables))
        )
        for (game, seats), table, final in zip(wanted, tables, finals, strict=True):
            assert final["over"] and len(final["result"]["standings"]) == seats, (game, seats)
            await check_finished_table(api, redis, table.table_id, stack.partitions)
    await redis.aclose()
