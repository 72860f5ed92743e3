"""``/health`` and ``/metrics`` over plain HTTP for services without a web app.

Deliberately tiny (asyncio streams, no framework): it must keep answering
while the service is busy, and it must cost nothing when nobody asks.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from prometheus_client import CONTENT_TYPE_LATEST, generate_latest


async def serve(host: str, port: int, healthy: Callable[[], bool]) -> asyncio.Server:
    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            request = await asyncio.wait_for(reader.readline(), timeout=5)
            path = request.split(b" ")[1] if request.count(b" ") >= 2 else b"/"
            if path.startswith(b"/metrics"):
                status, ctype, body = b"200 OK", CONTENT_TYPE_LATEST.encode(), generate_latest()
            elif path.startswith(b"/health"):
                ok = healthy()
                status = b"200 OK" if ok else b"503 Service Unavailable"
                ctype, body = b"application/json", b'{"ok":true}' if ok else b'{"ok":false}'
            else:
                status, ctype, body = b"404 Not Found", b"text/plain", b"not found"
            writer.write(
                b"HTTP/1.1 " + status + b"\r\nContent-Type: " + ctype
                + b"\r\nContent-Length: " + str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n" + body
            )  # fmt: skip
            await writer.drain()
        except (TimeoutError, ConnectionError, IndexError):
            pass
        finally:
            writer.close()

    return await asyncio.start_server(handle, host, port)
