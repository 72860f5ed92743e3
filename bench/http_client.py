"""A lean HTTP/1.1 keep-alive client for the load driver.

The driver must cost far less than the server it loads, or the benchmark
measures the client: httpx spends about 0.7 ms of CPU per request here, more
than the gateway spends answering it. This client does one thing: one
request at a time on one persistent connection, parsed by httptools (the C
parser uvicorn itself uses), about 30 µs per request.
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import urlsplit

import httptools


class HttpError(Exception):
    pass


class _Protocol(asyncio.Protocol):
    def __init__(self) -> None:
        self.transport: Any = None  # uvloop's transports are not asyncio.Transport subclasses
        self.parser = httptools.HttpResponseParser(self)
        self.waiting: asyncio.Future[tuple[int, bytes]] | None = None
        self.body: list[bytes] = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.parser.feed_data(data)

    def on_body(self, body: bytes) -> None:
        self.body.append(body)

    def on_message_complete(self) -> None:
        body, self.body = b"".join(self.body), []
        if self.waiting is not None and not self.waiting.done():
            self.waiting.set_result((self.parser.get_status_code(), body))

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        if self.waiting is not None and not self.waiting.done():
            self.waiting.set_exception(HttpError(f"connection closed: {exc!r}"))


class Connection:
    """``await conn.request("GET", "/path")`` -> (status, body)."""

    def __init__(self, base_url: str, timeout_s: float = 30.0) -> None:
        url = urlsplit(base_url)
        self.host = url.hostname or "127.0.0.1"
        self.port = url.port or 80
        self.timeout_s = timeout_s
        self._host_header = f"Host: {self.host}:{self.port}\r\n".encode()
        self._protocol: _Protocol | None = None

    async def request(
        self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        protocol = await self._connected()
        head = [f"{method} {path} HTTP/1.1\r\n".encode(), self._host_header]
        if body:
            head.append(b"Content-Type: application/json\r\nContent-Length: %d\r\n" % len(body))
        for name, value in (headers or {}).items():
            head.append(f"{name}: {value}\r\n".encode())
        head.append(b"\r\n")
        loop = asyncio.get_running_loop()
        protocol.waiting = loop.create_future()
        assert protocol.transport is not None
        protocol.transport.write(b"".join(head) + body)
        try:
            return await asyncio.wait_for(protocol.waiting, self.timeout_s)
        except BaseException:
            self.close()  # a response may still arrive: never reuse a confused connection
            raise

    async def _connected(self) -> _Protocol:
        if self._protocol is None or self._protocol.transport is None:
            loop = asyncio.get_running_loop()
            _, protocol = await loop.create_connection(_Protocol, self.host, self.port)
            self._protocol = protocol
        return self._protocol

    def close(self) -> None:
        if self._protocol is not None and self._protocol.transport is not None:
            self._protocol.transport.close()
        self._protocol = None
