"""A seat's play connection (``/v1/tables/{id}/play``) as the gateway tests drive
it: the socket's address, a high card table to sit at, a seat that keeps every
frame it receives (and every view as its exact bytes), and the last words of a
refusal."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import httpx
import msgspec
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from services.gateway.errors import status_of
from services.gateway.tables.play_socket import CLOSE_BASE
from shared.kernel.legal_groups import expand

_decode = msgspec.json.decode


def first_legal(doc: dict[str, Any]) -> Any:
    return expand(doc["legal"])[0]


def ws_url(api: str, table_id: str) -> str:
    return api.replace("http://", "ws://") + f"/v1/tables/{table_id}/play"


async def open_table(
    api: str, seats: int = 2, options: dict[str, Any] | None = None
) -> tuple[str, list[str]]:
    async with httpx.AsyncClient(base_url=api, timeout=30) as client:
        r = await client.post(
            "/v1/tables", json={"game": "highcard", "seats": seats, "options": options or {}}
        )
        assert r.status_code == 201, r.text
        body = r.json()
        return body["table_id"], [t["token"] for t in body["tokens"]]


class Seat:
    """One seat's connection; every frame it receives is kept, in order."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.frames: asyncio.Queue[bytes] = asyncio.Queue()
        self.views: list[bytes] = []  # every view received, as its exact bytes
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for frame in self.ws:
                raw = frame.encode() if isinstance(frame, str) else frame
                self.frames.put_nowait(raw)

    async def next(self, within_s: float = 15.0) -> dict[str, Any]:
        raw = await asyncio.wait_for(self.frames.get(), within_s)
        frame: dict[str, Any] = _decode(raw)
        if frame.get("view") is not None:
            self.views.append(_raw_view(raw))
        elif frame.get("answer", {}).get("view") is not None:
            self.views.append(_raw_view(raw, "answer"))
        return frame

    async def reply(self, body: dict[str, Any]) -> dict[str, Any]:
        """Send a command; its reply (the pushes before it are kept in ``views``)."""
        await self.ws.send(msgspec.json.encode(body).decode())
        while True:
            frame = await self.next()
            if frame["type"] != "view":
                return frame

    async def close(self) -> None:
        await self.ws.close()
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader


class _Frame(msgspec.Struct):
    view: msgspec.Raw = msgspec.Raw()


class _Replied(msgspec.Struct):
    answer: _Frame


def _raw_view(raw: bytes, where: str = "") -> bytes:
    return bytes(_decode(raw, type=_Replied).answer.view if where else _decode(raw, type=_Frame).view)


async def sit(api: str, table_id: str, token: str) -> tuple[Seat, dict[str, Any]]:
    seat = Seat(await connect(ws_url(api, table_id), max_size=None))
    await seat.ws.send(msgspec.json.encode({"token": token}).decode())
    ready = await seat.next()
    assert ready["type"] == "ready", ready
    return seat, ready


async def refused(ws: ClientConnection, code: str) -> dict[str, Any]:
    """The last message and the close of a refusal with ``code``."""
    frame: dict[str, Any] = _decode(await asyncio.wait_for(ws.recv(), 15))
    assert frame["type"] == "error" and frame["answer"]["code"] == code, frame
    assert frame["http_status"] == status_of(code) and frame["answer"]["message"]
    with pytest.raises(ConnectionClosed):
        await asyncio.wait_for(ws.recv(), 15)
    assert ws.close_code == CLOSE_BASE + status_of(code) and ws.close_reason == code
    return frame
