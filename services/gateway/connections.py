"""Who holds the gateway's connections: counted per client address, capped, refused in words.

Two levels, both in this one registry per gateway process:

* **Sockets.** Every TCP connection is counted from the moment it is accepted
  (before a byte of it is parsed) against the gateway-wide *ceiling* and against
  its peer address's cap. Over either, the connection gets a canned ``429
  too_many_connections`` and is closed: the file descriptors a gateway has are
  never all spent, so ``/health`` and every other route still answer. Trusted
  proxies are not capped per address here (each of them carries many clients,
  and caps its own clients per address).
* **Long-lived slots.** A live feed, a bot stream or a play connection holds its
  socket for hours. Each kind has a cap per client address (the real client's,
  from a trusted proxy's ``X-Forwarded-For``), and all of them together a
  gateway-wide cap below the socket ceiling, so short requests always find
  room. A play connection that has not authenticated yet holds an
  ``unauthenticated`` slot: capped apart (per address and in all) and given a
  few seconds, so strangers cannot crowd out the seats.
* **Rates.** New sockets and HTTP requests per peer address each have a token
  bucket: a client churning connections or flooding cheap routes spends its
  own budget, not everyone's CPU.

The ceiling comes from the process's real limits (:func:`ceiling`): the open
files it may hold (raised to the hard limit at start) less a reserve for the
store's connections and files, and the memory it may use at a measured cost
per connection. Nothing here does I/O; the protocols and handlers ask it.
"""

from __future__ import annotations

import contextlib
import ipaddress
import resource
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import structlog

from services.gateway.ratelimit import RateLimiter
from shared.infra.settings import Settings
from shared.observability import metrics

log = structlog.get_logger()

Kind = Literal["feed", "bot_stream", "play", "unauthenticated"]
KINDS: tuple[Kind, ...] = ("feed", "bot_stream", "play", "unauthenticated")
#: What each kind is called in a refusal, for people.
_NAMES: dict[Kind, str] = {
    "feed": "live feeds",
    "bot_stream": "bot streams",
    "play": "play connections",
    "unauthenticated": "play connections that have not sent their token yet",
}
#: File descriptors kept back from the ceiling: the store's and read models'
#: connections, the log, the metrics server, and room to accept and refuse.
FD_RESERVE = 256
#: Resident memory of one held connection: 5,000 idle live feeds grew a gateway
#: by 23.4 KiB each (2026-11-29). The socket's buffers are the kernel's; this is
#: the process's own share (protocol, transport, subscriber, its queue).
BYTES_PER_CONNECTION = 24 * 1024
#: The process's own footprint before any connection (imports, caches, the hub).
BASE_BYTES = 160 * 1024 * 1024
#: Of the socket ceiling, the share long-lived connections may take together.
LONG_LIVED_SHARE = 0.9


class Refusal(Exception):
    """A connection or slot refused: a stable code and a sentence."""

    def __init__(self, code: str, message: str, answer: bool = True) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        #: False: the socket is dropped without an answer (refusing it would cost too much).
        self.answer = answer


@dataclass(frozen=True)
class Ceiling:
    """The most sockets one gateway holds, and what decided it."""

    sockets: int
    open_files: int
    memory_bytes: int | None

    @property
    def long_lived(self) -> int:
        return max(1, int(self.sockets * LONG_LIVED_SHARE))

    @property
    def refusing(self) -> int:
        """Sockets over the ceiling that are still answered (429) rather than dropped."""
        return FD_RESERVE // 2


def memory_limit() -> int | None:
    """The cgroup's memory limit, if the process runs under one (a container's)."""
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        with contextlib.suppress(OSError, ValueError):
            raw = Path(path).read_text().strip()
            if raw != "max" and int(raw) < 1 << 60:
                return int(raw)
    return None


