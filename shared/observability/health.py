"""``/health``, ``/ready`` and ``/metrics`` over plain HTTP for services without a web app.

Deliberately tiny (asyncio streams, no framework): it must keep answering
while the service is busy, and it must cost nothing when nobody asks.

``/health`` is liveness: the process runs and has not begun to stop. It never
touches Redis, so an outage of the store never gets healthy processes
restarted. ``/ready`` is readiness: it answers 503 with the reasons when the
service cannot do its work (the store is unreachable). ``/metrics`` serves the
service's own registry only, so a scrape shows what this process measures.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest

from shared.infra.redis_client import reachable

#: Readiness: the reasons the service cannot work now (empty when ready).
Readiness = Callable[[], Awaitable[list[str]]]
PING_TIMEOUT_S = 1.0


def store_readiness(redis: Any) -> Readiness:
    """The store answers: on a cluster, any node of it (one shard failing over
    leaves the others' partitions to serve, so no process goes out of service)."""

    async def problems() -> list[str]:
        try:
            if not await reachable(redis, PING_TIMEOUT_S):
                return ["no node of the store answers"]
        except Exception as exc:
            return [f"the store is unreachable ({type(exc).__name__})"]
        return []

    return problems


class Ready(msgspec.Struct, kw_only=True):
    """Readiness: ready is true exactly when problems is empty."""

    ready: bool
    problems: list[str]


def ready_body(problems: list[str]) -> bytes:
    return msgspec.json.encode(Ready(ready=not problems, problems=problems))


async def serve(
    host: str, port: int, alive: Callable[[], bool], ready: Readiness, registry: CollectorRegistry
) -> asyncio.Server:
    """``registry``: the service's own metrics (:func:`shared.observability.metrics.registry`)."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            request = await asyncio.wait_for(reader.readline(), timeout=5)
            path = request.split(b" ")[1] if request.count(b" ") >= 2 else b"/"
            if path.startswith(b"/metrics"):
                status, ctype, body = b"200 OK", CONTENT_TYPE_LATEST.encode(), generate_latest(registry)
            elif path.startswith(b"/health"):
                ok = alive()
                status = b"200 OK" if ok else b"503 Service Unavailable"
                ctype, body = b"application/json", b'{"ok":true}' if ok else b'{"ok":false}'
            elif path.startswith(b"/ready"):
                problems = await ready() if alive() else ["stopping"]
                status = b"503 Service Unavailable" if problems else b"200 OK"
                ctype, body = b"application/json", ready_body(problems)
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
