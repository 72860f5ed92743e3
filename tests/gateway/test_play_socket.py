"""A seat's play connection (``/v1/tables/{id}/play``, a WebSocket) against the
running system: whole games played over it, the views it carries equal to the
HTTP reads, and the hostile cases (tokens, bad input, floods, caps, a client
that stops reading, a retry over a new connection).

The whole-game tests use the stack's own gateway (uvicorn as deployed). The
cases that need small budgets or short deadlines run a gateway of their own in
this process (uvicorn, with the same options as ``python -m services.gateway``)
against the same Valkey and stages.
"""

from __future__ import annotations

import asyncio
import socket
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import msgspec
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from services.gateway.errors import status_of
from services.gateway.tables.play_socket import SocketLimits
from shared.infra.launcher import Stack
from shared.infra.settings import Settings
from tests.gateway.play_sockets import first_legal, open_table, refused, sit, ws_url
from tests.support.stacks import served_gateway

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("stack"), pytest.mark.timeout(180)]

_decode = msgspec.json.decode


async def http_view(api: str, table_id: str, token: str, min_version: int = 0) -> bytes:
    async with httpx.AsyncClient(base_url=api, timeout=30) as client:
        r = await client.get(
            f"/v1/tables/{table_id}/view",
            headers={"authorization": f"Bearer {token}"},
            params={"min_version": min_version} if min_version else None,
        )
        assert r.status_code == 200, r.text
        return r.content


async def test_a_whole_game_over_two_seats_sockets_with_pushes_equal_to_http_views(stack: Stack) -> None:
    table_id, tokens = await open_table(stack.api)
    seats, readies = zip(*[await sit(stack.api, table_id, t) for t in tokens], strict=True)
    docs = [r["view"] for r in readies]
    assert [d["seat"] for d in docs] == [0, 1]
    for s, seat in enumerate(seats):  # the first view is what a GET answers
        assert seat.views[0] == await http_view(stack.api, table_id, tokens[s], docs[s]["version"])
    moves = 0
    while not docs[0]["over"]:
        actor = docs[0]["actors"][0]
        other = 1 - actor
        mine = docs[actor]
        reply = await seats[actor].reply(
            {
                "command": first_legal(mine),
                "expected_version": mine["version"],
                "view": True,
                "idempotency_key": uuid.uuid4().hex,
            }
        )
        assert reply["type"] == "reply" and reply["http_status"] == 200, reply
        answer = reply["answer"]
        assert answer["status"] == "accepted" and answer["view"]["version"] >= answer["version"]
        moves += 1
        version = answer["version"]
        docs[actor] = answer["view"]
        # The reply's view is what the seat's GET answers at that version.
        assert seats[actor].views[-1] == await http_view(stack.api, table_id, tokens[actor], version)
        # The other seat is told without asking: a push of its own view at that version.
        while docs[other]["version"] < version:
            frame = await seats[other].next()
            assert frame["type"] == "view", frame
            docs[other] = frame["view"]
            assert docs[other]["seat"] == other
        assert seats[other].views[-1] == await http_view(stack.api, table_id, tokens[other], version)
        if not docs[actor]["over"] and docs[actor]["version"] < docs[other]["version"]:
            frame = await seats[actor].next()
            docs[actor] = frame["view"]
    assert moves >= 2 and docs[1]["over"]
    for seat in seats:
        versions = [_decode(v)["version"] for v in seat.views]
        # Each socket's views only move forward, and no view is sent twice.
        assert versions == sorted(set(versions)), versions
        assert all(_decode(v)["seat"] == seats.index(seat) for v in seat.views)
        await seat.close()