def ceiling(settings: Settings) -> Ceiling:
    """The socket ceiling from the real limits (call after raising the soft fd limit)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    files = soft if soft != resource.RLIM_INFINITY else 1 << 20
    by_files = max(16, files - FD_RESERVE)
    budget = settings.memory_budget_mb * 1024 * 1024 if settings.memory_budget_mb else None
    cgroup = memory_limit()
    limits = [m for m in (budget, cgroup) if m is not None]
    memory = min(limits) if limits else None
    by_memory = max(16, (memory - BASE_BYTES) // BYTES_PER_CONNECTION) if memory is not None else by_files
    sockets = min(by_files, by_memory)
    if settings.max_connections:
        sockets = min(sockets, settings.max_connections)
    return Ceiling(sockets=sockets, open_files=files, memory_bytes=memory)


@dataclass(frozen=True)
class Caps:
    """Per client address, for each kind of long-lived connection; and sockets per peer."""

    sockets_per_address: int
    feed: int
    bot_stream: int
    play: int
    unauthenticated: int
    unauthenticated_total: int

    @classmethod
    def from_settings(cls, s: Settings) -> Caps:
        return cls(
            sockets_per_address=s.connections_per_address,
            feed=s.feeds_per_address,
            bot_stream=s.bot_streams_per_address,
            play=s.play_per_address,
            unauthenticated=s.unauthenticated_per_address,
            unauthenticated_total=s.unauthenticated_total,
        )

    def per_address(self, kind: Kind) -> int:
        cap: int = getattr(self, kind)
        return cap


def networks(spec: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """``"10.0.0.0/8, 127.0.0.1"`` as networks (a bare address is a network of one)."""
    return tuple(ipaddress.ip_network(part.strip(), strict=False) for part in spec.split(",") if part.strip())


class Connections:
    """Every socket and long-lived slot of one gateway process."""

    def __init__(
        self,
        caps: Caps,
        limit: Ceiling,
        trusted: str = "",
        accepts: RateLimiter | None = None,
        requests: RateLimiter | None = None,
    ) -> None:
        self.caps = caps
        self.limit = limit
        #: New sockets and requests per peer address (trusted proxies exempt).
        self.accepts = accepts or RateLimiter(1e9, 1 << 30)
        self.requests = requests or RateLimiter(1e9, 1 << 30)
        self._trusted = networks(trusted)
        self._trusted_seen: dict[str, bool] = {}
        self.sockets = 0
        self._sockets_of: Counter[str] = Counter()
        self._open: dict[int, str] = {}
        self.long_lived = 0
        self._slots: Counter[tuple[Kind, str]] = Counter()
        self._by_kind: Counter[Kind] = Counter()
        metrics.EDGE_CEILING.set(limit.sockets)

    @classmethod
    def from_settings(cls, settings: Settings) -> Connections:
        return cls(
            Caps.from_settings(settings),
            ceiling(settings),
            settings.trusted_proxies,
            accepts=RateLimiter(settings.accepts_per_address_per_s, settings.accepts_per_address_burst),
            requests=RateLimiter(settings.requests_per_address_per_s, settings.requests_per_address_burst),
        )

    def trusted(self, address: str) -> bool:
        """Whether ``address`` is one of the proxies whose forwarded addresses are believed."""
        known = self._trusted_seen.get(address)
        if known is None:
            try:
                ip = ipaddress.ip_address(address)
            except ValueError:
                known = False
            else:
                known = any(ip in net for net in self._trusted)
            if len(self._trusted_seen) > 4096:
                self._trusted_seen.clear()
            self._trusted_seen[address] = known
        return known

    def client_of(self, scope: Mapping[str, Any]) -> str:
        """The client's address: the peer's, or, when the peer is a trusted proxy, the
        address that proxy put last in ``X-Forwarded-For`` (the one it saw itself;
        entries before it are the client's say and may be forged)."""
        client = scope.get("client")
        peer = str(client[0]) if client else "-"
        if not self._trusted or not self.trusted(peer):
            return peer
        forwarded = None
        for name, value in scope.get("headers", ()):
            if name == b"x-forwarded-for":
                forwarded = value  # the last header if a proxy added one of its own
        if forwarded is None:
            return peer
        last = forwarded.rsplit(b",", 1)[-1].strip().decode("latin-1")
        try:
            return str(ipaddress.ip_address(last))
        except ValueError:
            return peer

    # --- sockets ---

    def accept(self, key: int, peer: str) -> None:
        """Count a new socket (``key``: its transport's id); raise :class:`Refusal` if it is over
        a cap. A refused socket stays counted until it is gone (it is answered, then read
        and dropped for a moment); past twice a cap, a socket is dropped without a word
        (``Refusal.answer`` false), so refusing costs bounded sockets too."""
        if key in self._open:
            return  # the same socket handed on (an upgrade to a WebSocket)
        trusted = self.trusted(peer)
        mine = self._sockets_of[peer]
        if self.sockets >= self.limit.sockets + self.limit.refusing or (
            not trusted and (mine >= 2 * self.caps.sockets_per_address or self.accepts.take(peer))
        ):
            metrics.EDGE_REFUSALS.labels("socket", "dropped").inc()
            raise Refusal("too_many_connections", "", answer=False)
        self._count(key, peer)
        if self.sockets > self.limit.sockets:
            metrics.EDGE_REFUSALS.labels("socket", "ceiling").inc()
            raise Refusal(
                "too_many_connections", "This server holds as many connections as it can; retry shortly."
            )
        if not trusted and mine >= self.caps.sockets_per_address:
            metrics.EDGE_REFUSALS.labels("socket", "address").inc()
            raise Refusal(
                "too_many_connections",
                f"Your address already holds {self.caps.sockets_per_address} connections; close some first.",
            )

    def _count(self, key: int, peer: str) -> None:
        self._open[key] = peer
        self._sockets_of[peer] += 1
        self.sockets += 1
        metrics.EDGE_SOCKETS.set(self.sockets)

    def release(self, key: int) -> None:
        peer = self._open.pop(key, None)
        if peer is None:
            return
        self.sockets -= 1
        self._sockets_of[peer] -= 1
        if self._sockets_of[peer] <= 0:
            del self._sockets_of[peer]
        metrics.EDGE_SOCKETS.set(self.sockets)

    def request(self, peer: str) -> float:
        """Spend one request of ``peer``'s budget: 0.0, or the seconds until it has one."""
        return 0.0 if self.trusted(peer) else self.requests.take(peer)

    # --- long-lived slots ---

    def take(self, kind: Kind, address: str) -> None:
        """Hold a slot of ``kind`` for ``address``, or raise :class:`Refusal`."""
        if kind == "unauthenticated" and self._by_kind[kind] >= self.caps.unauthenticated_total:
            metrics.EDGE_REFUSALS.labels(kind, "ceiling").inc()
            raise Refusal(
                "too_many_connections",
                "Too many play connections are waiting for their token right now; retry shortly.",
            )
        if self.long_lived >= self.limit.long_lived:
            metrics.EDGE_REFUSALS.labels(kind, "ceiling").inc()
            raise Refusal(
                "too_many_connections", f"This server holds as many {_NAMES[kind]} as it can; retry shortly."
            )
        cap = self.caps.per_address(kind)
        if self._slots[(kind, address)] >= cap:
            metrics.EDGE_REFUSALS.labels(kind, "address").inc()
            raise Refusal(
                "too_many_connections", f"Your address already holds {cap} {_NAMES[kind]}; close one first."
            )
        self._slots[(kind, address)] += 1
        self._by_kind[kind] += 1
        self.long_lived += 1
        metrics.EDGE_SLOTS.labels(kind).set(self._by_kind[kind])

    def give_back(self, kind: Kind, address: str) -> None:
        key = (kind, address)
        if self._slots[key] <= 0:
            return
        self._slots[key] -= 1
        if self._slots[key] <= 0:
            del self._slots[key]
        self._by_kind[kind] -= 1
        self.long_lived -= 1
        metrics.EDGE_SLOTS.labels(kind).set(self._by_kind[kind])

    def held(self, kind: Kind, address: str | None = None) -> int:
        """Slots of ``kind`` held (by ``address``, or in all)."""
        return self._by_kind[kind] if address is None else self._slots[(kind, address)]

    def describe(self) -> dict[str, object]:
        return {
            "ceiling": self.limit.sockets,
            "long_lived_ceiling": self.limit.long_lived,
            "open_files": self.limit.open_files,
            "memory_bytes": self.limit.memory_bytes,
            "per_address": {
                "sockets": self.caps.sockets_per_address,
                **{k: self.caps.per_address(k) for k in KINDS},
            },
        }
