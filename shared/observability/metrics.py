"""Every Prometheus metric the services export, defined once, with the processes that own it.

Names are the contract with deploy/grafana and deploy/prometheus/alerts.yml:
tests check that every metric a dashboard or an alert queries is exported by
some process, and that no process exports one it does not own.

Each process serves only its own metrics (:func:`registry`). A metric that a
process never sets would otherwise be served as 0 and lie (the gateway said
no tournament table was live while twelve were), and an alert on ``absent()``
or on a rate of 0 could not tell a missing process from an idle one. The
counters a process owns are created at zero for every label value known in
advance, so a panel or an alert sees 0 rather than nothing before the first
event.
"""

from __future__ import annotations

import typing
from collections.abc import Iterable

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    disable_created_metrics,
)
from prometheus_client.metrics import MetricWrapperBase

# A `_created` series beside every counter and histogram child doubles each
# scrape, and nothing here reads them.
disable_created_metrics()

GATEWAY = "gateway"
VALIDATOR = "validator"
REDUCER = "reducer"
PROJECTOR = "projector"
TOURNAMENTS = "tournaments"
SERVICES = (GATEWAY, VALIDATOR, REDUCER, PROJECTOR, TOURNAMENTS)
#: The services that read partition streams (shared/messaging/streams.py).
READERS = (VALIDATOR, REDUCER, PROJECTOR, TOURNAMENTS)

