"""Hostile bot levels (issue 25), on every route that takes one, against the real services.

A level is a short name (``easy``, ``medium``, ``hard``; ``random`` reads as
easy where it was recorded before levels). Every route that takes one is sent
levels that name none (another word, another case, padding, an empty string),
levels of the wrong type (numbers past 64 bits, booleans, null, lists,
objects) and oversized ones (a string and a list near the body limit): each
is refused with a stable code (``unknown_level`` where the field is a level
and nothing else, the route's own schema or clock code where it is part of a
larger field) and changes nothing: no bot seat handed over, no invitation or
table opened, no tournament event appended, and an Idempotency-Key sent with
the refused request still free for the corrected one. (``ziggurat bot
--strategy``'s refusals: tests/cli/test_bot_levels.py.)
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from services.gateway.errors import STATUS
from shared.casual.keys import casual_keys
from shared.eventstore import game_index
from shared.eventstore.keys import GameKeys, partition_of
from shared.eventstore.store import EventStore
from shared.infra.launcher import Stack
from shared.infra.redis_client import connect
from shared.players.keys import player_hosting
from shared.tournaments.keys import bot_levels, bot_seats, tournament_keys
from tests.support.accounts import bearer, register

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("stack"), pytest.mark.timeout(300)]

#: Levels that name no level, whatever the route: refused ``unknown_level`` where a level is the field.
NO_LEVEL: list[Any] = [
    "superhard",
    "HARD",
    " hard",
    "hard\u0000",
    "h\u00e1rd",
    "",
    "x" * 20_000,
    7,
    -1,
    2**200,
    1.5,
    True,
    None,
    ["hard"],
    {"level": "hard"},
]


def _auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def _refused(r: httpx.Response, codes: set[str], what: str) -> None:
    """Refused with one of ``codes``, at the status its code is documented with."""
    body = r.json()
    assert body.get("code") in codes, f"{what}: {r.status_code} {r.text[:300]}"
    assert r.status_code == STATUS[body["code"]], f"{what}: {r.status_code} {body}"
    assert body["message"], f"{what}: no message"


async def test_a_tables_bot_seats_refuse_every_hostile_level(stack: Stack) -> None:
    redis = connect(stack.redis_url or "")
    store = EventStore(redis)
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        r = await api.post("/v1/tables", json={"game": "tigris-cards", "seats": 2})
        assert r.status_code == 201, r.text
        table_id, tokens = r.json()["table_id"], [t["token"] for t in r.json()["tokens"]]
        keys = GameKeys(table_id, partition_of(table_id, stack.partitions))
        version = await store.version(keys)
        url = f"/v1/tables/{table_id}/bots"
        bodies: list[Any] = [{"tokens": [tokens[1]], "levels": [level]} for level in NO_LEVEL]
        bodies += [{"tokens": [tokens[1]], "levels": level} for level in ("hard", None, 7, {"0": "hard"})]
        # Oversized: more levels than a table has seats.
        bodies.append({"tokens": [tokens[1]], "levels": ["hard"] * 1_000})
        for body in bodies:
            r = await api.post(url, json=body)
            _refused(r, {"unknown_level"}, f"levels {str(body['levels'])[:40]}")
            assert "easy, medium, hard" in r.json()["message"]
        # Past the body limit: refused before it is read as levels.
        r = await api.post(url, json={"tokens": [tokens[1]], "levels": ["hard"] * 20_000})
        _refused(r, {"body_too_large"}, "levels past the body limit")
        # A level per token, but more than one seat's tokens: the schema's own bound.
        r = await api.post(url, json={"tokens": [tokens[1]] * 100, "levels": ["hard"] * 100})
        _refused(r, {"bad_request", "unknown_level"}, "a hundred tokens")
        # A good level beside a bad one refuses the whole request: nothing is handed over.
        r = await api.post(url, json={"tokens": tokens, "levels": ["hard", "impossible"]})
        _refused(r, {"unknown_level"}, "one bad level of two")
        assert await redis.hgetall(bot_seats(table_id)) == {}
        assert await redis.hgetall(bot_levels(table_id)) == {}
        about = (await api.get(f"/v1/tables/{table_id}/about")).json()
        assert (about["bots"], about["bot_levels"]) == ([], [])
        assert await store.version(keys) == version
        # The table is as it was: a good level is still taken.
        r = await api.post(url, json={"tokens": [tokens[1]], "levels": ["easy"]})
        assert r.status_code == 200, r.text
        assert r.json()["levels"] == ["easy"]
    await redis.aclose()


async def test_a_casual_tables_bot_seats_refuse_every_hostile_level(stack: Stack) -> None:
    redis = connect(stack.redis_url or "")
    store = EventStore(redis)
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        host, key = await register(api, "Hostile level host")
        for i, level in enumerate(NO_LEVEL):
            seats = [{"player_id": host}, {"bot": level}]
            headers = {**bearer(key), "idempotency-key": f"hostile-level-{i}"}
            r = await api.post("/v1/casual", json={"game": "tigris-cards", "seats": seats}, headers=headers)
            # null is a seat without a bot: a seat that names nobody, which the rules refuse.
            if level is None:
                assert (r.status_code, r.json()["code"]) == (422, "invalid_invitation"), r.text
                continue
            _refused(r, {"unknown_level"}, f"casual bot {str(level)[:40]}")
            assert "easy, medium, hard" in r.json()["message"]
        assert await redis.scard(player_hosting(host)) == 0
        # Every key is still free: the corrected request under it opens its invitation.
        seats = [{"player_id": host}, {"bot": "hard"}]
        headers = {**bearer(key), "idempotency-key": "hostile-level-0"}
        r = await api.post("/v1/casual", json={"game": "tigris-cards", "seats": seats}, headers=headers)
        assert r.status_code == 201, r.text
        invitation = r.json()["invitation_id"]
        assert await store.version(casual_keys(invitation, stack.partitions)) >= 1
    await redis.aclose()


async def test_a_tournaments_bot_entrants_refuse_every_hostile_level(stack: Stack) -> None:
    redis = connect(stack.redis_url or "")
    store = EventStore(redis)
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        r = await api.post("/v1/tournaments", json={"name": "levels", "game": "tigris-cards", "rounds": 1})
        assert r.status_code == 201, r.text
        tid, organiser = r.json()["tournament_id"], r.json()["organiser_token"]
        keys = tournament_keys(tid, stack.partitions)
        version = await store.version(keys)
        url = f"/v1/tournaments/{tid}/players"
        for i, level in enumerate(NO_LEVEL):
            if level is None:
                continue  # no level: the default one, not a hostile one
            body = {"name": f"Bot {i}", "kind": "bot", "bot": level}
            headers = {**_auth(organiser), "idempotency-key": f"hostile-level-{i}"}
            r = await api.post(url, json=body, headers=headers)
            # A level of the wrong type or length does not fit the entry's schema.
            fits = isinstance(level, str) and len(level) <= 64
            _refused(r, {"unknown_level"} if fits else {"bad_request"}, f"entrant bot {str(level)[:40]}")
        assert await store.version(keys) == version
        # Every key is still free: the corrected entry under it is registered.
        headers = {**_auth(organiser), "idempotency-key": "hostile-level-0"}
        r = await api.post(url, json={"name": "Bot 0", "kind": "bot", "bot": "hard"}, headers=headers)
        assert r.status_code == 201, r.text
        assert await store.version(keys) == version + 1
    await redis.aclose()


async def test_a_clocks_takeover_refuses_every_hostile_level(stack: Stack) -> None:
    redis = connect(stack.redis_url or "")
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        opened = await game_index.count(redis, stack.partitions)
        # hard is a level, but not one that may take over (it would hold the reducer).
        for level in [*NO_LEVEL, "hard"]:
            if level is None:
                continue  # no takeover named: the stack's default
            clock = {"per_move_ms": 60_000, "takeover": level}
            r = await api.post("/v1/tables", json={"game": "tigris-cards", "seats": 2, "clock": clock})
            _refused(r, {"bad_clock"}, f"takeover {str(level)[:40]}")
        assert await game_index.count(redis, stack.partitions) == opened
    await redis.aclose()
