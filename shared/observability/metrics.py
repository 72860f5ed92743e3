"""Every Prometheus metric the services export, defined once.

Names are the contract with deploy/grafana: a test checks that every metric a
dashboard queries is defined here.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

_LATENCY = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

COMMANDS = Counter("ziggurat_commands_total", "Commands by game and outcome", ["service", "game", "outcome"])
REJECTIONS = Counter("ziggurat_rejections_total", "Rejected commands by reason", ["service", "code"])
APPEND_CONFLICTS = Counter(
    "ziggurat_append_conflicts_total", "Appends refused because another writer got there first"
)
DUPLICATES = Counter("ziggurat_duplicate_commands_total", "Commands answered from their first outcome")
STAGE_LATENCY = Histogram(
    "ziggurat_stage_seconds",
    "Time spent from the gateway's receipt to the end of a stage",
    ["stage"],
    buckets=_LATENCY,
)
REQUEST_LATENCY = Histogram(
    "ziggurat_http_request_seconds", "Gateway request latency", ["route"], buckets=_LATENCY
)
BATCH_SIZE = Histogram(
    "ziggurat_batch_size", "Messages handled per batch", ["service"], buckets=(1, 2, 5, 10, 20, 50, 100, 200)
)
PROJECTION_LAG = Gauge(
    "ziggurat_projection_lag_seconds",
    "Age of the oldest event not yet projected (0 when caught up); rises while the projector is stalled",
    ["partition"],
)
STAGE_BACKLOG = Gauge(
    "ziggurat_stage_backlog_seconds",
    "Age of the oldest entry a stage has not acknowledged (0 when caught up)",
    ["stage", "partition"],
)
DEAD_LETTERS_WAITING = Gauge("ziggurat_dead_letters_waiting", "Dead letters waiting for an operator")
PIPELINE_READY = Gauge("ziggurat_pipeline_ready", "1 when no stage is stalled and no dead letter waits")
EVENTS_PROJECTED = Counter("ziggurat_events_projected_total", "Events folded into read models")
LIVE_GAMES = Gauge("ziggurat_live_games", "Games held in memory", ["service"])
REDIS_ROUND_TRIPS = Counter(
    "ziggurat_redis_round_trips_total", "Writes to Redis (a pipeline counts once) by this process"
)
RECLAIMED = Counter(
    "ziggurat_reclaimed_total", "Entries claimed after another consumer left them unacknowledged", ["service"]
)
ERRORS = Counter("ziggurat_errors_total", "Unexpected errors by service and kind", ["service", "kind"])
DEAD_LETTERS = Counter(
    "ziggurat_dead_letters_total", "Messages a stage failed on and set aside for an operator", ["service"]
)
FEED_SUBSCRIBERS = Gauge("ziggurat_feed_subscribers", "Open live feeds", ["audience"])

# Tournaments and clocks.
TABLES_LIVE = Gauge("ziggurat_tournament_tables_live", "Tournament tables being played")
TOURNAMENT_MOVES = Counter("ziggurat_tournament_moves_total", "Moves played at tournament tables")
CLOCK_TIMEOUTS = Counter("ziggurat_clock_timeouts_total", "Seat clocks that ran out", ["policy"])
PAIRING_SECONDS = Histogram(
    "ziggurat_pairing_seconds", "Time to pair a tournament round", buckets=(0.001, 0.01, 0.1, 1.0, 10.0)
)
