"""``python -m services.web``: the web client's files, for a proxy to route ``/`` and
``/static/`` to (deploy/edge/haproxy.cfg); everything else goes to the gateways."""

from __future__ import annotations

import uvicorn

from services.web.app import create_app
from shared.infra.settings import load
from shared.observability.logging import configure


def main() -> None:
    settings = load()
    log = configure("web", settings.node, settings.log_level)
    log.info("started", http_port=settings.http_port)
    uvicorn.run(
        create_app(),
        host=settings.http_host,
        port=settings.http_port,
        log_level="warning",
        access_log=False,
        loop="uvloop",
        # Nothing here lasts: a stop waits for the answers in flight only.
        timeout_graceful_shutdown=2,
    )


if __name__ == "__main__":
    main()
