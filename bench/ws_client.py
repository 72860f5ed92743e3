"""A lean WebSocket client for the load driver: the Sans-I/O protocol of
``websockets`` (the library uvicorn's own WebSocket support is built on, with
its C masking) on a plain asyncio protocol, so a message costs the driver a
frame's parsing and no task or queue of its own.

``await Socket.open(url, on_message)`` connects and completes the handshake;
each text or binary message the server sends is handed to ``on_message`` as
bytes, in order, from the event loop's callback.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from websockets.client import ClientProtocol
from websockets.frames import Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

_DATA = (Opcode.TEXT, Opcode.BINARY)


class SocketClosed(Exception):
    pass


class Socket(asyncio.Protocol):
    def __init__(
        self, url: str, on_message: Callable[[bytes], None], on_lost: Callable[[], None] | None = None
    ) -> None:
        self.conn = ClientProtocol(parse_uri(url), max_size=None)
        self.on_message = on_message
        self.on_lost = on_lost
        self.transport: Any = None
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.closed = False

    @classmethod
    async def open(
        cls,
        url: str,
        on_message: Callable[[bytes], None],
        on_lost: Callable[[], None] | None = None,
        timeout_s: float = 30.0,
    ) -> Socket:
        uri = parse_uri(url)
        loop = asyncio.get_running_loop()
        _, socket = await loop.create_connection(lambda: cls(url, on_message, on_lost), uri.host, uri.port)
        await asyncio.wait_for(socket.opened, timeout_s)
        return socket

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        self.conn.send_request(self.conn.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        self.conn.receive_data(data)
        for event in self.conn.events_received():
            if isinstance(event, Response):
                if event.status_code == 101 and not self.opened.done():
                    self.opened.set_result(None)
                elif not self.opened.done():
                    self.opened.set_exception(SocketClosed(f"handshake answered {event.status_code}"))
            elif event.opcode in _DATA:
                self.on_message(bytes(event.data))
        self._flush()  # pongs, the close handshake

    def send(self, message: bytes) -> None:
        if self.closed:
            raise SocketClosed("the connection is closed")
        self.conn.send_text(message)
        self._flush()

    def _flush(self) -> None:
        data = self.conn.data_to_send()
        if data and self.transport is not None and not self.transport.is_closing():
            self.transport.write(b"".join(data))

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if not self.opened.done():
            self.opened.set_exception(SocketClosed(f"connection lost: {exc!r}"))
        if self.on_lost is not None:
            self.on_lost()

    def close(self) -> None:
        if not self.closed and self.transport is not None:
            self.conn.send_close(1000)
            self._flush()
            self.transport.close()
        self.closed = True
