"""Casual tables by invitation through the running services: a host invites a bot
account (a separate process on the bot API, which accepts) and seats one of our
bots; the rated table is played to the end and rated once among the accounts.
A declined invitation never opens a table."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from shared.infra.launcher import Stack
from shared.ladders.events import Rated
from tests.support.accounts import bearer, cli_bot, ladder_is_recomputed, page, register
from tests.support.waiting import eventually, until

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("stack"), pytest.mark.timeout(300)]


async def test_an_invited_bot_accepts_and_the_rated_table_is_rated_once(stack: Stack, tmp_path: Path) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        host_id, host_key = await register(api, "Host")
        guest_id, guest_key = await register(api, "Guest")
        seats = [{"player_id": host_id}, {"player_id": guest_id}, {"bot": "random"}]
        r = await api.post(
            "/v1/casual", json={"game": "highcard", "seats": seats, "rated": True}, headers=bearer(host_key)
        )
        assert r.status_code == 201, r.text
        invitation = r.json()
        assert invitation["status"] == "pending" and invitation["accepted"] == [host_id]
        bots = [
            cli_bot(stack, guest_key, "random", tmp_path / "guest.log"),
            cli_bot(stack, host_key, "greedy", tmp_path / "host.log"),
        ]
        try:

            async def opened() -> str | None:
                doc = (await api.get(f"/v1/casual/{invitation['invitation_id']}")).json()
                return doc["table_id"] if doc["status"] == "open" else None

            table_id = await eventually(opened, 30)
            assert table_id is not None, (tmp_path / "guest.log").read_text()

            async def over() -> bool:
                r = await api.get(f"/v1/tables/{table_id}/view")
                return r.status_code == 200 and bool(r.json()["over"])

            assert await until(over, 60), (tmp_path / "host.log").read_text()
            ladder = await eventually(lambda: _rated(stack, table_id), 30)
            assert ladder is not None
        finally:
            for proc in bots:
                proc.kill()
                proc.wait()
        (event,) = ladder
        assert {p.player_id for p in event.placings} == {host_id, guest_id}
        assert event.source == "casual"
        assert [g["table_id"] for g in (await page(api, guest_id))["games"]][:1] == [table_id]


async def _rated(stack: Stack, table_id: str) -> list[Rated] | None:
    try:
        events = (await ladder_is_recomputed(stack, "highcard"))["events"]
    except TypeError:  # no ladder yet
        return None
    mine = [e for e in events if e.table_id == table_id]
    return mine or None


async def test_a_declined_invitation_never_opens_and_a_stranger_cannot_answer(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        host_id, host_key = await register(api, "Host 2")
        guest_id, guest_key = await register(api, "Guest 2")
        _, stranger_key = await register(api, "Stranger")
        seats = [{"player_id": host_id}, {"player_id": guest_id}]
        r = await api.post("/v1/casual", json={"game": "highcard", "seats": seats}, headers=bearer(host_key))
        invitation_id = r.json()["invitation_id"]
        stranger = await api.post(f"/v1/casual/{invitation_id}/accept", headers=bearer(stranger_key))
        assert stranger.status_code == 422 and stranger.json()["code"] == "not_invited"
        declined = await api.post(f"/v1/casual/{invitation_id}/decline", headers=bearer(guest_key))
        assert declined.status_code == 200 and declined.json()["status"] == "cancelled"
        late = await api.post(f"/v1/casual/{invitation_id}/accept", headers=bearer(guest_key))
        assert late.status_code == 422 and late.json()["code"] == "invitation_cancelled"
        assert (await api.get(f"/v1/casual/{invitation_id}")).json()["table_id"] is None
