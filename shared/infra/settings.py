"""Settings from ``ZIGGURAT_*`` environment variables, validated by msgspec."""

from __future__ import annotations

import os
import socket
from typing import Annotated

import msgspec

from shared.arenas.rules import MAX_MEMBERS
from shared.casual.rules import MAX_PENDING
from shared.infra.durability import Level
from shared.kernel.clocks import DEFAULT_TAKEOVER, Takeover
from shared.tournaments.decide import MAX_ENTRIES


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    redis_url: str = "redis://127.0.0.1:6399/0"
    #: The server of the game read models (views, feeds, checkpoints, live
    #: sets): derived data, rebuilt from the store, so it may run without AOF.
    #: Empty: the store's own server (one server, one client).
    read_model_url: str = ""
    cluster: bool = False
    #: Games hash into this many partitions; every service must agree on it.
    partitions: int = 4
    node: str = f"{socket.gethostname()}-{os.getpid()}"
    http_host: str = "127.0.0.1"
    http_port: int = 8000
    #: Health and metrics port of the validator, reducer and projector.
    metrics_port: int = 9100
    reply_timeout_s: float = 10.0
    batch: int = 200
    #: How long an unacknowledged message waits before another consumer claims it.
    reclaim_idle_ms: int = 5_000
    snapshot_every: int = 250
    max_body_bytes: int = 64 * 1024
    #: Per-token command rate: sustained per second, and burst.
    rate_per_s: float = 50.0
    rate_burst: int = 100
    #: Reads (views, feeds, logs): per seat token, or per client address
    #: for requests without one.
    read_rate_per_s: float = 100.0
    read_burst: int = 200
    #: Tables opened per client address.
    open_rate_per_s: float = 2.0
    open_burst: int = 20
    #: Invalid tokens per client address before its token requests are refused.
    bad_token_rate_per_s: float = 1.0
    bad_token_burst: int = 20
    #: A stage moves a message it failed on this many times to the dead letters.
    max_deliveries: int = 3
    #: Readiness fails when a stage's oldest unprocessed entry is older than this.
    stall_after_s: float = 15.0
    log_level: str = "info"
    #: The gateway the platform process's bots play through ("" = this host's http_port).
    api_url: str = ""
    #: Pause between a tournament bot's moves, so people can follow the games.
    bot_pace_ms: int = 0

    # --- The public edge: connections, slots, proxies (docs/reliability.md, "Limits") ---
    #: Proxies whose X-Forwarded-For is believed (comma-separated CIDRs or addresses).
    trusted_proxies: str = ""
    #: Sockets one gateway holds at most; 0: derived from its open-files limit and
    #: memory (services/gateway/connections.py, ``ceiling``).
    max_connections: int = 0
    #: The memory the gateway may use for connections, in MiB (0: the cgroup's limit alone).
    memory_budget_mb: int = 512
    #: Open sockets per client address (trusted proxies exempt: they cap their own clients).
    connections_per_address: int = 256
    #: New sockets per client address, per second and in a burst (past it: dropped unanswered).
    accepts_per_address_per_s: float = 20.0
    accepts_per_address_burst: int = 200
    #: HTTP requests per client address, per second and in a burst, whatever the route
    #: (past it: 429 rate_limited, and that connection is not read until the budget is back).
    requests_per_address_per_s: float = 500.0
    requests_per_address_burst: int = 1000
    #: Long-lived connections per client address, by kind.
    feeds_per_address: int = 64
    bot_streams_per_address: int = 8
    play_per_address: int = 256
    #: Play connections that have not authenticated yet: per address, and in all.
    unauthenticated_per_address: int = 8
    unauthenticated_total: int = 512
    #: A request must arrive whole (headers and body) within this of its first byte,
    #: and a new connection must start its first request within it.
    request_timeout_s: float = 15.0
    #: Request line and headers together, in bytes, and the number of headers.
    max_header_bytes: int = 16 * 1024
    max_headers: int = 100
    #: Requests a client may send ahead of their answers on one connection.
    max_pipelined: int = 16
    #: A connection whose output has not drained for this long is cut off.
    drain_timeout_s: float = 30.0
    #: Bytes a connection may have waiting to be sent before it is cut off.
    max_output_bytes: int = 8 * 1024 * 1024
    #: WebSocket control frames (pings) a connection may send per second, and in a burst;
    #: past it the gateway stops reading that connection until it is within its budget.
    ws_control_per_s: float = 20.0
    ws_control_burst: int = 100
    #: How often each gateway checks the player keys of its open play connections and
    #: bot streams against the store, should a rotation's notice have been lost
    #: (services/gateway/credentials.py; docs/reliability.md, "Credentials that end").
    credential_check_s: Annotated[float, msgspec.Meta(gt=0, le=300)] = 5.0

    # --- Write budgets and aggregate bounds ---
    #: A player's, arena's, invitation's or tournament's snapshot is rewritten once
    #: its stream is this many events past it, so a load reads at most this many
    #: events (docs/architecture.md, "Aggregate snapshots").
    aggregate_snapshot_every: int = 100
    #: Writes other than moves and openings (joins, leaves, registrations, key rotations,
    #: organiser commands, answers to invitations, seats handed to bots), per caller (a
    #: player, an organiser token, a seat token), per second and in a burst; past it
    #: 429 rate_limited (docs/reliability.md, "Write budgets and aggregate bounds").
    write_rate_per_s: Annotated[float, msgspec.Meta(gt=0)] = 2.0
    write_burst: Annotated[int, msgspec.Meta(ge=1)] = 60
    #: The same writes per client address, whoever sends them (many players may share one).
    address_write_rate_per_s: Annotated[float, msgspec.Meta(gt=0)] = 10.0
    address_write_burst: Annotated[int, msgspec.Meta(ge=1)] = 300
    #: Entries a tournament takes, withdrawn ones included (past it: 409 tournament_full).
    max_tournament_entries: Annotated[int, msgspec.Meta(ge=2, le=100_000)] = MAX_ENTRIES
    #: Players an arena takes, everyone who ever joined (past it: 409 arena_full).
    max_arena_members: Annotated[int, msgspec.Meta(ge=2, le=1_000_000)] = MAX_MEMBERS
    #: Casual invitations a player may have waiting for answers as host, and apart as an
    #: invitee (past it: 409 too_many_invitations).
    max_pending_invitations: Annotated[int, msgspec.Meta(ge=1, le=10_000)] = MAX_PENDING

    # --- The replicated store: durability levels and failover ---
    #: What an accepted move has survived when it is answered: local, fsync,
    #: replicated or replicated-fsync (docs/reliability.md, "Durability levels").
    #: The replicated levels need a store with replicas (deploy/, ``Stack(replicas=)``).
    durability: Level = "local"
    #: R: the replicas that must hold an append (or, replicated-fsync, have written it
    #: to disk) before its batch is answered; the store's min-replicas-to-write too.
    durability_replicas: Annotated[int, msgspec.Meta(ge=1, le=16)] = 1
    #: How long a batch's answer waits for its R replicas; past it the batch's
    #: moves are answered 503 unavailable (retry with the same idempotency key).
    durability_timeout_ms: Annotated[int, msgspec.Meta(ge=10, le=60_000)] = 2000
    #: The store client's waits (shared/infra/redis_client.py, ``StoreTimeouts``;
    #: docs/reliability.md, "The store client's timeouts"). A cluster node that has
    #: not answered a command within this long counts as failed (its commands 503,
    #: the slot map is read again); services add the durability wait to it.
    store_socket_timeout_s: Annotated[float, msgspec.Meta(ge=0.5, le=60)] = 5.0
    #: A connection to a node not made within this long counts the node as failed.
    store_connect_timeout_s: Annotated[float, msgspec.Meta(ge=0.05, le=30)] = 1.0
    #: A node that failed is asked last (slot maps, pub/sub) for this long.
    store_suspect_s: Annotated[float, msgspec.Meta(ge=1, le=600)] = 10.0
    #: A re-read of the slot map asks again (the nodes in another order) when no
    #: node answered within this long, three times, then waits as long as it takes.
    store_reread_s: Annotated[float, msgspec.Meta(ge=0.05, le=30)] = 1.0
    #: A pub/sub listener pings its node after this long without a message ...
    store_ping_every_s: Annotated[float, msgspec.Meta(ge=0.1, le=60)] = 1.0
    #: ... and listens on another once nothing came for this long (more than the ping's pause).
    store_silent_s: Annotated[float, msgspec.Meta(ge=0.2, le=120)] = 3.0
    #: A publish not answered within this long is sent again through another node.
    store_publish_timeout_s: Annotated[float, msgspec.Meta(ge=0.05, le=60)] = 2.0
    #: A listener whose node failed subscribes again after this pause.
    store_resubscribe_pause_s: Annotated[float, msgspec.Meta(ge=0, le=30)] = 0.2

    # --- Reducer partition leases ---
    #: A reducer's lease on a partition lasts this long unless renewed (every third of
    #: it); a dead reducer's partitions are taken over within about 5/3 of it plus a
    #: second (docs/architecture.md, "Partition leases").
    lease_ttl_s: Annotated[float, msgspec.Meta(ge=1.0, le=300)] = 5.0

    # --- Bot levels (shared/kernel/levels.py; docs/architecture.md, "Bot levels") ---
    #: The level of the bot that plays a seat whose clock ran out, recorded in the
    #: table's clock when it opens (unless the opener named one): easy or medium.
    #: Not hard: a takeover is played inside the reducer's decision, where a search
    #: would hold the whole partition; hard plays only in the platform's bot runner.
    takeover_level: Takeover = DEFAULT_TAKEOVER

    # --- Stages hosted together (services/stages; docs/architecture.md, "Layouts") ---
    #: The stages ``python -m services.stages`` hosts in its one process,
    #: comma-separated: any of validator, reducer, projector.
    stages: Annotated[str, msgspec.Meta(max_length=64)] = "validator,reducer,projector"

    def __post_init__(self) -> None:
        if self.store_silent_s <= self.store_ping_every_s:
            # A listener would count its node silent before it had pinged it.
            raise ValueError("store_silent_s must be more than store_ping_every_s")


#: Rate limits out of the way, for tests and benchmarks that drive the API
#: from one address at full speed (the limits have tests of their own).
UNTHROTTLED = {
    f"ZIGGURAT_{name.upper()}": value
    for name, value in {
        "rate_per_s": "100000",
        "rate_burst": "100000",
        "read_rate_per_s": "100000",
        "read_burst": "100000",
        "open_rate_per_s": "100000",
        "open_burst": "100000",
        "bad_token_rate_per_s": "100000",
        "bad_token_burst": "100000",
        "accepts_per_address_per_s": "100000",
        "accepts_per_address_burst": "100000",
        "requests_per_address_per_s": "100000",
        "requests_per_address_burst": "100000",
        "write_rate_per_s": "100000",
        "write_burst": "100000",
        "address_write_rate_per_s": "100000",
        "address_write_burst": "100000",
    }.items()
}


def load() -> Settings:
    raw: dict[str, object] = {}
    for field in Settings.__struct_fields__:
        value = os.environ.get(f"ZIGGURAT_{field.upper()}")
        if value is not None:
            raw[field] = value
    return msgspec.convert(raw, Settings, strict=False)
