"""A credential that ends ends everywhere (services/gateway/credentials.py).

Against a real stack with a second gateway process: a player key is rotated on
one gateway, and the play connections opened with it, on that gateway and on
the other, get the last error ``credential_revoked`` and the close 4401, with no
view of the move made right after the rotation; the old key's bot stream on the
other gateway ends with ``event: end`` though its inbox got no entry; the other
player's connection lives on; the new key plays. The gateways' periodic check
is pushed out of reach (``NO_CHECK_S``), so only the rotation's notice can end
them in time. A rotation whose notice is lost (the store changed, nothing
published) still stops the next command on an old connection.

The registry itself, on a real Valkey: the periodic check and the check on a
listener's reconnect end what a lost notice would have, the check before a
command ends every channel of a key that ended, and what a rotation publishes
is the notice the AsyncAPI document describes, which ends the channels of its
credential and no other's.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Iterator
from typing import Any, NamedTuple

import httpx
import msgspec
import pytest
from websockets.asyncio.client import ClientConnection, connect

from services.gateway.asyncapi import spec as asyncapi_spec
from services.gateway.credentials import Credentials, ended
from shared.eventstore.keys import CHANGES_CHANNEL
from shared.infra.coalesce import Coalescer
from shared.infra.launcher import Stack
from shared.infra.redis_client import connect as connect_store
from shared.infra.settings import UNTHROTTLED
from shared.infra.valkey_server import free_port
from shared.kernel.auth import token_hash
from shared.players.keys import credential_notice, inbox_counter, player_doc
from tests.gateway.play_sockets import first_legal, refused, ws_url
from tests.support.accounts import bearer, register

pytestmark = [pytest.mark.xdist_group("credentials"), pytest.mark.timeout(240)]
_decode = msgspec.json.decode
_encode = msgspec.json.encode
#: The gateways' periodic check, out of reach of every wait below: what ends a
#: channel in time here is the rotation's notice (or the per-command check).
NO_CHECK_S = 300
#: How long a channel may take to end once its key is rotated: generous for a loaded
#: machine (the notice takes milliseconds), far below ``NO_CHECK_S``, and below the
#: feed hub's sweep of its streams (``feeds.HEARTBEAT_S``), which would end a bot
#: stream without any notice.
END_WITHIN_S = 10.0


class Gateways(NamedTuple):
    #: The stack's gateway: the rotations are served here.
    here: str
    #: A second gateway process on the same store.
    there: str
    store: str


@pytest.fixture(scope="module")
def gateways(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateways]:
    env = {**UNTHROTTLED, "ZIGGURAT_CREDENTIAL_CHECK_S": str(NO_CHECK_S)}
    stack = Stack(tmp_path_factory.mktemp("credentials-stack"), partitions=4, env=env)
    stack.start()
    try:
        port = free_port()
        second = stack._proc("gateway-2", "services.gateway", port, {})
        stack.procs[second.name] = second  # stopped with the stack
        second.start()
        stack.wait_healthy(names=[second.name])
        yield Gateways(stack.api, f"http://127.0.0.1:{port}", str(stack.redis_url))
    finally:
        stack.stop()


async def hello(api: str, table_id: str, token: str) -> tuple[ClientConnection, dict[str, Any]]:
    ws = await connect(ws_url(api, table_id), max_size=None)
    await ws.send(_encode({"token": token}).decode())
    ready: dict[str, Any] = _decode(await asyncio.wait_for(ws.recv(), 30))
    assert ready["type"] == "ready", ready
    return ws, ready["view"]


async def view_at_least(ws: ClientConnection, version: int, doc: dict[str, Any]) -> dict[str, Any]:
    """Read pushes until the connection's view shows ``version``."""
    while doc["version"] < version:
        frame = _decode(await asyncio.wait_for(ws.recv(), 30))
        assert frame["type"] == "view", frame
        doc = frame["view"]
    return doc


