"""What the hostile-connection suite needs to play the part of many clients on one
machine, and to watch the gateway from outside while they attack.

Every client of the suite connects from an address of its own in 127.0.0.0/8
(Linux routes the whole block to the loopback interface), so the gateway's
per-address limits see an attacker and an honest player apart, as they would on
the internet.
"""

from __future__ import annotations

import itertools
import os
import socket
from dataclasses import dataclass

import httpx

_next = itertools.count(10)


def fresh_address() -> str:
    """A loopback address no other client of this process has used (each test worker
    process draws from a /16 of its own)."""
    n = next(_next)
    return f"127.{1 + os.getpid() % 200}.{(n >> 8) & 0xFF}.{(n & 0xFF) or 1}"


def raw_connection(
    port: int, source: str, host: str = "127.0.0.1", rcvbuf: int | None = None
) -> socket.socket:
    """A TCP connection to the gateway from ``source`` (with a small receive buffer
    when asked, so that a client that does not read fills its side quickly)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.bind((source, 0))
    sock.connect((host, port))
    return sock


def client(base_url: str, source: str, **kwargs: object) -> httpx.Client:
    """An HTTP client whose connections leave from ``source``."""
    transport = httpx.HTTPTransport(local_address=source)
    return httpx.Client(base_url=base_url, transport=transport, **kwargs)  # type: ignore[arg-type]


def async_client(base_url: str, source: str, **kwargs: object) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=source)
    return httpx.AsyncClient(base_url=base_url, transport=transport, **kwargs)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Footprint:
    """A process's resident memory and open files, read from /proc."""

    rss_mb: float
    open_files: int


def footprint(pid: int) -> Footprint:
    rss_kb = 0
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                rss_kb = int(line.split()[1])
    return Footprint(rss_mb=rss_kb / 1024, open_files=len(os.listdir(f"/proc/{pid}/fd")))
