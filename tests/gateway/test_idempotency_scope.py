"""An idempotency key answers only the caller that first used it, on its route.

Replays of another seat's key, at the same table or another, are judged as
new commands and learn nothing; equal keys in flight at two tables at once
each get their own outcome; the platform's own command ids (timeouts) cannot
be named by a client; and a table opening honours its caller's key.

Every other route that takes a key scopes it the same way (to a player, an
organiser token, or the client address where no credential is sent, and to the
route and resource): another caller reusing a key gets its own outcome, never
the first caller's 201, and cannot neutralise an organiser's command; the same
caller with another body is ``idempotency_key_reused``.
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
from tests.gateway.clients import async_client, fresh_address
from tests.support.accounts import bearer, register
from tests.support.clocked_tables import open_clocked, until_over

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


# -- every other route: the key is its caller's, for its route and resource ----------------


def unique(prefix: str) -> str:
    return f"{prefix}-{random.randrange(10**12)}"


async def entries(api: httpx.AsyncClient, tid: str) -> list[str]:
    """The players a tournament's own log says were entered, in order (withdrawn ones too)."""
    log = (await api.get(f"/v1/tournaments/{tid}/log")).json()["events"]
    return [e["event"]["player_id"] for e in log if e["event"]["type"] == "tournament.registered"]


