"""The client address every per-address budget and cap of the gateway counts by:
one function of the ASGI scope (``Connections.client_of``; ``client_address`` is
its call for a Starlette request), wired from ``ZIGGURAT_TRUSTED_PROXIES``.

The peer's address, unless the peer is in a trusted proxy network: then the
rightmost ``X-Forwarded-For`` entry, the one that proxy saw itself (what the
proxies of deploy/ send), if it is an address at all."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from starlette.requests import Request

from services.gateway.connections import Connections
from services.gateway.context import client_address
from shared.infra.settings import Settings

#: As deploy/k8s/configmap.yaml sets it (with the spaces an operator may add).
PRIVATE = "10.0.0.0/8, 172.16.0.0/12,192.168.0.0/16"


def scope(peer: str | None, *forwarded: bytes, other: bytes = b"x-real-ip") -> dict[str, object]:
    headers = [(b"host", b"edge"), (other, b"203.0.113.250")]
    headers += [(b"x-forwarded-for", value) for value in forwarded]
    return {"type": "http", "client": (peer, 40000) if peer else None, "headers": headers}


def address(trusted: str, request_scope: dict[str, object]) -> str:
    """What the gateway makes of this request, through ``client_address``."""
    connections = Connections.from_settings(Settings(trusted_proxies=trusted))
    app = SimpleNamespace(state=SimpleNamespace(connections=connections))
    request = Request({**request_scope, "app": app})
    found = client_address(request)
    assert found == connections.client_of(request_scope)  # one function, however it is asked
    return found


def test_by_default_no_one_is_believed_not_even_loopback() -> None:
    assert Settings().trusted_proxies == ""
    assert address("", scope("127.0.0.1", b"198.51.100.7")) == "127.0.0.1"
    assert address("", scope("203.0.113.9", b"198.51.100.7")) == "203.0.113.9"


@pytest.mark.parametrize("peer", ["10.1.2.3", "172.31.255.254", "192.168.0.10"])
def test_a_proxy_in_any_trusted_network_is_believed(peer: str) -> None:
    assert address(PRIVATE, scope(peer, b"198.51.100.7")) == "198.51.100.7"


@pytest.mark.parametrize("peer", ["172.32.0.1", "11.0.0.1", "203.0.113.9", "::1"])
def test_a_client_outside_them_cannot_choose_its_address(peer: str) -> None:
    """A spoofed header straight from a client changes nothing: it is counted as itself."""
    assert address(PRIVATE, scope(peer, b"198.51.100.7")) == peer


@pytest.mark.parametrize(
    ("forwarded", "expected"),
    [
        # HAProxy (deploy/edge): the client's own header dropped, the address it saw added.
        ((b"198.51.100.7",), "198.51.100.7"),
        # A proxy that appends to what the client sent (nginx's full forwarded-for):
        # only the last entry is the proxy's word, the rest are the client's.
        ((b"6.6.6.6, 7.7.7.7, 198.51.100.7",), "198.51.100.7"),
        ((b"6.6.6.6,198.51.100.7",), "198.51.100.7"),
        # A proxy that adds a header line of its own after the client's.
        ((b"6.6.6.6", b"198.51.100.7"), "198.51.100.7"),
        # One client, however its address is written, is one key.
        ((b"2001:DB8:0:0:0:0:0:1",), "2001:db8::1"),
    ],
)
def test_a_trusted_proxy_names_the_client_last(forwarded: tuple[bytes, ...], expected: str) -> None:
    assert address(PRIVATE, scope("10.0.0.5", *forwarded)) == expected


@pytest.mark.parametrize(
    "forwarded",
    [
        b"",
        b" ",
        b"unknown",
        b"198.51.100.7:5678",  # an address with a port is not an address
        b"198.51.100.7, not an address",
        b"198.51.100.7, ",
        b"999.1.1.1",
        b"\xff\xfe",
        b"1" * 5000,
    ],
)
def test_garbage_from_a_trusted_proxy_falls_back_to_the_proxy(forwarded: bytes) -> None:
    """Never an arbitrary string as a budget's key: the proxy's own address instead."""
    assert address(PRIVATE, scope("10.0.0.5", forwarded)) == "10.0.0.5"


def test_only_x_forwarded_for_is_read() -> None:
    assert address(PRIVATE, scope("10.0.0.5")) == "10.0.0.5"
    assert address(PRIVATE, scope("10.0.0.5", other=b"forwarded")) == "10.0.0.5"


def test_a_scope_without_a_peer_is_one_key_of_its_own() -> None:
    assert address(PRIVATE, scope(None, b"198.51.100.7")) == "-"


def test_a_setting_that_names_no_network_stops_the_gateway_at_start() -> None:
    """Rather than a gateway that silently believes no one (or everyone)."""
    with pytest.raises(ValueError, match="does not appear to be an IPv4 or IPv6"):
        Connections.from_settings(Settings(trusted_proxies="10.0.0.0/8, the proxies"))
