"""``python -m services.gateway``: the HTTP edge (uvicorn + Starlette)."""

from __future__ import annotations

import contextlib
import resource

import uvicorn

from services.gateway.app import create_app
from services.gateway.transport import GatewayHttpProtocol
from shared.infra.settings import load


def raise_open_files_limit() -> None:
    """Every live-feed subscriber holds a socket: 1,024 (a common soft limit) is too few."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):  # not allowed: keep the limit we have
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def main() -> None:
    raise_open_files_limit()
    settings = load()
    uvicorn.run(
        create_app(settings),
        host=settings.http_host,
        port=settings.http_port,
        log_level="warning",
        access_log=False,
        lifespan="on",
        # Clients are identified by their tokens, never by a forwarded address.
        proxy_headers=False,
        http=GatewayHttpProtocol,  # type: ignore[arg-type]
        # Play connections (services/gateway/play_socket.py): a message is a
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


if __name__ == "__main__":
    main()