async def test_a_tournament_key_answers_only_its_caller_on_its_route(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        created = await api.post("/v1/tournaments", json={"game": "highcard", "rounds": 1})
        assert created.status_code == 201, created.text
        tid, token = created.json()["tournament_id"], created.json()["organiser_token"]
        organiser = bearer(token)
        ann, ann_key = await register(api, "Ann")
        bob, bob_key = await register(api, "Bob")
        key = {"idempotency-key": unique("shared")}

        # Two players joining under one key: each gets its own entry, not the other's 201.
        first = await api.post(f"/v1/tournaments/{tid}/join", headers={**bearer(ann_key), **key})
        second = await api.post(f"/v1/tournaments/{tid}/join", headers={**bearer(bob_key), **key})
        assert first.status_code == second.status_code == 201, (first.text, second.text)
        assert (first.json()["player_id"], second.json()["player_id"]) == (ann, bob)
        assert second.json()["version"] > first.json()["version"], "a join of its own, appended"
        again = await api.post(f"/v1/tournaments/{tid}/join", headers={**bearer(ann_key), **key})
        assert (again.status_code, again.json()) == (201, first.json()), "the same caller: the first answer"

        # The organiser's registration under the players' key is its own too; its retry
        # gets the same entry and token, and the same key with another body is refused.
        body = {"name": "Cleo", "player_id": unique("cleo")}
        cleo = await api.post(f"/v1/tournaments/{tid}/players", json=body, headers={**organiser, **key})
        retry = await api.post(f"/v1/tournaments/{tid}/players", json=body, headers={**organiser, **key})
        assert cleo.status_code == retry.status_code == 201, (cleo.text, retry.text)
        assert cleo.json()["player_id"] == body["player_id"]
        assert retry.json() == cleo.json(), "one entry, one token"
        other = {**body, "name": "Someone else"}
        reused = await api.post(f"/v1/tournaments/{tid}/players", json=other, headers={**organiser, **key})
        assert (reused.status_code, reused.json()["code"]) == (422, "idempotency_key_reused"), reused.text
        assert await entries(api, tid) == [ann, bob, body["player_id"]]

        # A withdrawal under the key is a command of its own, once; so is the start,
        # which no join or registration under the same key can have used up.
        out = await api.post(f"/v1/tournaments/{tid}/players/{bob}/withdraw", headers={**organiser, **key})
        assert out.status_code == 200 and not out.json()["duplicate"], out.text
        assert out.json()["command_id"] == key["idempotency-key"], "the client's own key, not the store's id"
        started = await api.post(f"/v1/tournaments/{tid}/start", headers={**organiser, **key})
        assert started.status_code == 200 and not started.json()["duplicate"], started.text
        assert any(e["type"] == "tournament.started" for e in started.json()["events"])
        restart = await api.post(f"/v1/tournaments/{tid}/start", headers={**organiser, **key})
        assert restart.json()["duplicate"] and restart.json()["version"] == started.json()["version"]

        # A late player reusing the organiser's key is judged on its own: registration closed.
        cai, cai_key = await register(api, "Cai")
        late = await api.post(f"/v1/tournaments/{tid}/join", headers={**bearer(cai_key), **key})
        assert (late.status_code, late.json()["code"]) == (422, "already_started"), late.text
        assert cai not in await entries(api, tid)


async def test_a_player_cannot_neutralise_an_organiser_command_with_its_key(stack: Stack) -> None:
    """A player who learns (or guesses) the key an organiser will use and sends it
    first: the organiser's command is still carried out."""
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        created = await api.post("/v1/tournaments", json={"game": "highcard", "rounds": 1})
        tid, organiser = created.json()["tournament_id"], bearer(created.json()["organiser_token"])
        for name in ("Dee", "Eli"):
            _, player_key = await register(api, name)
            joined = await api.post(f"/v1/tournaments/{tid}/join", headers=bearer(player_key))
            assert joined.status_code == 201, joined.text
        _, mallory = await register(api, "Mallory")
        key = {"idempotency-key": unique("start")}
        planted = await api.post(f"/v1/tournaments/{tid}/join", headers={**bearer(mallory), **key})
        assert planted.status_code == 201, planted.text
        started = await api.post(f"/v1/tournaments/{tid}/start", headers={**organiser, **key})
        assert started.status_code == 200 and not started.json()["duplicate"], started.text
        assert any(e["type"] == "tournament.started" for e in started.json()["events"]), started.text
        assert (await api.get(f"/v1/tournaments/{tid}/pairings")).json()["status"] == "running"


async def test_anonymous_creations_are_keyed_per_client_address(stack: Stack) -> None:
    """Tables, tournaments, accounts and arenas opened under one key from two addresses
    are two of each; the same address with another body is refused."""
    here, there = fresh_address(), fresh_address()
    cases = [
        ("/v1/tables", {"game": "highcard", "seats": 2}, {"seats": 3}, "table_id"),
        ("/v1/tournaments", {"game": "highcard", "rounds": 1}, {"rounds": 2}, "tournament_id"),
        ("/v1/players", {"name": "Anon"}, {"name": "Other"}, "player_id"),
        ("/v1/arenas", {"game": "highcard", "seconds": 60}, {"seconds": 120}, "arena_id"),
    ]
    async with (
        async_client(stack.api, here, timeout=30) as a,
        async_client(stack.api, there, timeout=30) as b,
    ):
        for path, body, change, id_field in cases:
            key = {"idempotency-key": unique("anon")}
            mine = await a.post(path, json=body, headers=key)
            theirs = await b.post(path, json=body, headers=key)
            assert mine.status_code == theirs.status_code == 201, (path, mine.text, theirs.text)
            assert mine.json()[id_field] != theirs.json()[id_field], f"{path}: another address's creation"
            assert not theirs.json().get("duplicate"), path
            secret = {"organiser_token", "player_key", "tokens"} & set(mine.json())
            for field in secret:
                assert mine.json()[field] != theirs.json()[field], f"{path}: another address's {field}"
            again = await a.post(path, json=body, headers=key)
            assert again.status_code == 201 and again.json()[id_field] == mine.json()[id_field], path
            reused = await a.post(path, json={**body, **change}, headers=key)
            assert (reused.status_code, reused.json()["code"]) == (422, "idempotency_key_reused"), path


async def test_arena_casual_and_key_rotation_keys_are_each_players_own(stack: Stack) -> None:
    """Two players behind one address, one key: each joins, leaves, invites and rotates
    for itself; a join's key does not answer the same player's leave."""
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        ann, ann_key = await register(api, "Ann")
        bob, bob_key = await register(api, "Bob")
        arena = await api.post("/v1/arenas", json={"game": "highcard", "seats": 3, "seconds": 300})
        arena_id = arena.json()["arena_id"]
        key = {"idempotency-key": unique("one-key")}
        joins = [
            await api.post(f"/v1/arenas/{arena_id}/join", headers={**bearer(k), **key})
            for k in (ann_key, bob_key)
        ]
        assert [j.json()["player_id"] for j in joins] == [ann, bob], [j.text for j in joins]
        assert not joins[1].json()["duplicate"] and joins[1].json()["version"] > joins[0].json()["version"]
        left = await api.post(f"/v1/arenas/{arena_id}/leave", headers={**bearer(ann_key), **key})
        assert left.status_code == 200 and not left.json()["duplicate"], left.text
        lines = (await api.get(f"/v1/arenas/{arena_id}")).json()["lines"]
        assert {line["player_id"]: line["waiting"] for line in lines} == {ann: False, bob: True}, lines

        seats = [{"player_id": ann}, {"player_id": bob}]
        mine = await api.post(
            "/v1/casual", json={"game": "highcard", "seats": seats}, headers={**bearer(ann_key), **key}
        )
        theirs = await api.post(
            "/v1/casual", json={"game": "highcard", "seats": seats[::-1]}, headers={**bearer(bob_key), **key}
        )
        assert mine.status_code == theirs.status_code == 201, (mine.text, theirs.text)
        assert (mine.json()["host"], theirs.json()["host"]) == (ann, bob)
        assert mine.json()["invitation_id"] != theirs.json()["invitation_id"]
        rated = {"game": "highcard", "seats": seats, "rated": True}
        reused = await api.post("/v1/casual", json=rated, headers={**bearer(ann_key), **key})
        assert (reused.status_code, reused.json()["code"]) == (422, "idempotency_key_reused"), reused.text

        rotations = [
            await api.post(f"/v1/players/{pid}/key", headers={**bearer(k), **key})
            for pid, k in ((ann, ann_key), (bob, bob_key))
        ]
        assert [r.status_code for r in rotations] == [200, 200], [r.text for r in rotations]
        assert [r.json()["player_id"] for r in rotations] == [ann, bob]
        assert rotations[0].json()["player_key"] != rotations[1].json()["player_key"]
        # Ann's retry with her old key learns her own new key, from another address too.
        async with async_client(stack.api, fresh_address(), timeout=30) as elsewhere:
            retry = await elsewhere.post(f"/v1/players/{ann}/key", headers={**bearer(ann_key), **key})
        assert retry.status_code == 200 and retry.json()["player_key"] == rotations[0].json()["player_key"]
