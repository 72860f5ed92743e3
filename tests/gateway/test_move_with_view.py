"""A move in one request: ``POST /commands`` with ``"view": true`` answers, once
accepted, with the acting seat's new view, the same document ``GET
/view?min_version=`` gives that seat, and never another seat's secrets."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import msgspec
import pytest

from shared.cli import botclient
from shared.infra.launcher import Stack
from shared.kernel.legal_groups import expand

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("stack"), pytest.mark.timeout(120)]


class _Reply(msgspec.Struct):
    """A combined reply, its view kept as the exact bytes the gateway sent."""

    version: int
    duplicate: bool
    view: msgspec.Raw = msgspec.Raw()  # empty when the reply holds no view


_reply = msgspec.json.Decoder(_Reply).decode


async def _open(api: httpx.AsyncClient, seats: int) -> botclient.Table:
    r = await api.post("/v1/tables", json={"game": "highcard", "seats": seats})
    assert r.status_code == 201, r.text
    body = r.json()
    return botclient.Table(body["table_id"], "highcard", [t["token"] for t in body["tokens"]])


async def _view(
    api: httpx.AsyncClient, table: botclient.Table, seat: int | None, min_version: int = 0
) -> bytes:
    headers = botclient.auth(table.tokens[seat]) if seat is not None else {}
    params = {"min_version": min_version} if min_version else None
    r = await api.get(f"/v1/tables/{table.table_id}/view", headers=headers, params=params)
    assert r.status_code == 200, r.text
    return r.content


async def _move(
    api: httpx.AsyncClient, table: botclient.Table, seat: int, body: dict[str, Any], key: str | None = None
) -> httpx.Response:
    headers = {**botclient.auth(table.tokens[seat]), "idempotency-key": key or uuid.uuid4().hex}
    return await api.post(f"/v1/tables/{table.table_id}/commands", json=body, headers=headers)


async def test_every_move_of_a_game_answers_with_the_seats_own_new_view(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        table = await _open(api, 3)
        doc = msgspec.json.decode(await _view(api, table, 0))
        moves = 0
        while not doc["over"]:
            seat = doc["actors"][0]
            mine = msgspec.json.decode(await _view(api, table, seat, doc["version"]))
            r = await _move(
                api,
                table,
                seat,
                {"command": expand(mine["legal"])[0], "expected_version": mine["version"], "view": True},
            )
            assert r.status_code == 200, r.text
            reply = _reply(r.content)
            assert reply.view, "an accepted move that asked for its view got none"
            # Exactly what a separate read of that seat's view at that version answers.
            assert bytes(reply.view) == await _view(api, table, seat, reply.version)
            doc = msgspec.json.decode(reply.view)
            assert doc["seat"] == seat and doc["version"] >= reply.version
            # No other seat's secret: its hand is that seat's own, and no card of it
            # is in another seat's hand.
            others = [msgspec.json.decode(await _view(api, table, s)) for s in range(3) if s != seat]
            for other in others:
                assert other["seat"] != seat
                assert not set(doc["view"]["hand"] or ()) & set(other["view"]["hand"] or ())
                assert doc["legal"] == [] or other["legal"] == []  # one seat acts at a time
            moves += 1
        assert moves > 0 and doc["result"] is not None


async def test_a_duplicate_answers_with_the_current_view(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        table = await _open(api, 2)
        first = msgspec.json.decode(await _view(api, table, 0))
        seat = first["actors"][0]
        mine = msgspec.json.decode(await _view(api, table, seat, first["version"]))
        key = uuid.uuid4().hex
        move = {"command": expand(mine["legal"])[0], "expected_version": mine["version"], "view": True}
        accepted = _reply((await _move(api, table, seat, move, key)).content)
        # The table moves on: the other seat plays.
        other = 1 - seat
        theirs = msgspec.json.decode(await _view(api, table, other, accepted.version))
        later = await _move(
            api,
            table,
            other,
            {"command": expand(theirs["legal"])[0], "expected_version": theirs["version"], "view": True},
        )
        assert later.status_code == 200, later.text
        again = await _move(api, table, seat, move, key)
        assert again.status_code == 200, again.text
        retry = _reply(again.content)
        assert retry.duplicate and retry.version == accepted.version
        assert retry.view
        current = await _view(api, table, seat, _reply(later.content).version)
        assert bytes(retry.view) == current
        # Without asking, the reply is as it always was.
        plain = await _move(api, table, seat, {**move, "view": False}, key)
        assert plain.status_code == 200 and "view" not in plain.json()


async def test_a_rejected_move_answers_as_before_and_changes_nothing(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        table = await _open(api, 2)
        spectator = msgspec.json.decode(await _view(api, table, None))
        seat = spectator["actors"][0]
        mine = msgspec.json.decode(await _view(api, table, seat, spectator["version"]))
        before = [await _view(api, table, s) for s in (None, 0, 1)]
        stale = await _move(
            api,
            table,
            seat,
            {"command": expand(mine["legal"])[0], "expected_version": mine["version"] - 1, "view": True},
        )
        assert stale.status_code == 409 and stale.json()["code"] == "stale_version", stale.text
        not_yours = await _move(
            api,
            table,
            1 - seat,
            {"command": expand(mine["legal"])[0], "expected_version": mine["version"], "view": True},
        )
        assert not_yours.status_code == 422, not_yours.text
        bad_token = await api.post(
            f"/v1/tables/{table.table_id}/commands",
            json={"command": expand(mine["legal"])[0], "view": True},
            headers=botclient.auth("not-a-seat-token"),
        )
        assert bad_token.status_code in (401, 403) and bad_token.json()["code"] == "bad_token"
        for r in (stale, not_yours, bad_token):
            assert set(r.json()) == {"status", "code", "message", "details"}, r.text
        assert [await _view(api, table, s) for s in (None, 0, 1)] == before
        # And the move, sent as it should have been, is still the one the table awaits.
        accepted = await _move(
            api,
            table,
            seat,
            {"command": expand(mine["legal"])[0], "expected_version": mine["version"], "view": True},
        )
        assert accepted.status_code == 200, accepted.text
        assert _reply(accepted.content).version > mine["version"]