async def move(ws: ClientConnection, doc: dict[str, Any]) -> dict[str, Any]:
    """Play the first legal move over ``ws``; the accepted answer (with its view)."""
    body = {"command": first_legal(doc), "expected_version": doc["version"], "view": True}
    await ws.send(_encode(body).decode())
    while True:
        frame = _decode(await asyncio.wait_for(ws.recv(), 30))
        if frame["type"] == "reply":
            assert frame["http_status"] == 200, frame
            answer: dict[str, Any] = frame["answer"]
            return answer


async def http_move(api: httpx.AsyncClient, table_id: str, key: str, doc: dict[str, Any]) -> int:
    """Play the first legal move with ``key`` over HTTP; the table's version after it."""
    r = await api.post(
        f"/v1/tables/{table_id}/commands",
        json={"command": first_legal(doc), "expected_version": doc["version"]},
        headers=bearer(key),
    )
    assert r.status_code == 200, r.text
    version: int = r.json()["version"]
    return version


async def casual_table(api: httpx.AsyncClient) -> tuple[str, dict[str, str], dict[str, str]]:
    """A casual table of two accounts: (table id, player ids by role, keys by role)."""
    host_id, host_key = await register(api, "Host")
    guest_id, guest_key = await register(api, "Guest")
    seats = [{"player_id": host_id}, {"player_id": guest_id}]
    body = {"game": "highcard", "seats": seats, "game_options": {"deck_size": 40, "hand_size": 10}}
    r = await api.post("/v1/casual", json=body, headers=bearer(host_key))
    assert r.status_code == 201, r.text
    r = await api.post(f"/v1/casual/{r.json()['invitation_id']}/accept", headers=bearer(guest_key))
    assert r.status_code == 200 and r.json()["status"] == "open", r.text
    table_id: str = r.json()["table_id"]
    return table_id, {"host": host_id, "guest": guest_id}, {"host": host_key, "guest": guest_key}


async def rotate(api: httpx.AsyncClient, player_id: str, key: str) -> str:
    r = await api.post(f"/v1/players/{player_id}/key", headers=bearer(key))
    assert r.status_code == 200, r.text
    new_key: str = r.json()["player_key"]
    return new_key


@pytest.mark.e2e
async def test_a_rotated_keys_play_connections_end_on_every_gateway(gateways: Gateways) -> None:
    here, there, _ = gateways
    async with httpx.AsyncClient(base_url=here, timeout=30) as api:
        table_id, ids, keys = await casual_table(api)
        old_there, host_doc = await hello(there, table_id, keys["host"])
        old_here, here_doc = await hello(here, table_id, keys["host"])
        guest_ws, guest_doc = await hello(there, table_id, keys["guest"])
        host_seat = host_doc["seat"]
        if host_doc["actors"] == [host_seat]:  # the guest is to move after the rotation
            answer = await move(old_there, host_doc)
            host_doc = answer["view"]
            here_doc = await view_at_least(old_here, answer["version"], here_doc)
            guest_doc = await view_at_least(guest_ws, answer["version"], guest_doc)
        assert guest_doc["actors"] == [guest_doc["seat"]]
        # Every connection holds the newest view: any view that comes now is news.
        assert host_doc["version"] == here_doc["version"] == guest_doc["version"]

        new_key = await rotate(api, ids["host"], keys["host"])
        # A move right after the rotation's answer: its notice follows the rotation's.
        after = await http_move(api, table_id, keys["guest"], guest_doc)

        # The last message of each old connection is the refusal: no view of that move.
        for ws in (old_there, old_here):
            async with asyncio.timeout(END_WITHIN_S):
                await refused(ws, "credential_revoked")
            assert ws.close_code == 4401
        # The other player's connection lives on and is told of the move.
        guest_doc = await view_at_least(guest_ws, after, guest_doc)

        # The old key opens nothing any more; the new one plays.
        stale = await connect(ws_url(there, table_id))
        await stale.send(_encode({"token": keys["host"]}).decode())
        await refused(stale, "bad_token")
        fresh, doc = await hello(there, table_id, new_key)
        doc = await view_at_least(fresh, after, doc)
        assert doc["seat"] == host_seat
        while doc["actors"] != [host_seat]:  # the guest took the trick: it leads again
            answer = await move(guest_ws, guest_doc)
            after, guest_doc = answer["version"], answer["view"]
            doc = await view_at_least(fresh, after, doc)
        answer = await move(fresh, doc)
        assert answer["status"] == "accepted" and answer["version"] > after
        await fresh.close()
        await guest_ws.close()


