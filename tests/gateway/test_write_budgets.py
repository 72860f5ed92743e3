"""Write budgets and aggregate bounds, against a real stack.

Writes other than moves and openings count against their caller's budget (a
player, an organiser token, a seat token) and, apart, their client address's
(services/gateway/ratelimit.py, ``Limits.write``); the aggregates a client can
grow are bounded by the pure rules (entries per tournament, members per arena,
pending invitations per player). The stack here has the budgets and bounds set
low (``LIMITS``, with no refill to speak of, so nothing below depends on time):
one key or one address that floods is refused ``429 rate_limited`` with
``Retry-After`` while another key and another address still write, and each
bound refuses with its stable code and changes nothing. Every client speaks from
a loopback address of its own (tests/gateway/clients.py), as clients on the
internet would. The defaults and what a client sees are in docs/reliability.md
("Write budgets and aggregate bounds").
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
import pytest_asyncio
import redis.asyncio as aioredis

from shared.infra.launcher import Stack
from shared.infra.settings import UNTHROTTLED, Settings
from shared.players.keys import player_hosting, player_invitations
from tests.gateway.clients import async_client, fresh_address
from tests.support.accounts import bearer
from tests.support.stacks import running_stack

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("write-budgets"), pytest.mark.timeout(300)]

#: Writes a caller, and an address, may make before the budget refuses.
PER_CALLER = 6
PER_ADDRESS = 20
ENTRIES = 3
MEMBERS = 2
PENDING = 2
LIMITS = {
    **UNTHROTTLED,
    # A refill far slower than any test here: what was spent stays spent.
    "ZIGGURAT_WRITE_RATE_PER_S": "0.0001",
    "ZIGGURAT_WRITE_BURST": str(PER_CALLER),
    "ZIGGURAT_ADDRESS_WRITE_RATE_PER_S": "0.0001",
    "ZIGGURAT_ADDRESS_WRITE_BURST": str(PER_ADDRESS),
    "ZIGGURAT_MAX_TOURNAMENT_ENTRIES": str(ENTRIES),
    "ZIGGURAT_MAX_ARENA_MEMBERS": str(MEMBERS),
    "ZIGGURAT_MAX_PENDING_INVITATIONS": str(PENDING),
}


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    yield from running_stack(tmp_path_factory, "write-budgets", env=LIMITS)


@pytest_asyncio.fixture
async def store(stack: Stack) -> AsyncIterator[Any]:
    client = aioredis.Redis.from_url(str(stack.redis_url))
    try:
        yield client
    finally:
        await client.aclose()


def client(stack: Stack) -> httpx.AsyncClient:
    """A client from a loopback address nobody else has used: a budget of its own."""
    return async_client(stack.api, fresh_address(), timeout=30)


async def account(api: httpx.AsyncClient, name: str) -> tuple[str, str]:
    r = await api.post("/v1/players", json={"name": name, "bot": True})
    assert r.status_code == 201, r.text
    return r.json()["player_id"], r.json()["player_key"]


def throttled(r: httpx.Response, what: str) -> None:
    """The documented refusal: 429 rate_limited, when to come back, and which budget."""
    assert r.status_code == 429, r.text
    body = r.json()
    assert body["code"] == "rate_limited", body
    assert int(r.headers["retry-after"]) == body["details"]["retry_after_s"] >= 1
    assert what in body["message"], body


def refused(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert (r.status_code, r.json().get("code")) == (status, code), r.text
    details: dict[str, Any] = r.json()["details"]
    return details


async def arena(api: httpx.AsyncClient, seats: int = 4) -> str:
    """An arena of more seats than it may have members: nobody is ever seated, so its
    members are all these tests see."""
    r = await api.post("/v1/arenas", json={"game": "highcard", "seats": seats, "seconds": 600})
    assert r.status_code == 201, r.text
    return str(r.json()["arena_id"])


async def lines(api: httpx.AsyncClient, arena_id: str) -> list[dict[str, Any]]:
    r = await api.get(f"/v1/arenas/{arena_id}")
    assert r.status_code == 200, r.text
    found: list[dict[str, Any]] = r.json()["lines"]
    return found


async def test_one_key_flooding_writes_is_refused_and_another_key_still_writes(stack: Stack) -> None:
    async with client(stack) as api, client(stack) as elsewhere:
        flooder, flooder_key = await account(api, "Flooder")
        _, neighbour_key = await account(api, "Neighbour")
        arena_id = await arena(api)
        # Join and leave, again and again: every one a write of the same key.
        for n in range(PER_CALLER):
            action = "join" if n % 2 == 0 else "leave"
            r = await api.post(f"/v1/arenas/{arena_id}/{action}", headers=bearer(flooder_key))
            assert r.status_code == 200, (n, r.text)
        before = await lines(api, arena_id)
        r = await api.post(f"/v1/arenas/{arena_id}/join", headers=bearer(flooder_key))
        throttled(r, "from this key")
        assert await lines(api, arena_id) == before, "a refused write changed the arena"
        # The key's budget is the key's wherever it writes from; the address's
        # neighbour, with a key of its own, is not held back by it.
        throttled(await elsewhere.post(f"/v1/arenas/{arena_id}/join", headers=bearer(flooder_key)), "key")
        joined = await api.post(f"/v1/arenas/{arena_id}/join", headers=bearer(neighbour_key))
        assert joined.status_code == 200, joined.text
        assert flooder not in {line["player_id"] for line in await lines(api, arena_id) if line["waiting"]}


async def test_one_address_flooding_writes_is_refused_and_another_address_still_writes(stack: Stack) -> None:
    async with client(stack) as api, client(stack) as elsewhere:
        players = [await account(api, f"Crowd {n}") for n in range(PER_ADDRESS + 1)]
        # Each player rotates its key once (well inside its own budget): the address's
        # budget is what runs out.
        for player_id, key in players[:PER_ADDRESS]:
            r = await api.post(f"/v1/players/{player_id}/key", headers=bearer(key))
            assert r.status_code == 200, r.text
        last_id, last_key = players[-1]
        throttled(await api.post(f"/v1/players/{last_id}/key", headers=bearer(last_key)), "from this address")
        # Refused before anything changed: the old key still works, from another address.
        rotated = await elsewhere.post(f"/v1/players/{last_id}/key", headers=bearer(last_key))
        assert rotated.status_code == 200, rotated.text


async def test_an_organiser_token_has_a_budget_of_its_own(stack: Stack) -> None:
    async with client(stack) as api, client(stack) as other_address:
        tokens = []
        for _ in range(2):
            r = await api.post("/v1/tournaments", json={"game": "highcard", "rounds": 1})
            assert r.status_code == 201, r.text
            tokens.append((r.json()["tournament_id"], r.json()["organiser_token"]))
        (tid, token), (other_tid, other_token) = tokens
        # Refused commands are writes too: a budget spent on starts that cannot start.
        for _ in range(PER_CALLER):
            r = await api.post(f"/v1/tournaments/{tid}/start", headers=bearer(token))
            refused(r, 422, "not_enough_players")
        throttled(await api.post(f"/v1/tournaments/{tid}/start", headers=bearer(token)), "from this key")
        throttled(await other_address.post(f"/v1/tournaments/{tid}/finish", headers=bearer(token)), "key")
        body = {"name": "Someone"}
        ok = await api.post(f"/v1/tournaments/{other_tid}/players", json=body, headers=bearer(other_token))
        assert ok.status_code == 201, ok.text


async def test_a_tournament_takes_at_most_its_entries(stack: Stack) -> None:
    async with client(stack) as api:
        r = await api.post("/v1/tournaments", json={"game": "highcard", "rounds": 1})
        tid, organiser = r.json()["tournament_id"], bearer(r.json()["organiser_token"])
        for n in range(ENTRIES - 1):
            r = await api.post(f"/v1/tournaments/{tid}/players", json={"name": f"P{n}"}, headers=organiser)
            assert r.status_code == 201, r.text
        player_id, key = await account(api, "Joiner")
        joined = await api.post(f"/v1/tournaments/{tid}/join", headers=bearer(key))
        assert joined.status_code == 201, joined.text
        before = (await api.get(f"/v1/tournaments/{tid}/log")).json()["events"]

        full = await api.post(f"/v1/tournaments/{tid}/players", json={"name": "Late"}, headers=organiser)
        assert refused(full, 409, "tournament_full") == {"limit": ENTRIES}
        assert "the most it takes" in full.json()["message"]
        _, late_key = await account(api, "Late joiner")
        refused(
            await api.post(f"/v1/tournaments/{tid}/join", headers=bearer(late_key)), 409, "tournament_full"
        )
        # A withdrawal keeps its entry (it has standings): still full.
        out = await api.post(f"/v1/tournaments/{tid}/players/{player_id}/withdraw", headers=organiser)
        assert out.status_code == 200, out.text
        again = await api.post(f"/v1/tournaments/{tid}/players", json={"name": "Later"}, headers=organiser)
        refused(again, 409, "tournament_full")
        after = (await api.get(f"/v1/tournaments/{tid}/log")).json()["events"]
        assert [e["event"]["type"] for e in after[len(before) :]] == ["tournament.withdrew"]


async def test_an_arena_takes_at_most_its_members(stack: Stack) -> None:
    async with client(stack) as api:
        arena_id = await arena(api)
        members = [await account(api, f"Member {n}") for n in range(MEMBERS)]
        for _, key in members:
            r = await api.post(f"/v1/arenas/{arena_id}/join", headers=bearer(key))
            assert r.status_code == 200, r.text
        _, outsider = await account(api, "Outsider")
        before = await lines(api, arena_id)
        full = await api.post(f"/v1/arenas/{arena_id}/join", headers=bearer(outsider))
        assert refused(full, 409, "arena_full") == {"limit": MEMBERS, "of": "players"}
        assert await lines(api, arena_id) == before
        # A member who leaves may come back: the bound counts players, not joins.
        first = members[0][1]
        assert (await api.post(f"/v1/arenas/{arena_id}/leave", headers=bearer(first))).status_code == 200
        refused(await api.post(f"/v1/arenas/{arena_id}/join", headers=bearer(outsider)), 409, "arena_full")
        assert (await api.post(f"/v1/arenas/{arena_id}/join", headers=bearer(first))).status_code == 200


async def test_pending_invitations_are_bounded_for_hosts_and_invitees(stack: Stack, store: Any) -> None:
    async with client(stack) as api:
        host, host_key = await account(api, "Host")
        guest, guest_key = await account(api, "Guest")
        other, other_key = await account(api, "Other host")
        spare, _ = await account(api, "Spare")

        async def invite(key: str, *players: str) -> httpx.Response:
            seats = [{"player_id": p} for p in players]
            return await api.post(
                "/v1/casual", json={"game": "highcard", "seats": seats}, headers=bearer(key)
            )

        sent = [await invite(host_key, host, guest) for _ in range(PENDING)]
        assert [r.status_code for r in sent] == [201] * PENDING, [r.text for r in sent]
        waiting = {
            guest: await store.scard(player_invitations(guest)),
            host: await store.scard(player_hosting(host)),
        }
        assert waiting == {guest: PENDING, host: PENDING}

        # The host has as many waiting as it may; the guest too, whoever invites it.
        as_host = await invite(host_key, host, spare)
        assert refused(as_host, 409, "too_many_invitations") == {"player_id": host, "limit": PENDING}
        as_guest = await invite(other_key, other, guest)
        assert refused(as_guest, 409, "too_many_invitations") == {"player_id": guest, "limit": PENDING}
        assert await store.scard(player_invitations(spare)) == 0, "a refused invitation reached its guest"
        assert await store.scard(player_hosting(other)) == 0
        assert (await store.scard(player_invitations(guest)), await store.scard(player_hosting(host))) == (
            PENDING,
            PENDING,
        )

        # Answers free the places: the guest declines one (cancelled for its host too),
        # and each side may be invited, or invite, once more.
        first = sent[0].json()["invitation_id"]
        declined = await api.post(f"/v1/casual/{first}/decline", headers=bearer(guest_key))
        assert declined.status_code == 200 and declined.json()["status"] == "cancelled", declined.text
        assert (await invite(other_key, other, guest)).status_code == 201
        # The host withdraws one of its own by declining it.
        second = sent[1].json()["invitation_id"]
        assert (await api.post(f"/v1/casual/{second}/decline", headers=bearer(host_key))).status_code == 200
        assert (await invite(host_key, host, spare)).status_code == 201


def test_the_refusals_above_come_from_the_lowered_settings() -> None:
    """The defaults sit above what this stack was given, so each refusal above is
    the setting's doing: a setting the gateway or the service ignored would fail there."""
    defaults = Settings()
    assert defaults.max_tournament_entries > ENTRIES and defaults.max_arena_members > MEMBERS
    assert defaults.max_pending_invitations > PENDING
    assert defaults.write_burst > PER_CALLER and defaults.address_write_burst > PER_ADDRESS
