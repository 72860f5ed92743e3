"""The web service's app: the client's two endpoints and a liveness check, nothing else."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route

from services.web.assets import ASSETS, index, not_found

_ALIVE = b'{"ok":true}'


async def health(request: Request) -> Response:
    """Liveness for the proxy's checks and the orchestrator's probes: it reads no
    store, so it is the process answering at all."""
    return Response(_ALIVE, media_type="application/json")


async def _missing(request: Request, exc: Exception) -> Response:
    return not_found("There is no such page.")


def create_app() -> Starlette:
    routes = [Route("/", index), Route("/health", health), Mount("/static", app=ASSETS)]
    return Starlette(routes=routes, exception_handlers={404: _missing, 405: _missing})
