"""An arena through the running services: two external bot processes (the bot API
only) join, are seated at table after table as they come free, and every table
is scored in the arena and rated once on the ladder; the arena closes with its window."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from shared.games import registry
from shared.infra.launcher import Stack
from tests.e2e.accounts import bearer, cli_bot, ladder_is_recomputed, register
from tests.waiting import until

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("stack"), pytest.mark.timeout(300)]

WINDOW_S = 12


async def arena(api: httpx.AsyncClient, arena_id: str) -> dict[str, Any]:
    r = await api.get(f"/v1/arenas/{arena_id}")
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


async def test_two_bots_play_a_rated_arena_until_it_closes(stack: Stack, tmp_path: Path) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        a_id, a_key = await register(api, "Arena A")
        b_id, b_key = await register(api, "Arena B")
        r = await api.post("/v1/arenas", json={"game": "highcard", "seats": 2, "seconds": WINDOW_S})
        assert r.status_code == 201, r.text
        arena_id = r.json()["arena_id"]
        bots = [
            cli_bot(stack, a_key, "random", tmp_path / "a.log"),
            cli_bot(stack, b_key, "greedy", tmp_path / "b.log"),
        ]
        try:
            for key in (a_key, b_key):
                joined = await api.post(f"/v1/arenas/{arena_id}/join", headers=bearer(key))
                assert joined.status_code == 200, joined.text
            again = await api.post(f"/v1/arenas/{arena_id}/join", headers=bearer(a_key))
            assert again.status_code == 422 and again.json()["code"] == "already_in_arena"

            async def closed_and_done() -> bool:
                doc = await arena(api, arena_id)
                return doc["status"] == "closed" and all(t["places"] is not None for t in doc["tables"])

            assert await until(closed_and_done, WINDOW_S + 60), (tmp_path / "a.log").read_text()
        finally:
            for proc in bots:
                proc.kill()
                proc.wait()

        doc = await arena(api, arena_id)
        tables = doc["tables"]
        assert len(tables) >= 2, doc
        lines = {line["player_id"]: line for line in doc["lines"]}
        assert lines[a_id]["games"] == lines[b_id]["games"] == len(tables)
        assert lines[a_id]["points"] + lines[b_id]["points"] >= len(tables)
        assert not lines[a_id]["waiting"] and not lines[a_id]["playing"]
        late = await api.post(f"/v1/arenas/{arena_id}/join", headers=bearer(a_key))
        assert late.status_code == 422 and late.json()["code"] == "arena_closed"

        ladder = await ladder_is_recomputed(stack, "highcard")
        rated = [e for e in ladder["events"] if e.source == f"arena:{arena_id}"]
        assert sorted(e.table_id for e in rated) == sorted(t["table_id"] for t in tables)


@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("game", [g for g in registry.available() if g != "highcard"])
async def test_bots_play_an_arena_of_every_game(stack: Stack, tmp_path: Path, game: str) -> None:
    """One full table of each hosted game, seated by an arena, played by bot processes to its end."""
    seats = registry.get(game).min_seats
    async with httpx.AsyncClient(base_url=stack.api, timeout=60) as api:
        players = [await register(api, f"{game} bot {i}") for i in range(seats)]
        r = await api.post("/v1/arenas", json={"game": game, "seats": seats, "seconds": 5})
        assert r.status_code == 201, r.text
        arena_id = r.json()["arena_id"]
        bots = [cli_bot(stack, key, "random", tmp_path / f"{i}.log") for i, (_, key) in enumerate(players)]
        try:
            for _, key in players:
                assert (await api.post(f"/v1/arenas/{arena_id}/join", headers=bearer(key))).status_code == 200

            async def done() -> bool:
                doc = await arena(api, arena_id)
                return (
                    doc["status"] == "closed"
                    and bool(doc["tables"])
                    and all(t["places"] is not None for t in doc["tables"])
                )

            assert await until(done, 1700, every_s=2), (tmp_path / "0.log").read_text()[-2000:]
        finally:
            for proc in bots:
                proc.kill()
                proc.wait()
        doc = await arena(api, arena_id)
        assert sum(line["games"] for line in doc["lines"]) == seats * len(doc["tables"])
        ladder = await ladder_is_recomputed(stack, game)
        assert {e.table_id for e in ladder["events"]} >= {t["table_id"] for t in doc["tables"]}