_LATENCY = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
# End to end includes a stalled or restarting projector: keep the tail.
_VISIBLE = (0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

# ------------------------------------------------------------------ commands

COMMANDS = Counter(
    "ziggurat_commands_total",
    "Commands by game and outcome (accepted, rejected, unknown: no outcome in time)",
    ["service", "game", "outcome"],
    registry=None,
)
REJECTIONS = Counter(
    "ziggurat_rejections_total", "Rejected commands by reason", ["service", "code"], registry=None
)
APPEND_CONFLICTS = Counter(
    "ziggurat_append_conflicts_total",
    "Appends refused because another writer got there first",
    registry=None,
)
DUPLICATES = Counter(
    "ziggurat_duplicate_commands_total", "Commands answered from their first outcome", registry=None
)
DECISIONS_REUSED = Counter(
    "ziggurat_decisions_reused_total",
    "Moves appended as the validator decided them, the rules not run again by the reducer",
    registry=None,
)
STAGE_LATENCY = Histogram(
    "ziggurat_stage_seconds",
    "Time spent from the gateway's receipt to the end of a stage",
    ["stage"],
    buckets=_LATENCY,
    registry=None,
)
VISIBLE_LATENCY = Histogram(
    "ziggurat_command_visible_seconds",
    "From the gateway's receipt of an accepted command to the projector's notice that "
    "the seats' views show its version",
    ["game"],
    buckets=_VISIBLE,
    registry=None,
)
CLOCK_TIMEOUTS = Counter(
    "ziggurat_clock_timeouts_total", "Seat clocks that ran out", ["policy"], registry=None
)

# ---------------------------------------------------------------------- HTTP

REQUEST_LATENCY = Histogram(
    "ziggurat_http_request_seconds",
    "Gateway request latency by route and status class (2xx, 4xx, 5xx)",
    ["route", "status"],
    buckets=_LATENCY,
    registry=None,
)
FEED_SUBSCRIBERS = Gauge("ziggurat_feed_subscribers", "Open live feeds", ["audience"], registry=None)
PLAY_SOCKETS = Gauge("ziggurat_play_sockets", "Open play connections (WebSocket)", registry=None)
PLAY_SOCKET_MESSAGES = Counter(
    "ziggurat_play_socket_messages_total",
    "Play connections' messages: in (commands), out (replies, pushed views)",
    ["direction", "kind"],
    registry=None,
)
EDGE_SOCKETS = Gauge(
    "ziggurat_edge_sockets", "Open client sockets (every connection, any kind)", registry=None
)
EDGE_CEILING = Gauge(
    "ziggurat_edge_socket_ceiling",
    "The most client sockets this gateway holds (from its real limits)",
    registry=None,
)
EDGE_SLOTS = Gauge(
    "ziggurat_edge_long_lived",
    "Long-lived connections held, by kind (feed, bot_stream, play, unauthenticated)",
    ["kind"],
    registry=None,
)
EDGE_REFUSALS = Counter(
    "ziggurat_edge_refusals_total",
    "Connections refused or cut by the edge, by what (a socket, a long-lived kind, a guard) and why",
    ["what", "why"],
    registry=None,
)
#: The kinds of long-lived connection (services/gateway/connections.py).
EDGE_KINDS = ("feed", "bot_stream", "play", "unauthenticated")
#: Every (what, why) the edge refuses or cuts for, known in advance.
EDGE_REFUSAL_SERIES = (
    *((what, why) for what in ("socket", *EDGE_KINDS) for why in ("ceiling", "address")),
    ("socket", "dropped"),
    ("http", "rate"),
    ("http", "request_timeout"),
    ("http", "headers_too_large"),
    ("http", "pipelined"),
    ("http", "upgrade_elsewhere"),
    ("transport", "output_overflow"),
    ("transport", "drain_timeout"),
    ("websocket", "control_throttled"),
)
PLAY_SOCKET_REFUSALS = Counter(
    "ziggurat_play_socket_refusals_total",
    "Play connections ended by the gateway, by code (stalled: a client that stopped reading)",
    ["code"],
    registry=None,
)

# ------------------------------------------------------- stages (in process)

BATCH_SIZE = Histogram(
    "ziggurat_batch_size",
    "Messages handled per batch",
    ["service"],
    buckets=(1, 2, 5, 10, 20, 50, 100, 200),
    registry=None,
)
EVENTS_PROJECTED = Counter("ziggurat_events_projected_total", "Events folded into read models", registry=None)
CACHED_GAMES = Gauge(
    "ziggurat_cached_games",
    "Games held in this process's memory (a cache: finished games stay until evicted)",
    ["service"],
    registry=None,
)
# ------------------------------------------------- partition leases (reducers)

PARTITIONS_OWNED = Gauge(
    "ziggurat_reducer_partitions_owned", "Partitions whose lease this reducer holds", registry=None
)
PARTITIONS = Gauge(
    "ziggurat_reducer_partitions",
    "Partitions in all (ZIGGURAT_PARTITIONS), for the coverage alert",
    registry=None,
)
LEASE_TAKEOVERS = Counter(
    "ziggurat_lease_takeovers_total",
    "Partition leases this reducer took that another reducer had held",
    registry=None,
)
LEASES_LOST = Counter(
    "ziggurat_leases_lost_total",
    "Partition leases this reducer lost without giving them up (expired, taken, or its token fenced)",
    registry=None,
)
FENCED_APPENDS = Counter(
    "ziggurat_fenced_appends_total",
    "Appends the store refused because a later lease's token superseded this reducer's",
    registry=None,
)
DURABILITY_WAITS = Counter(
    "ziggurat_durability_waits_total",
    "A replicated durability level's waits for a batch's replicas, by outcome: confirmed; short "
    "(too few replicas in time) or refused (the store took no writes for want of replicas), "
    "whose accepted moves are answered 503 unavailable",
    ["outcome"],
    registry=None,
)
#: How a replicated level's wait can end (services/reducer/handlers.py).
DURABILITY_OUTCOMES = ("confirmed", "short", "refused")
STORE_REWINDS = Counter(
    "ziggurat_store_rewinds_total",
    "Tables this process held further on than the store holds them: versions lost in a failover "
    "(shared/eventstore/rewinds.py), each marked on its table",
    ["service"],
    registry=None,
)
READ_MODELS_BEHIND = Counter(
    "ziggurat_read_models_behind_total",
    "Games whose read models showed less than the projector had folded (a failover lost the "
    "models it wrote): written again from the log",
    registry=None,
)
REDIS_ROUND_TRIPS = Counter(
    "ziggurat_redis_round_trips_total",
    "Writes to Redis (a pipeline counts once) by this process",
    registry=None,
)
# ------------------------------------------------------- runtime (every process)

#: Fine steps where a tail of 5-20 ms is told apart from one of 50.
_PAUSE = (0.0001, 0.0005, 0.001, 0.002, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.05, 0.1, 0.25, 1.0)
LOOP_LAG = Histogram(
    "ziggurat_event_loop_lag_seconds",
    "How late the event loop ran a timer due every 25 ms: the wait every request in flight shares",
    buckets=_PAUSE,
    registry=None,
)
GC_PAUSE = Histogram(
    "ziggurat_gc_pause_seconds",
    "Garbage collections, by generation, and how long each stopped the process",
    ["generation"],
    buckets=_PAUSE,
    registry=None,
)
RECLAIMED = Counter(
    "ziggurat_reclaimed_total",
    "Entries claimed after another consumer left them unacknowledged",
    ["service"],
    registry=None,
)
ERRORS = Counter(
    "ziggurat_errors_total", "Unexpected errors by service and kind", ["service", "kind"], registry=None
)
DEAD_LETTERS = Counter(
    "ziggurat_dead_letters_total",
    "Messages a stage failed on and set aside for an operator",
    ["service"],
    registry=None,
)

# ------------------------------- the store, measured by the gateway's watch
# Every gateway replica measures the same store: aggregate these with max, not sum.

PROJECTION_LAG = Gauge(
    "ziggurat_projection_lag_seconds",
    "Age of the oldest event not yet projected (0 when caught up); rises while the projector is stalled",
    ["partition"],
    registry=None,
)
STAGE_BACKLOG = Gauge(
    "ziggurat_stage_backlog_seconds",
    "Age of the oldest entry a stage has not acknowledged (0 when caught up)",
    ["stage", "partition"],
    registry=None,
)
STAGE_PENDING = Gauge(
    "ziggurat_stage_pending_entries",
    "Entries delivered to a stage and not acknowledged yet",
    ["stage", "partition"],
    registry=None,
)
STAGE_UNDELIVERED = Gauge(
    "ziggurat_stage_undelivered_entries",
    "Entries no consumer of the stage has read yet",
    ["stage", "partition"],
    registry=None,
)
STALL_AFTER = Gauge(
    "ziggurat_stall_after_seconds",
    "A stage whose backlog is older than this is stalled (ZIGGURAT_STALL_AFTER_S)",
    registry=None,
)
DEAD_LETTERS_WAITING = Gauge(
    "ziggurat_dead_letters_waiting", "Dead letters waiting for an operator", registry=None
)
PIPELINE_READY = Gauge(
    "ziggurat_pipeline_ready", "1 when no stage is stalled and no dead letter waits", registry=None
)
LIVE_GAMES = Gauge(
    "ziggurat_live_games",
    "Tables opened and not over, counted from the store (the projector's live sets)",
    ["game"],
    registry=None,
)
STREAM_LENGTH = Gauge(
    "ziggurat_stream_length",
    "Entries in a transport stream (commands, validated, feed, dead-letters, tournament-commands)",
    ["stream", "partition"],
    registry=None,
)
VALKEY_UP = Gauge("ziggurat_valkey_up", "1 when the store answered INFO", ["node"], registry=None)
VALKEY_MEMORY = Gauge(
    "ziggurat_valkey_memory_used_bytes", "Memory the store uses (used_memory)", ["node"], registry=None
)
VALKEY_MAXMEMORY = Gauge(
    "ziggurat_valkey_memory_max_bytes", "The store's maxmemory (0: no limit)", ["node"], registry=None
)
VALKEY_SYSTEM_MEMORY = Gauge(
    "ziggurat_valkey_memory_system_bytes",
    "Memory of the machine the store runs on (total_system_memory)",
    ["node"],
    registry=None,
)
VALKEY_AOF_ENABLED = Gauge(
    "ziggurat_valkey_aof_enabled", "1 when the append-only file is on", ["node"], registry=None
)
VALKEY_AOF_WRITE_OK = Gauge(
    "ziggurat_valkey_aof_last_write_ok",
    "1 when the last write to the append-only file succeeded",
    ["node"],
    registry=None,
)
VALKEY_AOF_REWRITE_OK = Gauge(
    "ziggurat_valkey_aof_last_rewrite_ok",
    "1 when the last rewrite of the append-only file succeeded",
    ["node"],
    registry=None,
)
VALKEY_CLIENTS = Gauge(
    "ziggurat_valkey_connected_clients", "Client connections to the store", ["node"], registry=None
)

# --------------------------------------------------------------- tournaments

TABLES_LIVE = Gauge("ziggurat_tournament_tables_live", "Tournament tables being played", registry=None)
TOURNAMENT_MOVES = Counter(
    "ziggurat_tournament_moves_total", "Moves played at tournament tables", registry=None
)
PAIRING_SECONDS = Histogram(
    "ziggurat_pairing_seconds",
    "Time to pair a tournament round",
    buckets=(0.001, 0.01, 0.1, 1.0, 10.0),
    registry=None,
)
BOT_MOVE_CPU = Histogram(
    "ziggurat_bot_move_cpu_seconds",
    "CPU time the platform's bot runner spent choosing one move, by bot level",
    ["level"],
    buckets=(0.001, 0.01, 0.05, 0.1, 0.2, 0.25, 0.5, 1.0),
    registry=None,
)

_WATCH = (
    PROJECTION_LAG,
    STAGE_BACKLOG,
    STAGE_PENDING,
    STAGE_UNDELIVERED,
    STALL_AFTER,
    DEAD_LETTERS_WAITING,
    PIPELINE_READY,
    LIVE_GAMES,
    STREAM_LENGTH,
    VALKEY_UP,
    VALKEY_MEMORY,
    VALKEY_MAXMEMORY,
    VALKEY_SYSTEM_MEMORY,
    VALKEY_AOF_ENABLED,
    VALKEY_AOF_WRITE_OK,
    VALKEY_AOF_REWRITE_OK,
    VALKEY_CLIENTS,
)

#: metric -> the services that export it.
OWNERS: dict[MetricWrapperBase, tuple[str, ...]] = {
    COMMANDS: (GATEWAY, REDUCER, TOURNAMENTS),
    REJECTIONS: (GATEWAY, VALIDATOR, REDUCER, TOURNAMENTS),
    APPEND_CONFLICTS: (REDUCER, TOURNAMENTS),
    DUPLICATES: (REDUCER, TOURNAMENTS),
    DECISIONS_REUSED: (REDUCER,),
    STAGE_LATENCY: (GATEWAY, VALIDATOR, REDUCER, PROJECTOR),
    VISIBLE_LATENCY: (GATEWAY,),
    CLOCK_TIMEOUTS: (REDUCER,),
    REQUEST_LATENCY: (GATEWAY,),
    FEED_SUBSCRIBERS: (GATEWAY,),
    PLAY_SOCKETS: (GATEWAY,),
    EDGE_SOCKETS: (GATEWAY,),
    EDGE_CEILING: (GATEWAY,),
    EDGE_SLOTS: (GATEWAY,),
    EDGE_REFUSALS: (GATEWAY,),
    PLAY_SOCKET_MESSAGES: (GATEWAY,),
    PLAY_SOCKET_REFUSALS: (GATEWAY,),
    BATCH_SIZE: READERS,
    EVENTS_PROJECTED: (PROJECTOR,),
    CACHED_GAMES: (VALIDATOR, REDUCER, PROJECTOR),
    **dict.fromkeys((PARTITIONS_OWNED, PARTITIONS, LEASE_TAKEOVERS, LEASES_LOST, FENCED_APPENDS), (REDUCER,)),
    DURABILITY_WAITS: (REDUCER,),
    STORE_REWINDS: (VALIDATOR, REDUCER, PROJECTOR),
    READ_MODELS_BEHIND: (PROJECTOR,),
    REDIS_ROUND_TRIPS: SERVICES,
    LOOP_LAG: SERVICES,
    GC_PAUSE: SERVICES,
    RECLAIMED: READERS,
    ERRORS: SERVICES,
    DEAD_LETTERS: READERS,
    **dict.fromkeys(_WATCH, (GATEWAY,)),
    TABLES_LIVE: (TOURNAMENTS,),
    TOURNAMENT_MOVES: (TOURNAMENTS,),
    PAIRING_SECONDS: (TOURNAMENTS,),
    BOT_MOVE_CPU: (TOURNAMENTS,),
}

#: The stage each service times in ``ziggurat_stage_seconds``.
STAGE_OF = {GATEWAY: "replied", VALIDATOR: "validated", REDUCER: "appended", PROJECTOR: "projected"}
#: A reader's kinds, and "job": a service's job that ended unexpectedly and was started again.
_READ_ERRORS = ("read", "batch", "message", "job")
#: ``ziggurat_errors_total`` kinds each service counts.
ERROR_KINDS: dict[str, tuple[str, ...]] = {
    GATEWAY: ("store_unreachable", "unexpected", "watch", "listener"),
    VALIDATOR: _READ_ERRORS,
    REDUCER: (*_READ_ERRORS, "clock", "lease"),
    PROJECTOR: _READ_ERRORS,
    TOURNAMENTS: (*_READ_ERRORS, "advance", "reconcile", "bots", "bot", "listener"),
}
#: Codes the pipeline stages answer by themselves (a game's own rules add theirs).
PIPELINE_CODES = (
    "bad_command",
    "bad_request",
    "bad_token",
    "stale_version",
    "table_exists",
    "unknown_game",
    "unknown_table",
    "dead_lettered",
    "unavailable",
)
GATEWAY_OUTCOMES = ("accepted", "rejected", "unknown")
FEED_AUDIENCES = ("spectator", "seat", "tournament")


def registry(*services: str, rejection_codes: Iterable[str] = ()) -> CollectorRegistry:
    """The metrics the process of ``services`` exports (one, or the stages it
    hosts together), with the process's own (CPU, memory, GC).

    ``rejection_codes``: codes the service answers besides :data:`PIPELINE_CODES`.
    """
    unknown = [s for s in services if s not in SERVICES]
    if unknown or not services:
        raise ValueError(f"unknown services {unknown!r}; name one or more of {SERVICES}")
    reg = CollectorRegistry()
    for metric, owners in OWNERS.items():
        if any(s in owners for s in services):
            reg.register(metric)
    ProcessCollector(registry=reg)
    PlatformCollector(registry=reg)
    GCCollector(registry=reg)
    for service in services:
        _create_known(service, rejection_codes)
    return reg


def owned(service: str) -> set[str]:
    """The names of the metric families ``service`` exports (without the process's own)."""
    return {f.name for m, owners in OWNERS.items() if service in owners for f in m.describe()}


def _create_known(service: str, rejection_codes: Iterable[str]) -> None:
    from shared.games import registry as games
    from shared.kernel.clocks import ClockSettings

    game_keys = games.available()
    for kind in ERROR_KINDS[service]:
        ERRORS.labels(service, kind)
    for generation in range(3):
        GC_PAUSE.labels(str(generation))
    if service in STAGE_OF:
        STAGE_LATENCY.labels(STAGE_OF[service])
    if service in READERS:
        BATCH_SIZE.labels(service)
        RECLAIMED.labels(service)
        DEAD_LETTERS.labels(service)
    if service in (VALIDATOR, REDUCER, PROJECTOR):
        CACHED_GAMES.labels(service)
        STORE_REWINDS.labels(service)
    if service != PROJECTOR:
        for code in (*PIPELINE_CODES, *rejection_codes):
            REJECTIONS.labels(service, code)
    if service == GATEWAY:
        for game in (*game_keys, "tournament"):
            for outcome in GATEWAY_OUTCOMES:
                COMMANDS.labels(service, game, outcome)
        for game in game_keys:
            VISIBLE_LATENCY.labels(game)
            LIVE_GAMES.labels(game)
        for audience in FEED_AUDIENCES:
            FEED_SUBSCRIBERS.labels(audience)
        for kind in EDGE_KINDS:
            EDGE_SLOTS.labels(kind)
        for what, why in EDGE_REFUSAL_SERIES:
            EDGE_REFUSALS.labels(what, why)
        # A play connection ends with one of the gateway's error codes, or stalled.
        for code in (*rejection_codes, "stalled"):
            PLAY_SOCKET_REFUSALS.labels(code)
    elif service == REDUCER:
        for game in game_keys:
            COMMANDS.labels(service, game, "accepted")
        for policy in typing.get_args(typing.get_type_hints(ClockSettings)["policy"]):
            CLOCK_TIMEOUTS.labels(policy)
        for outcome in DURABILITY_OUTCOMES:
            DURABILITY_WAITS.labels(outcome)
    elif service == TOURNAMENTS:
        COMMANDS.labels(service, "tournament", "accepted")