async def test_a_retry_over_a_new_connection_answers_as_a_duplicate(stack: Stack) -> None:
    table_id, tokens = await open_table(stack.api)
    seat, ready = await sit(stack.api, table_id, tokens[0])
    doc = ready["view"]
    actor = doc["actors"][0]
    if actor != 0:
        await seat.close()
        seat, ready = await sit(stack.api, table_id, tokens[actor])
        doc = ready["view"]
    body = {
        "command": first_legal(doc),
        "expected_version": doc["version"],
        "view": True,
        "idempotency_key": "k-1",
    }
    first = await seat.reply(body)
    await seat.close()  # the connection drops after the reply
    again, _ = await sit(stack.api, table_id, tokens[actor])
    second = await again.reply(body)
    assert first["answer"]["status"] == second["answer"]["status"] == "accepted"
    assert not first["answer"]["duplicate"] and second["answer"]["duplicate"]
    assert first["answer"]["version"] == second["answer"]["version"]
    # The same key over HTTP is the same command too.
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as client:
        r = await client.post(
            f"/v1/tables/{table_id}/commands",
            json={k: v for k, v in body.items() if k != "idempotency_key"},
            headers={"authorization": f"Bearer {tokens[actor]}", "idempotency-key": "k-1"},
        )
    assert r.status_code == 200 and r.json()["duplicate"], r.text
    await again.close()


# ----------------------------------------------------------------- hostile


@asynccontextmanager
async def own_gateway(stack: Stack, limits: SocketLimits, **settings: Any) -> AsyncIterator[str]:
    """A gateway in this process, as ``python -m services.gateway`` runs it."""
    values: dict[str, Any] = {
        "redis_url": stack.redis_url or "",
        "partitions": stack.partitions,
        "node": f"play-socket-test-{uuid.uuid4().hex[:6]}",
        "max_body_bytes": 4096,
        **settings,
    }
    async with served_gateway(Settings(**values), socket_limits=limits) as api:
        yield api


async def test_tokens_are_checked_before_anything_is_played(stack: Stack) -> None:
    table_id, tokens = await open_table(stack.api)
    other_table, other_tokens = await open_table(stack.api)
    limits = SocketLimits(auth_s=0.5)
    async with own_gateway(stack, limits) as api:
        url = ws_url(api, table_id)
        async with connect(url) as ws:  # nothing sent: refused at the deadline
            await refused(ws, "missing_token")
        async with connect(url) as ws:  # a command before the token
            await ws.send('{"command": {"type": "draw"}}')
            await refused(ws, "missing_token")
        async with connect(url) as ws:
            await ws.send("{not json")
            await refused(ws, "missing_token")
        async with connect(url) as ws:
            await ws.send('{"token": "forged"}')
            await refused(ws, "bad_token")
        async with connect(url) as ws:  # another table's seat token
            await ws.send(msgspec.json.encode({"token": other_tokens[0]}).decode())
            await refused(ws, "bad_token")
        async with connect(ws_url(api, "no.such.table")) as ws:
            await ws.send(msgspec.json.encode({"token": tokens[0]}).decode())
            await refused(ws, "unknown_table")
        assert other_table != table_id


async def test_bad_messages_get_the_http_codes_and_the_connection_stays(stack: Stack) -> None:
    table_id, tokens = await open_table(stack.api)
    async with own_gateway(stack, SocketLimits()) as api:
        seat, ready = await sit(api, table_id, tokens[0])
        cases: list[tuple[str | bytes, str]] = [
            ("{not json", "bad_json"),
            (b"\xff\xfe{}", "bad_json"),
            ('{"command": {"type": "draw"}, "surprise": 1}', "bad_request"),
            ('{"command": 5}', "bad_command"),
            ('{"command": {"type": "draw"}, "expected_version": -1}', "bad_request"),
            ('{"command": {"type": "draw"}, "idempotency_key": "has space"}', "bad_request"),
            ('{"command": {"type": "draw"}, "pad": "' + "x" * 5000 + '"}', "body_too_large"),
        ]
        for message, code in cases:
            await seat.ws.send(message)
            frame = await seat.next()
            assert frame["type"] == "reply" and frame["answer"]["code"] == code, (message, frame)
            assert frame["http_status"] == status_of(code)
        # Far beyond the message limit: the protocol closes the connection (1009).
        await seat.ws.send("x" * 20_000)
        with pytest.raises((ConnectionClosed, asyncio.TimeoutError)):
            await seat.next(5)
        assert seat.ws.close_code == 1009
        # A stale expected version: the POST's own rejection.
        seat, ready = await sit(api, table_id, tokens[0])
        doc = ready["view"]
        frame = await seat.reply(
            {"command": {"type": "highcard.play", "card": 1}, "expected_version": doc["version"] + 7}
        )
        assert frame["answer"]["code"] == "stale_version", frame
        await seat.close()


