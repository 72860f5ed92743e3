"""One socket write per HTTP response instead of two.

uvicorn writes a response's status line and headers as soon as the app starts
the response, and the body as a second write. On loopback each write is a
system call that also wakes the reader, so a small JSON response costs two
wake-ups of the client. This transport collects the writes made during one
turn of the event loop and sends them together at its end; a handler that
streams (server-sent events) still has each chunk sent in the turn it was
written.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class CoalescingTransport:
    def __init__(self, transport: Any, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._pending: list[bytes] = []

    def write(self, data: bytes) -> None:
        if not self._pending:
            self._loop.call_soon(self._flush)
        self._pending.append(data)

    def _flush(self) -> None:
        if not self._pending:
            return
        data = b"".join(self._pending)
        self._pending.clear()
        if not self._transport.is_closing():
            self._transport.write(data)

    def close(self) -> None:
        self._flush()
        self._transport.close()

    def __getattr__(self, name: str) -> Any:
        # Everything but writing and closing is the real transport's.
        return getattr(self._transport, name)


class GatewayHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol on a :class:`CoalescingTransport`."""

    def connection_made(self, transport: Any) -> None:  # type: ignore[override]
        super().connection_made(CoalescingTransport(transport, self.loop))