async def bot_stream_events(api: str, key: str, started: asyncio.Event) -> list[str]:
    """Each event of a bot stream (``id`` for a bare id), until the stream ends."""
    events: list[str] = []
    async with (
        httpx.AsyncClient(base_url=api, timeout=60) as client,
        client.stream("GET", "/v1/bot/stream", headers=bearer(key)) as r,
    ):
        assert r.status_code == 200
        started.set()
        kind, has_id = "", False
        async for line in r.aiter_lines():
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("id: "):
                has_id = True
            elif not line and (kind or has_id):
                events.append(kind or "id")
                kind, has_id = "", False
    return events


@pytest.mark.e2e
async def test_a_rotated_keys_idle_bot_stream_ends_on_another_gateway(gateways: Gateways) -> None:
    here, there, store_url = gateways
    async with httpx.AsyncClient(base_url=here, timeout=30) as api:
        player_id, key = await register(api, "Idle bot")  # sits nowhere: its inbox stays empty
        started = asyncio.Event()
        stream = asyncio.create_task(bot_stream_events(there, key, started))
        await asyncio.wait_for(started.wait(), 30)
        store = connect_store(store_url)
        try:
            entries = await store.get(inbox_counter(player_id))
            new_key = await rotate(api, player_id, key)
            events = await asyncio.wait_for(stream, END_WITHIN_S)
            assert events == ["end"]
            assert await store.get(inbox_counter(player_id)) == entries  # no entry woke it
        finally:
            await store.aclose()
        again = await api.get("/v1/bot/stream", headers=bearer(key))
        assert again.status_code == 403 and again.json()["code"] == "bad_token"
    # The new key's stream is served (and lives on until this client leaves).
    started = asyncio.Event()
    stream = asyncio.create_task(bot_stream_events(there, new_key, started))
    await asyncio.wait_for(started.wait(), 30)
    assert not stream.done()
    stream.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await stream


@pytest.mark.e2e
async def test_a_rotation_whose_notice_is_lost_still_stops_the_next_command(gateways: Gateways) -> None:
    here, _, store_url = gateways
    async with httpx.AsyncClient(base_url=here, timeout=30) as api:
        table_id, ids, keys = await casual_table(api)
        ws, doc = await hello(here, table_id, keys["host"])
        guest, guest_doc = await hello(here, table_id, keys["guest"])
        if doc["actors"] != [doc["seat"]]:  # the host is to move next
            answer = await move(guest, guest_doc)
            doc = await view_at_least(ws, answer["version"], doc)
        await guest.close()
        # The account moves on to another key, and no gateway is told.
        store = connect_store(store_url)
        try:
            await store.hset(player_doc(ids["host"]), "key_hash", token_hash("zpk_another"))
        finally:
            await store.aclose()
        await ws.send(_encode({"command": first_legal(doc), "expected_version": doc["version"]}).decode())
        await refused(ws, "credential_revoked")
        r = await api.get(f"/v1/tables/{table_id}/view")
        assert r.status_code == 200 and r.json()["version"] == doc["version"]  # nothing was played


# ---------------------------------------------------------------- the registry


class Closing:
    """A channel as the registry sees one: it records that it was ended."""

    def __init__(self) -> None:
        self.ended = asyncio.Event()

    def end(self) -> None:
        self.ended.set()


class Silent:
    """A listener connection that hears nothing (every notice lost) until told."""

    def __init__(self) -> None:
        self.listeners: list[Any] = []

    def listen(self, listener: Any) -> None:
        self.listeners.append(listener)

    def reconnected(self) -> None:
        for listener in self.listeners:
            listener(None)

    def heard(self, notice: str) -> None:
        """A message of the change channel, as the gateway's listener tells it: the ids it names."""
        for listener in self.listeners:
            listener([line.split(" ", 1)[0] for line in notice.split("\n")])


