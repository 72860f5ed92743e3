"""The output guard cuts a connection that keeps growing while its client does not
read, never one large answer to a client that reads it (a long game's audit log
is megabytes): a gateway whose output cap is far below the answer's size still
delivers it whole, and still cuts the client that reads nothing."""

from __future__ import annotations

import asyncio
import socket
import time
import uuid
from collections.abc import AsyncIterator

import httpx
import pytest

from shared.infra.settings import Settings
from shared.infra.valkey_server import ValkeyServer
from tests.support.stacks import served_gateway

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]
CAP = 16 * 1024


@pytest.fixture
async def gateway(valkey: ValkeyServer) -> AsyncIterator[str]:
    settings = Settings(
        redis_url=valkey.url,
        node=f"large-answers-{uuid.uuid4().hex[:6]}",
        max_output_bytes=CAP,
        drain_timeout_s=1.0,
    )
    async with served_gateway(settings) as api:
        yield api


async def test_an_answer_larger_than_the_cap_reaches_a_client_that_reads(gateway: str) -> None:
    async with httpx.AsyncClient(base_url=gateway, timeout=30) as client:
        for _ in range(3):  # on one connection, one after the other
            r = await client.get("/openapi.json")
            assert r.status_code == 200
            assert len(r.content) > 4 * CAP, "the document must be far larger than the cap for this test"
            assert r.json()["openapi"].startswith("3.")


async def test_a_client_that_reads_nothing_is_cut_off(gateway: str) -> None:
    port = int(gateway.rsplit(":", 1)[1])

    def attack() -> bool:
        with socket.create_connection(("127.0.0.1", port)) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.settimeout(0.2)
            request = b"GET /openapi.json HTTP/1.1\r\nHost: edge\r\n\r\n" * 8
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                try:
                    sock.send(request)
                except TimeoutError:
                    continue
                except OSError:
                    return True  # cut off
            return False

    assert await asyncio.to_thread(attack), "a client that never reads kept its connection"
