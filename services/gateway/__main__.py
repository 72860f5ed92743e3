"""``python -m services.gateway``: the HTTP edge (uvicorn + Starlette)."""

from __future__ import annotations

import contextlib
import resource

import structlog
import uvicorn

from services.gateway.app import create_app
from services.gateway.connections import Connections
from services.gateway.transport import bind
from shared.infra.settings import Settings, load


def raise_open_files_limit() -> None:
    """Every live-feed subscriber holds a socket: 1,024 (a common soft limit) is too few.
    The socket ceiling is derived from the limit this leaves (connections.ceiling)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):  # not allowed: keep the limit we have
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def server_config(settings: Settings, connections: Connections | None = None) -> uvicorn.Config:
    """The gateway's server, as ``python -m services.gateway`` runs it (tests start it alike)."""
    connections = connections or Connections.from_settings(settings)
    http, ws = bind(settings, connections)
    return uvicorn.Config(
        create_app(settings, connections),
        host=settings.http_host,
        port=settings.http_port,
        log_level="warning",
        access_log=False,
        lifespan="on",
        # The client's address comes from services/gateway/connections.py, which
        # believes X-Forwarded-For from the trusted proxies only.
        proxy_headers=False,
        http=http,
        ws=ws,
        # Play connections (services/gateway/tables/play_socket.py): a message is a
        # command, bounded like a POST body (the gateway answers one a little
        # over the limit with body_too_large; far over it, the protocol closes
        # with 1009). No per-message compression: views are small and its CPU
        # would cost more than the bytes it saves on the networks we serve.
        ws_max_size=2 * settings.max_body_bytes,
        ws_per_message_deflate=False,
        loop="uvloop",
        # Live feeds never end by themselves: on a stop, give requests in
        # flight two seconds, then close the feeds (clients resume with
        # Last-Event-ID) rather than hold the stop for a heartbeat interval.
        timeout_graceful_shutdown=2,
    )


def main() -> None:
    raise_open_files_limit()
    settings = load()
    connections = Connections.from_settings(settings)
    structlog.get_logger().info("edge_limits", **connections.describe())
    uvicorn.Server(server_config(settings, connections)).run()


if __name__ == "__main__":
    main()