@contextlib.asynccontextmanager
async def registry(redis: Any, changes: Any, check_s: float) -> AsyncIterator[Credentials]:
    credentials = Credentials(Coalescer(redis), changes, check_s)
    await credentials.start()
    try:
        yield credentials
    finally:
        await credentials.stop()


async def keys_of(redis: Any, *players: str) -> dict[str, str]:
    """A current key's hash for each player, as a rotation leaves the account."""
    hashes = {p: token_hash(f"zpk_{p}") for p in players}
    for player_id, hashed in hashes.items():
        await redis.hset(player_doc(player_id), "key_hash", hashed)
    return hashes


@pytest.mark.integration
async def test_the_periodic_check_ends_what_a_lost_notice_would_have(redis: Any) -> None:
    hashes = await keys_of(redis, "plrotated", "plkept")
    rotated, kept = Closing(), Closing()
    async with registry(redis, Silent(), check_s=0.2) as credentials:
        credentials.hold(hashes["plrotated"], rotated)
        credentials.player_key(hashes["plrotated"], "plrotated")
        credentials.hold(hashes["plkept"], kept)
        credentials.player_key(hashes["plkept"], "plkept")
        await credentials.check()
        assert not rotated.ended.is_set() and not kept.ended.is_set()
        await redis.hset(player_doc("plrotated"), "key_hash", token_hash("zpk_new"))
        await asyncio.wait_for(rotated.ended.wait(), 30)
        await asyncio.sleep(0.5)  # a few more rounds: the current key's channel stays
        assert not kept.ended.is_set()


@pytest.mark.integration
async def test_a_listener_that_reconnects_has_every_key_checked_at_once(redis: Any) -> None:
    hashes = await keys_of(redis, "plgone")
    gone = Closing()
    listener = Silent()
    async with registry(redis, listener, check_s=NO_CHECK_S) as credentials:
        with credentials.holding(hashes["plgone"], gone, "plgone"):
            await redis.hset(player_doc("plgone"), "key_hash", token_hash("zpk_new"))
            listener.reconnected()  # what Changes says when it subscribes again
            await asyncio.wait_for(gone.ended.wait(), 30)


@pytest.mark.integration
async def test_the_check_before_a_command_ends_the_keys_channels(redis: Any) -> None:
    hashes = await keys_of(redis, "plcmd")
    first, second = Closing(), Closing()
    async with registry(redis, Silent(), check_s=NO_CHECK_S) as credentials:
        credentials.hold(hashes["plcmd"], first)
        credentials.hold(hashes["plcmd"], second)
        assert await credentials.current(hashes["plcmd"], "plcmd")
        assert not first.ended.is_set()
        await redis.hset(player_doc("plcmd"), "key_hash", token_hash("zpk_new"))
        assert not await credentials.current(hashes["plcmd"], "plcmd")
        assert first.ended.is_set() and second.ended.is_set()


@pytest.mark.integration
async def test_the_notice_is_the_documented_one_and_ends_only_its_credentials_channels(redis: Any) -> None:
    hashes = await keys_of(redis, "plnoticed", "plother")
    changes = asyncapi_spec()["channels"]["changes"]
    pattern = changes["messages"]["CredentialNotice"]["payload"]["pattern"]
    pubsub = redis.pubsub()
    await pubsub.subscribe(CHANGES_CHANNEL)
    try:
        await ended(redis, [hashes["plnoticed"]])
        notice = await asyncio.wait_for(_published(pubsub), 30)
    finally:
        await pubsub.aclose()
    assert re.match(pattern, notice) and notice == f"{credential_notice(hashes['plnoticed'])} 0"
    listener = Silent()
    noticed, other = Closing(), Closing()
    async with registry(redis, listener, check_s=NO_CHECK_S) as credentials:
        credentials.hold(hashes["plnoticed"], noticed)
        credentials.hold(hashes["plother"], other)
        listener.heard(notice)
        assert noticed.ended.is_set() and not other.ended.is_set()


async def _published(pubsub: Any) -> str:
    """The next message on the channel ``pubsub`` is subscribed to."""
    while True:
        message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
        if message is not None:
            text: str = message["data"].decode()
            return text
