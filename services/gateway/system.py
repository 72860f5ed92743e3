"""The gateway's own state and documents: liveness, readiness, metrics, the API's
specs."""

from __future__ import annotations

from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from services.gateway.answers import Health
from services.gateway.context import Gateway
from services.gateway.routing import Answer, Route
from shared.messaging.messages import encode
from shared.observability.health import Ready, ready_body, store_readiness


async def health(request: Request) -> Response:
    """Liveness: the process answers. Never touches the store (an outage of
    Valkey must not get healthy gateways restarted)."""
    gw: Gateway = request.app.state.gateway
    return Response(encode(Health(ok=True, node=gw.settings.node)), media_type="application/json")


async def ready(request: Request) -> Response:
    """Readiness: the store answers, no stage is stalled, no dead letter waits.

    ``?scope=store`` checks only the store: the probe that routes traffic uses
    it, since taking every gateway out of service for one dead letter would
    turn one bad message into an outage (the alerts page for those instead).
    """
    gw: Gateway = request.app.state.gateway
    problems = await store_readiness(gw.redis)()
    if request.query_params.get("scope") != "store" and not problems:
        problems = gw.watch.problems() if gw.watch.measured else ["the pipeline has not been measured yet"]
    return Response(ready_body(problems), status_code=503 if problems else 200, media_type="application/json")


async def prometheus(request: Request) -> Response:
    """The gateway's own metrics only (see :func:`shared.observability.metrics.registry`)."""
    return Response(generate_latest(request.app.state.metrics), media_type=CONTENT_TYPE_LATEST)


async def openapi(request: Request) -> Response:
    # The application builds each document once (``app.document``): the document
    # names every resource, which no resource may import.
    return Response(request.app.state.document("openapi"), media_type="application/json")


async def asyncapi_document(request: Request) -> Response:
    """The broker's channels and message types (docs/asyncapi.json)."""
    return Response(request.app.state.document("asyncapi"), media_type="application/json")


async def docs(_: Request) -> Response:
    return HTMLResponse(
        "<!doctype html><title>Ziggurat API</title><h1>Ziggurat API</h1>"
        '<p>The OpenAPI 3.1 spec is at <a href="/openapi.json">/openapi.json</a>.</p>'
    )


routes = [
    Route(
        "GET",
        "/health",
        health,
        summary="Liveness: the process answers; never consults the store",
        answers=[Answer(200, Health)],
    ),
    Route(
        "GET",
        "/ready",
        ready,
        summary="Readiness: the store answers, no stage is stalled, no dead letter waits",
        description="`?scope=store` checks only the store (for the probe that routes traffic). "
        "503 lists the problems.",
        parameters=[{"name": "scope", "in": "query", "schema": {"enum": ["store"]}}],
        answers=[Answer(200, Ready, "Ready"), Answer(503, Ready, "Not ready")],
    ),
    Route(
        "GET",
        "/metrics",
        prometheus,
        summary="Prometheus metrics",
        answers=[
            Answer(
                200,
                description="Prometheus text exposition",
                content={"text/plain": {"schema": {"type": "string"}}},
            )
        ],
    ),
    # The documents themselves, and their page: for people, not part of the API.
    Route("GET", "/openapi.json", openapi),
    Route("GET", "/asyncapi.json", asyncapi_document),
    Route("GET", "/docs", docs),
]
