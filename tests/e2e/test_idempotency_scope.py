"""An idempotency key answers only the seat token that first used it, at its table.

Replays of another seat's key, at the same table or another, are judged as
new commands and learn nothing; equal keys in flight at two tables at once
each get their own outcome; the platform's own command ids (timeouts) cannot
be named by a client; and a table opening honours its caller's key.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest

from shared.cli import botclient
from shared.infra.launcher import Stack
from shared.kernel.legal_groups import expand
from tests.e2e.test_clocks import open_clocked, until_over

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("stack"), pytest.mark.timeout(300)]


async def move(
    api: httpx.AsyncClient, table: botclient.Table, seat: int, command: Any, key: str
) -> httpx.Response:
    return await api.post(
        f"/v1/tables/{table.table_id}/commands",
        json={"command": command},
        headers={**botclient.auth(table.tokens[seat]), "idempotency-key": key},
    )


async def private_outcome(api: httpx.AsyncClient, table: botclient.Table) -> tuple[int, str, dict[str, Any]]:
    """Play Tigris until a move's reply carries the mover's private tiles; (seat, key, reply)."""
    rng = random.Random(7)
    for n in range(200):
        spectator = await botclient.view(api, table, None)
        seat = spectator["actors"][0]
        mine = await botclient.view(api, table, seat)
        key = f"shared-key-{n}"
        r = await move(api, table, seat, rng.choice(expand(mine["legal"])), key)
        assert r.status_code == 200, r.text
        if any(e["type"] == "tigris.tiles_drawn" for e in r.json()["events"]):
            return seat, key, r.json()
    raise AssertionError("no move drew tiles")


async def test_another_seats_key_learns_nothing_at_this_table_or_another(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        table = await botclient.open_table(api, "tigris", 2)
        seat, key, first = await private_outcome(api, table)
        drawn = [e for e in first["events"] if e["type"] == "tigris.tiles_drawn"]
        other = 1 - seat
        before = (await botclient.view(api, table, None))["version"]
        # Whatever the other seat sends under the key is its own command:
        # accepted or refused on its own merits, never the first seat's outcome.
        for n, body in enumerate(
            ({"type": "tigris.pass"}, {"type": "tigris.withdraw_leader", "leader": "red"})
        ):
            r = await move(api, table, other, body, key)
            reply = r.json()
            assert reply.get("seat") in (None, other), reply
            assert reply.get("events") != first["events"]
            for event in drawn:
                assert event not in reply.get("events", []), "another seat's private tiles leaked"
            if r.status_code == 200 and n == 0:
                assert not reply["duplicate"] and reply["version"] > before, "a command of its own"
        # The same seat with the same key still gets its own first outcome.
        again = await move(api, table, seat, {"type": "tigris.pass"}, key)
        assert again.status_code == 200 and again.json()["duplicate"]
        assert again.json()["events"] == first["events"]

        elsewhere = await botclient.open_table(api, "tigris", 2)
        actor = (await botclient.view(api, elsewhere, None))["actors"][0]
        legal = expand((await botclient.view(api, elsewhere, actor))["legal"])[0]
        r = await move(api, elsewhere, actor, legal, key)
        assert r.status_code == 200 and not r.json()["duplicate"], r.text
        assert r.json()["version"] != first["version"] or r.json()["events"] != first["events"]
        for event in drawn:
            assert event not in r.json()["events"]


async def test_equal_keys_in_flight_at_many_tables_each_get_their_own_outcome(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        tables = await asyncio.gather(*(botclient.open_table(api, "highcard", 2) for _ in range(12)))
        firsts = []
        for table in tables:
            seat = (await botclient.view(api, table, None))["actors"][0]
            firsts.append((seat, expand((await botclient.view(api, table, seat))["legal"])[0]))
        replies = await asyncio.gather(
            *(move(api, t, seat, cmd, "same-key") for t, (seat, cmd) in zip(tables, firsts, strict=True))
        )
        for (seat, cmd), r in zip(firsts, replies, strict=True):
            assert r.status_code == 200, r.text
            body = r.json()
            assert body["seat"] == seat and not body["duplicate"]
            played = [e for e in body["events"] if e["type"] == "highcard.played"]
            assert played and played[0]["card"] == cmd["card"], "an outcome from another table"
        # One seat sending one key twice at once: one outcome, reported to both requests.
        table = tables[0]
        spectator = await botclient.view(api, table, None)
        seat = spectator["actors"][0]
        cmd = expand((await botclient.view(api, table, seat))["legal"])[0]
        a, b = await asyncio.gather(
            move(api, table, seat, cmd, "twice"), move(api, table, seat, cmd, "twice")
        )
        assert a.status_code == b.status_code == 200, (a.text, b.text)
        assert a.json()["version"] == b.json()["version"]
        assert sorted([a.json()["duplicate"], b.json()["duplicate"]]) == [False, True]


async def test_platform_command_ids_cannot_be_named_by_a_client(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        table = await open_clocked(api, "bot")
        await until_over(api, table)
        audit = (await api.get(f"/v1/tables/{table.table_id}/audit")).json()
        platform = [c["command_id"] for c in audit["commands"] if c["kind"] == "timeout"]
        assert platform, "the clocks played this game"
        for seat in (0, 1):
            for command_id in platform:
                r = await move(api, table, seat, {"type": "highcard.play", "card": 1}, command_id)
                assert (r.status_code, r.json()["code"]) == (422, "game_over"), r.text


async def test_a_table_opening_honours_its_idempotency_key(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        body = {"game": "highcard", "seats": 2}
        headers = {"idempotency-key": f"open-{random.random()}"}
        first = await api.post("/v1/tables", json=body, headers=headers)
        again = await api.post("/v1/tables", json=body, headers=headers)
        assert first.status_code == again.status_code == 201, (first.text, again.text)
        assert first.json()["table_id"] == again.json()["table_id"]
        assert first.json()["tokens"] == again.json()["tokens"]
        assert not first.json()["duplicate"] and again.json()["duplicate"]
        other = await api.post("/v1/tables", json=body, headers={"idempotency-key": "another-key"})
        assert other.json()["table_id"] != first.json()["table_id"]
        reused = await api.post("/v1/tables", json={**body, "seats": 3}, headers=headers)
        assert (reused.status_code, reused.json()["code"]) == (422, "idempotency_key_reused")
        table = botclient.Table(
            first.json()["table_id"], "highcard", [t["token"] for t in first.json()["tokens"]]
        )
        seat = (await botclient.view(api, table, None))["actors"][0]
        legal = expand((await botclient.view(api, table, seat))["legal"])[0]
        assert (await move(api, table, seat, legal, "k")).status_code == 200, "the remembered tokens work"


async def test_a_refused_creation_leaves_nothing_behind_and_keys_are_per_kind(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        key = {"idempotency-key": f"refused-{random.random()}"}
        bad = await api.post("/v1/tables", json={"game": "tigris", "seats": 2, "clock": {}}, headers=key)
        assert (bad.status_code, bad.json()["code"]) == (400, "bad_clock")
        good = await api.post("/v1/tables", json={"game": "tigris", "seats": 3}, headers=key)
        assert good.status_code == 201, "a refused opening did not use up the key"
        # A tournament under the same key is its own creation; its retry gets the same token.
        body = {"game": "highcard", "rounds": 1}
        first = await api.post("/v1/tournaments", json=body, headers=key)
        again = await api.post("/v1/tournaments", json=body, headers=key)
        assert first.status_code == again.status_code == 201, (first.text, again.text)
        assert first.json()["organiser_token"] == again.json()["organiser_token"]
        assert first.json()["tournament_id"] == again.json()["tournament_id"] and again.json()["duplicate"]
        # A bad header is refused before the tournament id is claimed.
        tid = f"t{random.randrange(10**9)}"
        refused = await api.post(
            "/v1/tournaments", json={**body, "tournament_id": tid}, headers={"idempotency-key": "a b"}
        )
        assert (refused.status_code, refused.json()["code"]) == (400, "bad_header")
        created = await api.post("/v1/tournaments", json={**body, "tournament_id": tid})
        assert created.status_code == 201, created.text
