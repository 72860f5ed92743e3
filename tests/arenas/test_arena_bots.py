"""An arena with bot entrants (issue 25) through the running services: a person (an
external bot process on the bot API) joins an arena opened with one of our bots at
``hard`` and one at ``easy``; every table seats the person with a bot, whose seat the
platform's bot runner plays at the bot's level; the leaderboard shows the bots with
their levels; the ladder rates no table (one person a table: nobody to rate against).
And the refusals: a level that is none, or too many bots, opens no arena."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from services.gateway.errors import STATUS
from shared.arenas.commands import MAX_BOTS
from shared.arenas.keys import ARENAS_INDEX
from shared.eventstore.store import EventStore
from shared.infra.launcher import Stack
from shared.infra.redis_client import connect
from shared.ladders.events import Rated
from shared.ladders.keys import ladder_keys
from shared.tournaments.keys import bot_levels
from tests.support.accounts import bearer, cli_bot, register
from tests.support.waiting import until

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("stack"), pytest.mark.timeout(300)]

WINDOW_S = 10
_rated = msgspec.msgpack.Decoder(Rated).decode


async def test_an_arenas_bot_entrants_play_its_people_at_their_levels(stack: Stack, tmp_path: Path) -> None:
    redis = connect(stack.redis_url or "")
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        person, key = await register(api, "Arena person")
        body = {"game": "highcard", "seats": 2, "seconds": WINDOW_S, "bots": ["hard", "easy"]}
        r = await api.post("/v1/arenas", json=body)
        assert r.status_code == 201, r.text
        arena_id = r.json()["arena_id"]
        doc = (await api.get(f"/v1/arenas/{arena_id}")).json()
        assert {line["player_id"]: line["level"] for line in doc["lines"]} == {
            "bot:1": "hard",
            "bot:2": "easy",
        }
        assert doc["tables"] == [], "two bots alone were seated"
        proc = cli_bot(stack, key, "random", tmp_path / "person.log")
        try:
            joined = await api.post(f"/v1/arenas/{arena_id}/join", headers=bearer(key))
            assert joined.status_code == 200, joined.text

            async def closed_and_done() -> bool:
                doc = (await api.get(f"/v1/arenas/{arena_id}")).json()
                return doc["status"] == "closed" and all(t["places"] is not None for t in doc["tables"])

            assert await until(closed_and_done, WINDOW_S + 60), (tmp_path / "person.log").read_text()
        finally:
            proc.kill()
            proc.wait()
        doc = (await api.get(f"/v1/arenas/{arena_id}")).json()
        tables = doc["tables"]
        assert tables, doc
        for t in tables:
            assert person in t["players"] and len(set(t["players"])) == 2, t
            [bot] = [p for p in t["players"] if p != person]
            seat = t["players"].index(bot)
            # The bot runner was handed the bot's seat at the bot's level.
            levels = {int(s): v.decode() for s, v in (await redis.hgetall(bot_levels(t["table_id"]))).items()}
            assert levels == {seat: {"bot:1": "hard", "bot:2": "easy"}[bot]}, t
        # The person is seated as soon as a bot is free: the first bot in the queue first.
        assert tables[0]["players"] == ["bot:1", person]
        lines = {line["player_id"]: line for line in doc["lines"]}
        assert lines[person]["level"] is None and lines[person]["games"] == len(tables)
        assert sum(lines[b]["games"] for b in ("bot:1", "bot:2")) == len(tables)
        rated = [
            _rated(e.payload) for e in await EventStore(redis).read(ladder_keys("highcard", stack.partitions))
        ]
        assert [e for e in rated if e.source == f"arena:{arena_id}"] == []
    await redis.aclose()


async def test_an_arena_with_a_bad_bot_level_or_too_many_bots_is_not_opened(stack: Stack) -> None:
    redis = connect(stack.redis_url or "")
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        before = await redis.zcard(ARENAS_INDEX)
        cases: list[tuple[Any, str]] = [
            (["superhard"], "unknown_level"),
            (["HARD"], "unknown_level"),
            ([""], "unknown_level"),
            (["x" * 20_000], "unknown_level"),
            ([7], "unknown_level"),
            ([2**200], "unknown_level"),
            ([None], "unknown_level"),
            ([["hard"]], "unknown_level"),
            ("hard", "unknown_level"),
            ({"hard": 1}, "unknown_level"),
            (None, "unknown_level"),
            (["hard"] * (MAX_BOTS + 1), "unknown_level"),
        ]
        for i, (bots, code) in enumerate(cases):
            body = {"game": "highcard", "seats": 2, "seconds": 60, "bots": bots}
            r = await api.post("/v1/arenas", json=body, headers={"idempotency-key": f"hostile-arena-{i}"})
            answer = r.json()
            assert (r.status_code, answer.get("code")) == (STATUS[code], code), (
                f"{str(bots)[:40]}: {r.text[:300]}"
            )
            assert "easy, medium, hard" in answer["message"]
        assert await redis.zcard(ARENAS_INDEX) == before
        # The key of a refused creation is free for the corrected one.
        body = {"game": "highcard", "seats": 2, "seconds": 60, "bots": ["medium"]}
        r = await api.post("/v1/arenas", json=body, headers={"idempotency-key": "hostile-arena-0"})
        assert r.status_code == 201, r.text
        assert await redis.zcard(ARENAS_INDEX) == before + 1
    await redis.aclose()
