"""``python -m services.gateway``: the HTTP edge (uvicorn + Starlette)."""

from __future__ import annotations

import uvicorn

from services.gateway.app import create_app
from services.gateway.transport import GatewayHttpProtocol
from shared.infra.settings import load


def main() -> None:
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
        loop="uvloop",
    )


if __name__ == "__main__":
    main()