async def test_a_flood_is_rate_limited_with_the_http_code(stack: Stack) -> None:
    table_id, tokens = await open_table(stack.api)
    async with own_gateway(stack, SocketLimits(), rate_per_s=0.001, rate_burst=5) as api:
        seat, _ = await sit(api, table_id, tokens[0])
        codes = []
        for _ in range(12):
            frame = await seat.reply({"command": {"type": "nonsense"}})
            codes.append(frame["answer"]["code"])
        assert codes[-1] == "rate_limited" and codes.count("rate_limited") >= 6, codes
        assert frame["http_status"] == 429 and frame["answer"]["details"]["retry_after_s"] >= 1
        await seat.close()


async def test_connection_caps_per_seat_and_per_address(stack: Stack) -> None:
    table_id, tokens = await open_table(stack.api, seats=3)
    async with own_gateway(stack, SocketLimits(per_seat=2), play_per_address=4) as api:
        first = [await sit(api, table_id, tokens[0]) for _ in range(2)]
        async with connect(ws_url(api, table_id)) as ws:
            await ws.send(msgspec.json.encode({"token": tokens[0]}).decode())
            await refused(ws, "too_many_connections")
        second = [await sit(api, table_id, tokens[1]) for _ in range(2)]
        async with connect(ws_url(api, table_id)) as ws:  # this address's cap, whatever the seat
            await ws.send(msgspec.json.encode({"token": tokens[2]}).decode())
            await refused(ws, "too_many_connections")
        await first[0][0].close()
        for _ in range(50):  # the closed connection's place frees once the server sees the close
            third, _ = (
                await sit(api, table_id, tokens[2]) if await _room(api, table_id, tokens[2]) else (None, None)
            )
            if third is not None:
                await third.close()
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("a closed connection's place never came back")
        for seat, _ in [*first[1:], *second]:
            await seat.close()


async def _room(api: str, table_id: str, token: str) -> bool:
    ws = await connect(ws_url(api, table_id))
    try:
        await ws.send(msgspec.json.encode({"token": token}).decode())
        frame = _decode(await asyncio.wait_for(ws.recv(), 15))
        return bool(frame["type"] == "ready")
    finally:
        await ws.close()


async def test_a_client_that_stops_reading_holds_up_nobody(stack: Stack) -> None:
    """A second connection of seat 1 whose client never reads, while both seats keep
    playing over their own: their replies and pushes keep coming."""
    table_id, tokens = await open_table(stack.api, options={"hand_size": 12, "deck_size": 30})
    async with own_gateway(stack, SocketLimits(send_timeout_s=0.5)) as api:
        host, port = api.removeprefix("http://").split(":")
        stalled = socket.socket()
        stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stalled.connect((host, int(port)))
        stalled.sendall(
            f"GET /v1/tables/{table_id}/play HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
            + _masked_text(msgspec.json.encode({"token": tokens[1]}))
        )
        # ... and never reads again.
        seats = [await sit(api, table_id, t) for t in tokens]
        docs = [ready["view"] for _, ready in seats]
        played = 0
        while not docs[0]["over"]:
            actor = docs[0]["actors"][0]
            frame = await seats[actor][0].reply({"command": first_legal(docs[actor]), "view": True})
            assert frame["http_status"] == 200, frame
            docs[actor] = frame["answer"]["view"]
            played += 1
            other = 1 - actor
            while docs[other]["version"] < frame["answer"]["version"]:
                docs[other] = (await seats[other][0].next(10))["view"]
        assert played == 24
        for seat, _ in seats:
            await seat.close()
        stalled.close()


def _masked_text(payload: bytes) -> bytes:
    """One client text frame (clients must mask), for the raw-socket client."""
    mask = b"\x01\x02\x03\x04"
    assert len(payload) < 126
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x81, 0x80 | len(payload)]) + mask + body


async def test_an_idle_connection_is_closed_with_a_reason(stack: Stack) -> None:
    table_id, tokens = await open_table(stack.api)
    async with own_gateway(stack, SocketLimits(idle_s=0.5)) as api:
        ws = await connect(ws_url(api, table_id))
        await ws.send(msgspec.json.encode({"token": tokens[0]}).decode())
        assert _decode(await asyncio.wait_for(ws.recv(), 15))["type"] == "ready"
        await refused(ws, "idle_timeout")
