"""`ziggurat rebuild`: projections equal a rebuild from the log; a corrupted one
is reported, and `--write` repairs it, entry for entry, even while games are
being played."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest

from shared.cli import botclient
from shared.cli.main import main as ziggurat
from shared.eventstore.keys import GameKeys, partition_of
from shared.infra.launcher import Stack
from shared.infra.redis_client import connect
from shared.readmodels import rebuilder
from shared.readmodels.build import HISTORY, audience_name
from tests.support.waiting import until

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("stack"), pytest.mark.timeout(300)]
LONG = {"deck_size": 60, "hand_size": 15}  # dozens of events per game: several script calls each


def _args(stack: Stack, *game_ids: str) -> list[str]:
    return ["rebuild", *game_ids, "--redis", stack.redis_url or "", "--partitions", str(stack.partitions)]


async def test_rebuild_reports_and_repairs_a_corrupted_projection(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=60) as api:
        table = await botclient.open_table(api, "highcard", 2)
        await botclient.play(api, table, random.Random(5))
    args = _args(stack, table.table_id)
    assert await asyncio.to_thread(ziggurat, args) == 0
    redis = connect(stack.redis_url or "")
    keys = GameKeys(table.table_id, partition_of(table.table_id, stack.partitions))
    good = await redis.get(keys.view("seat1"))
    await redis.set(keys.view("seat1"), b'{"corrupted":true}')
    assert await asyncio.to_thread(ziggurat, args) == 1
    assert await asyncio.to_thread(ziggurat, [*args, "--write"]) == 0
    assert await redis.get(keys.view("seat1")) == good
    assert await asyncio.to_thread(ziggurat, args) == 0
    await redis.aclose()


async def _read_models(redis: Any, keys: GameKeys, seats: int) -> dict[str, Any]:
    """Every read-model key of a game as stored: views, feeds with their ids, checkpoint."""
    out: dict[str, Any] = {"checkpoint": await redis.get(keys.checkpoint)}
    for name in [*(audience_name(a) for a in [None, *range(seats)]), HISTORY]:
        out[f"view:{name}"] = await redis.get(keys.view(name))
        out[f"feed:{name}"] = await redis.xrange(keys.audience_feed(name))
    return out


async def test_a_repair_writes_every_feed_entry_once_as_the_projector_did(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Missing, extra and wholly lost entries are put back exactly as the live
    projector wrote them: same ids, same bytes, none twice, none missing, across
    the chunk and group boundaries of the write."""
    async with httpx.AsyncClient(base_url=stack.api, timeout=60) as api:
        tables = [await botclient.open_table(api, "highcard", seats, LONG) for seats in (2, 3, 4)]
        await asyncio.gather(*(botclient.play(api, t, random.Random(i)) for i, t in enumerate(tables)))
    seats = {t.table_id: n for t, n in zip(tables, (2, 3, 4), strict=True)}
    ids = list(seats)
    keys = {g: GameKeys(g, partition_of(g, stack.partitions)) for g in ids}
    redis = connect(stack.redis_url or "")
    live = {g: await _read_models(redis, keys[g], seats[g]) for g in ids}
    assert all(len(m["feed:spectator"]) > 20 for m in live.values())
    # Small chunks and groups, so their boundaries fall inside every game.
    monkeypatch.setattr(rebuilder, "CHUNK_VERSIONS", 7)
    monkeypatch.setattr(rebuilder, "GROUP_EVENTS", 30)
    args = _args(stack, *ids)
    assert await asyncio.to_thread(ziggurat, args) == 0

    first, second, third = (keys[g] for g in ids)
    middle = live[ids[0]]["feed:spectator"][10][0]
    await redis.xdel(first.audience_feed("spectator"), middle)  # a missed entry
    last_id, last_fields = live[ids[1]]["feed:seat0"][-1]
    top = int(last_id.split(b"-")[1])
    await redis.xadd(second.audience_feed("seat0"), last_fields, id=f"0-{top + 1}")  # one written twice
    await redis.delete(
        third.checkpoint,
        *(third.view(n) for n in ("spectator", "seat0", "seat1", "seat2", "seat3")),
        *(third.audience_feed(n) for n in ("spectator", "seat0", "seat1", "seat2", "seat3")),
    )  # read models lost, the history kept
    assert await asyncio.to_thread(ziggurat, args) == 1
    assert await asyncio.to_thread(ziggurat, [*args, "--write"]) == 0
    for g in ids:
        assert await _read_models(redis, keys[g], seats[g]) == live[g], g
    assert await asyncio.to_thread(ziggurat, args) == 0
    await redis.aclose()


async def test_rewriting_while_the_game_is_played_loses_no_feed_entry(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The projector keeps writing while rebuild rewrites the same game: an
    entry it writes between rebuild's read and rebuild's write must survive."""
    reads = 0
    read = rebuilder._Rebuilder.read

    async def slow_read(self: rebuilder._Rebuilder, group: Any) -> Any:
        nonlocal reads
        reads += 1
        out = await read(self, group)

        async def projected_meanwhile() -> bool:
            checkpoints = [int(await self.redis.get(keys.checkpoint) or 0) for keys, _ in out]
            return any(now > models.version for now, (_, models) in zip(checkpoints, out, strict=True))

        # The race under test: the projector writes a move between this read and
        # rebuild's write. Not asserted: the game may end first, then nothing moves.
        await until(projected_meanwhile, 2, every_s=0.01)
        return out

    monkeypatch.setattr(rebuilder._Rebuilder, "read", slow_read)
    async with httpx.AsyncClient(base_url=stack.api, timeout=60) as api:
        table = await botclient.open_table(api, "highcard", 3, LONG)
        args = [*_args(stack, table.table_id), "--write"]
        stats = botclient.Stats()
        play = asyncio.create_task(botclient.play(api, table, random.Random(9), stats, pace_s=0.01))
        runs = 0
        # Only during the first moves: a rewrite after the last move would
        # repair what an earlier one lost, and hide it.
        while stats.accepted < 20:
            # 1: the game moved on during every attempt; nothing was lost either way
            assert await asyncio.to_thread(ziggurat, args) in (0, 1)
            runs += 1
        assert not play.done()
        # A projection left behind its checkpoint stalls the game: fail, don't hang.
        final = await asyncio.wait_for(play, 120)
    assert final["over"] and runs >= 1
    assert reads > runs, "no rewrite ever raced the projector: the test proves nothing"
    monkeypatch.setattr(rebuilder._Rebuilder, "read", read)
    assert await asyncio.to_thread(ziggurat, _args(stack, table.table_id)) == 0
