"""The gateway's connection registry (services/gateway/connections.py): the socket
ceiling from the real limits, caps per address and per kind, refusals that say
why, and the client address believed only from trusted proxies."""

from __future__ import annotations

import resource

import pytest

from services.gateway.connections import (
    BASE_BYTES,
    BYTES_PER_CONNECTION,
    FD_RESERVE,
    KINDS,
    Caps,
    Ceiling,
    Connections,
    Refusal,
    ceiling,
)
from services.gateway.errors import STATUS
from services.gateway.ratelimit import RateLimiter
from shared.infra.settings import Settings
from shared.observability import metrics

CAPS = Caps(sockets_per_address=3, feed=2, bot_stream=1, play=2, unauthenticated=2, unauthenticated_total=3)


def registry(sockets: int = 10, trusted: str = "", **kw: RateLimiter) -> Connections:
    return Connections(CAPS, Ceiling(sockets=sockets, open_files=1024, memory_bytes=None), trusted, **kw)


def test_the_kinds_are_the_metrics_kinds() -> None:
    assert KINDS == metrics.EDGE_KINDS


def test_the_ceiling_comes_from_the_open_files_and_the_memory() -> None:
    files, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    by_memory = (512 * 1024 * 1024 - BASE_BYTES) // BYTES_PER_CONNECTION
    found = ceiling(Settings(memory_budget_mb=512))
    assert found.sockets == min(files - FD_RESERVE, by_memory)
    assert ceiling(Settings(memory_budget_mb=512, max_connections=100)).sockets == min(100, found.sockets)
    assert found.long_lived < found.sockets, "short requests must always find room"


def test_sockets_over_an_address_cap_are_refused_then_dropped() -> None:
    conns = registry()
    for key in range(3):
        conns.accept(key, "203.0.113.1")
    answered = []
    for key in range(3, 9):
        with pytest.raises(Refusal) as refused:
            conns.accept(key, "203.0.113.1")
        answered.append(refused.value.answer)
        assert refused.value.code == "too_many_connections" and refused.value.code in STATUS
    # Refused sockets stay counted until they are gone: past twice the cap, no answer at all.
    assert answered == [True, True, True, False, False, False]
    conns.accept(100, "203.0.113.2")  # another address is not affected
    for key in range(6):
        conns.release(key)
    conns.accept(200, "203.0.113.1")


def test_the_ceiling_refuses_then_drops_whoever_asks() -> None:
    conns = registry(sockets=4)
    for key in range(4):
        conns.accept(key, f"198.51.100.{key}")
    with pytest.raises(Refusal) as refused:
        conns.accept(10, "198.51.100.99")
    assert refused.value.answer and "as many connections as it can" in refused.value.message
    assert conns.sockets == 5
    conns.release(10)
    conns.release(0)
    conns.accept(11, "198.51.100.99")


def test_an_upgrade_is_the_same_socket() -> None:
    conns = registry()
    conns.accept(1, "203.0.113.1")
    conns.accept(1, "203.0.113.1")
    assert conns.sockets == 1
    conns.release(1)
    conns.release(1)
    assert conns.sockets == 0


def test_trusted_proxies_are_not_capped_per_address() -> None:
    conns = registry(sockets=100, trusted="10.0.0.0/8")
    for key in range(20):
        conns.accept(key, "10.1.2.3")
    with pytest.raises(Refusal):
        for key in range(20, 40):
            conns.accept(key, "192.0.2.1")


def test_new_sockets_per_address_are_budgeted() -> None:
    conns = registry(sockets=100, accepts=RateLimiter(0.001, 2))
    conns.accept(1, "203.0.113.1")
    conns.release(1)
    conns.accept(2, "203.0.113.1")
    conns.release(2)
    with pytest.raises(Refusal) as refused:
        conns.accept(3, "203.0.113.1")
    assert not refused.value.answer
    conns.accept(4, "203.0.113.2")


def test_long_lived_slots_per_kind_and_address() -> None:
    conns = registry(sockets=100)
    for kind in KINDS:
        cap = CAPS.per_address(kind)
        for _ in range(cap):
            conns.take(kind, "203.0.113.1")
        with pytest.raises(Refusal) as refused:
            conns.take(kind, "203.0.113.1")
        assert refused.value.code == "too_many_connections"
        assert str(cap) in refused.value.message
        conns.take(kind, "203.0.113.2")  # another address has its own
        assert conns.held(kind, "203.0.113.1") == cap
        for _ in range(cap):
            conns.give_back(kind, "203.0.113.1")
        conns.give_back(kind, "203.0.113.2")
        assert conns.held(kind) == 0
    assert conns.long_lived == 0


def test_unauthenticated_connections_are_capped_in_all() -> None:
    conns = registry(sockets=100)
    conns.take("unauthenticated", "a")
    conns.take("unauthenticated", "b")
    conns.take("unauthenticated", "c")
    with pytest.raises(Refusal, match="waiting for their token"):
        conns.take("unauthenticated", "d")
    conns.take("play", "d")  # an authenticated seat is not refused for strangers


def test_long_lived_connections_leave_room_for_short_requests() -> None:
    conns = registry(sockets=10)
    for i in range(conns.limit.long_lived):
        conns.take("feed", f"192.0.2.{i}")
    with pytest.raises(Refusal, match="as many live feeds as it can"):
        conns.take("feed", "192.0.2.200")
    for key in range(10):
        conns.accept(key, f"198.51.100.{key}")  # every socket of the ceiling still accepted


def test_giving_back_more_than_was_taken_changes_nothing() -> None:
    conns = registry()
    conns.give_back("feed", "nobody")
    assert conns.long_lived == 0 and conns.held("feed") == 0


def scope(peer: str, *forwarded: bytes) -> dict[str, object]:
    return {"client": (peer, 5000), "headers": [(b"x-forwarded-for", value) for value in forwarded]}


@pytest.mark.parametrize(
    ("trusted", "request_scope", "expected"),
    [
        ("", scope("203.0.113.9", b"1.2.3.4"), "203.0.113.9"),  # nobody trusted: the peer
        ("10.0.0.0/8", scope("203.0.113.9", b"1.2.3.4"), "203.0.113.9"),  # an untrusted peer's header
        ("10.0.0.0/8", scope("10.0.0.5", b"198.51.100.7"), "198.51.100.7"),
        ("10.0.0.0/8", scope("10.0.0.5", b"6.6.6.6, 198.51.100.7"), "198.51.100.7"),  # the proxy's own entry
        ("10.0.0.0/8", scope("10.0.0.5", b"6.6.6.6", b"198.51.100.7"), "198.51.100.7"),
        ("10.0.0.0/8", scope("10.0.0.5", b"not an address"), "10.0.0.5"),
        ("10.0.0.0/8", scope("10.0.0.5", b"198.51.100.7, "), "10.0.0.5"),
        ("10.0.0.0/8", scope("10.0.0.5"), "10.0.0.5"),
        ("127.0.0.1", scope("127.0.0.1", b"2001:db8::1"), "2001:db8::1"),
        ("::1", scope("::1", b"192.0.2.44"), "192.0.2.44"),
        ("", {"headers": []}, "-"),
    ],
)
def test_the_client_address(trusted: str, request_scope: dict[str, object], expected: str) -> None:
    assert registry(trusted=trusted).client_of(request_scope) == expected
