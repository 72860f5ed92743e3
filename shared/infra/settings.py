"""Settings from ``ZIGGURAT_*`` environment variables, validated by msgspec."""

from __future__ import annotations

import os
import socket

import msgspec


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    redis_url: str = "redis://127.0.0.1:6399/0"
    cluster: bool = False
    #: Games hash into this many partitions; every service must agree on it.
    partitions: int = 4
    node: str = f"{socket.gethostname()}-{os.getpid()}"
    #: A reducer owns the partitions p with p % reducer_count == reducer_index.
    reducer_index: int = 0
    reducer_count: int = 1
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
    log_level: str = "info"
    #: The gateway the tournament service's bots play through ("" = this host's http_port).
    api_url: str = ""
    #: Pause between a tournament bot's moves, so people can follow the games.
    bot_pace_ms: int = 0


def load() -> Settings:
    raw: dict[str, object] = {}
    for field in Settings.__struct_fields__:
        value = os.environ.get(f"ZIGGURAT_{field.upper()}")
        if value is not None:
            raw[field] = value
    return msgspec.convert(raw, Settings, strict=False)
