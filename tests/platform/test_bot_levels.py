"""Bot levels through the running services (issue 25): a lobby table with a ``hard``
bot seat, whose bot the platform process's runner plays at that level; bot
entrants of a tournament at their levels, shown in the standings; the level a
clocked table's takeover plays at, recorded when it opens; and the refusals."""

from __future__ import annotations

import random
import re
from typing import Any

import httpx
import pytest

from shared.infra.launcher import Stack
from shared.kernel.legal_groups import expand
from tests.support.accounts import bearer, register
from tests.support.waiting import eventually

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("stack"), pytest.mark.timeout(300)]


def _auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


async def _open(api: httpx.AsyncClient, game: str, seats: int, **extra: Any) -> tuple[str, list[str]]:
    r = await api.post("/v1/tables", json={"game": game, "seats": seats, **extra})
    assert r.status_code == 201, r.text
    return r.json()["table_id"], [t["token"] for t in r.json()["tokens"]]


async def _bot_moves(stack: Stack, level: str) -> float:
    """How many moves the platform's bot runner chose at ``level`` (its metric)."""
    async with httpx.AsyncClient(timeout=10) as client:
        text = (await client.get(stack.metrics_urls()["platform"])).text
    found = re.search(rf'^ziggurat_bot_move_cpu_seconds_count\{{level="{level}"\}} (\S+)$', text, re.M)
    return float(found.group(1)) if found else 0.0


async def test_a_hard_bot_seat_opened_through_the_api_plays_at_its_level(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        table_id, tokens = await _open(api, "tigris-cards", 2)
        before = await _bot_moves(stack, "hard")
        r = await api.post(f"/v1/tables/{table_id}/bots", json={"tokens": [tokens[1]], "levels": ["hard"]})
        assert r.status_code == 200, r.text
        assert r.json() == {"table_id": table_id, "bots": [1], "levels": ["hard"]}
        r = await api.get(f"/v1/tables/{table_id}/about")
        assert r.json()["bots"] == [1]
        rng = random.Random(25)
        version, bot_turns = 0, 0
        for _ in range(200):
            r = await api.get(
                f"/v1/tables/{table_id}/view", headers=_auth(tokens[0]), params={"min_version": version + 1}
            )
            doc = r.json()
            assert r.status_code == 200, r.text
            if doc["over"] or bot_turns >= 2:
                break
            if 1 in doc["actors"] and 0 not in doc["actors"]:
                bot_turns += 1  # the next version is the bot's move: wait for it
                version = doc["version"]
                continue
            command = rng.choice(expand(doc["legal"]))
            r = await api.post(
                f"/v1/tables/{table_id}/commands",
                json={"command": command, "expected_version": doc["version"]},
                headers=_auth(tokens[0]),
            )
            assert r.status_code == 200, r.text
            version = r.json()["version"]
        assert bot_turns >= 2, "the bot seat was never awaited twice"
        # Every turn waited for above was played (the view moved past it), at the hard level.
        assert await _bot_moves(stack, "hard") >= before + 2


async def test_levels_are_refused_where_they_mean_nothing_or_name_no_level(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        table_id, tokens = await _open(api, "tigris-cards", 2)
        r = await api.post(
            f"/v1/tables/{table_id}/bots", json={"tokens": [tokens[1]], "levels": ["superhard"]}
        )
        assert (r.status_code, r.json()["code"]) == (400, "unknown_level"), r.text
        assert "easy, medium, hard" in r.json()["message"]
        r = await api.post(
            f"/v1/tables/{table_id}/bots", json={"tokens": [tokens[1]], "levels": ["hard", "easy"]}
        )
        assert (r.status_code, r.json()["code"]) == (400, "bad_request"), r.text
        assert r.json()["details"] == {"parameter": "levels"}

        host, key = await register(api, "Level host")
        seats = [{"player_id": host}, {"bot": "superhard"}]
        r = await api.post("/v1/casual", json={"game": "tigris-cards", "seats": seats}, headers=bearer(key))
        assert (r.status_code, r.json()["code"]) == (400, "unknown_level"), r.text
        # A seat is a player or a bot: a level on a player's seat is refused.
        seats = [{"player_id": host, "bot": "hard"}, {"bot": "hard"}]
        r = await api.post("/v1/casual", json={"game": "tigris-cards", "seats": seats}, headers=bearer(key))
        assert (r.status_code, r.json()["code"]) == (422, "invalid_invitation"), r.text

        r = await api.post("/v1/tournaments", json={"name": "levels", "game": "tigris-cards", "rounds": 1})
        assert r.status_code == 201, r.text
        tid, organiser = r.json()["tournament_id"], r.json()["organiser_token"]
        entries = [
            ({"name": "A", "kind": "bot", "bot": "superhard"}, 400, "unknown_level"),
            ({"name": "B", "kind": "human", "bot": "hard"}, 422, "invalid_player"),
        ]
        for body, status, code in entries:
            r = await api.post(f"/v1/tournaments/{tid}/players", json=body, headers=_auth(organiser))
            assert (r.status_code, r.json()["code"]) == (status, code), r.text
        for body in ({"name": "Hard", "kind": "bot", "bot": "hard"}, {"name": "Default", "kind": "bot"}):
            r = await api.post(f"/v1/tournaments/{tid}/players", json=body, headers=_auth(organiser))
            assert r.status_code == 201, r.text
        r = await api.post(
            f"/v1/tournaments/{tid}/players", json={"name": "Person"}, headers=_auth(organiser)
        )
        assert r.status_code == 201, r.text

        async def shown() -> dict[str, Any] | None:
            lines = (await api.get(f"/v1/tournaments/{tid}/standings")).json().get("lines", [])
            named = {line["line"]["name"]: line["line"]["level"] for line in lines}
            return named if len(named) == 3 else None

        assert await eventually(shown, 30) == {"Hard": "hard", "Default": "medium", "Person": None}


async def test_a_clocked_table_records_the_level_that_takes_over(stack: Stack) -> None:
    """The stack runs the default takeover level; a table may name its own."""
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        for clock, level in (
            ({"per_move_ms": 60_000}, "medium"),
            ({"per_move_ms": 60_000, "takeover": "easy"}, "easy"),
        ):
            table_id, _ = await _open(api, "tigris-cards", 2, clock=clock)
            r = await api.get(f"/v1/tables/{table_id}/view", params={"min_version": 1})
            assert r.status_code == 200, r.text
            assert r.json()["clock"]["takeover"] == level
        r = await api.post(
            "/v1/tables",
            json={"game": "tigris-cards", "seats": 2, "clock": {"per_move_ms": 1, "takeover": "hard"}},
        )
        assert (r.status_code, r.json()["code"]) == (400, "bad_clock"), r.text
