"""An arena through the running services: two external bot processes (the bot API
only) join, are seated at table after table as they come free, and every table
is scored in the arena and rated once on the ladder; the arena closes with its window.
And an arena of every hosted game, played to the end by bot processes (in ``make test``:
each game's shortest variant, all arenas at once, about 40 s)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from shared.games import registry
from shared.infra.launcher import Stack
from tests.support.accounts import bearer, cli_bot, ladder_is_recomputed, register
from tests.support.waiting import until

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("stack"), pytest.mark.timeout(300)]

#: The arena's window: two tables of the fixture game at least, even while a
#: loaded machine (CI's two cores, the suite beside it) starts the bots slowly.
WINDOW_S = 20


async def arena(api: httpx.AsyncClient, arena_id: str) -> dict[str, Any]:
    r = await api.get(f"/v1/arenas/{arena_id}")
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


async def test_two_bots_play_a_rated_arena_until_it_closes(stack: Stack, tmp_path: Path) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        a_id, a_key = await register(api, "Arena A")
        b_id, b_key = await register(api, "Arena B")
        # The bots first: their start (a process each, slow on a loaded machine)
        # must not eat the arena's window.
        bots = [
            cli_bot(stack, a_key, "random", tmp_path / "a.log"),
            cli_bot(stack, b_key, "greedy", tmp_path / "b.log"),
        ]
        try:
            r = await api.post("/v1/arenas", json={"game": "highcard", "seats": 2, "seconds": WINDOW_S})
            assert r.status_code == 201, r.text
            arena_id = r.json()["arena_id"]
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


#: Each hosted game's shortest variant through its own options (Conan has none: three ages).
#: Catan's target is one point above the setup's, with at most one trade offer a turn (random
#: bots otherwise offer trades for ever); the card game removes the most cards it allows.
SHORT: dict[str, dict[str, Any]] = {
    "catan": {"points_to_win": 3, "trade_offers_per_turn": 1},
    "catan-ck": {"points_to_win": 4, "trade_offers_per_turn": 1},
    "tigris-cards": {"two_player_removal": 120},
}


async def test_bot_processes_play_a_rated_arena_of_every_game(stack: Stack, tmp_path: Path) -> None:
    """Two external bot processes (the bot API only) join an arena of every hosted game at
    once, each game's shortest variant, and play each to its end: scored in the arena and
    rated on the game's ladder. Catan seats three, so a third bot joins its arenas."""
    games = registry.available()
    async with httpx.AsyncClient(base_url=stack.api, timeout=60) as api:
        players = [await register(api, f"Every game bot {i}") for i in range(3)]
        arenas: dict[str, str] = {}
        for game in games:
            seats = registry.get(game).min_seats
            assert seats <= len(players), game
            r = await api.post(
                "/v1/arenas",
                json={"game": game, "seats": seats, "seconds": 5, "game_options": SHORT.get(game, {})},
            )
            assert r.status_code == 201, r.text
            arenas[game] = r.json()["arena_id"]
        bots = [cli_bot(stack, key, "random", tmp_path / f"{i}.log") for i, (_, key) in enumerate(players)]
        try:
            for game, arena_id in arenas.items():
                for _, key in players[: registry.get(game).min_seats]:
                    joined = await api.post(f"/v1/arenas/{arena_id}/join", headers=bearer(key))
                    assert joined.status_code == 200, joined.text

            async def done() -> bool:
                for arena_id in arenas.values():
                    doc = await arena(api, arena_id)
                    tables = doc["tables"]
                    if doc["status"] != "closed" or not tables or any(t["places"] is None for t in tables):
                        return False
                return True

            assert await until(done, 240, every_s=1), (tmp_path / "0.log").read_text()[-2000:]
        finally:
            for proc in bots:
                proc.kill()
                proc.wait()
        for game, arena_id in arenas.items():
            doc = await arena(api, arena_id)
            seats = registry.get(game).min_seats
            assert sum(line["games"] for line in doc["lines"]) == seats * len(doc["tables"]), game
            ladder = await ladder_is_recomputed(stack, game)
            rated = {e.table_id for e in ladder["events"] if e.source == f"arena:{arena_id}"}
            assert rated == {t["table_id"] for t in doc["tables"]}, game
