"""The gateway's web application: HTTP in, server-sent events out.

It mounts the one routing table (:mod:`services.gateway.mounts`: every
resource's routes) and answers every error alike; the routes themselves live
with their resources."""

from __future__ import annotations

import functools
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import structlog
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from services.gateway import asyncapi, openapi
from services.gateway.connections import Connections
from services.gateway.context import Changes, Gateway
from services.gateway.credentials import Credentials
from services.gateway.errors import (
    INTERNAL_MESSAGE,
    STATUS,
    STORE_DOWN_MESSAGE,
    ApiError,
    error_body,
    error_response,
    status_of,
)
from services.gateway.feeds import FeedHub
from services.gateway.hot import STATUS_CLASS, HotRoutes
from services.gateway.mounts import TABLE
from services.gateway.ratelimit import Limits
from services.gateway.watch import PipelineWatch
from shared.eventstore.store import EventStore
from shared.infra import durability
from shared.infra.coalesce import Coalescer
from shared.infra.memory import freeze_startup_objects
from shared.infra.redis_client import STORE_DOWN, Subscriber, store_client
from shared.infra.settings import Settings, load
from shared.messaging.broker import make_broker
from shared.messaging.replies import Replies
from shared.observability import metrics
from shared.observability.logging import configure
from shared.readmodels.server import read_model_client

log = structlog.get_logger()


@functools.cache
def document(name: str) -> bytes:
    """``openapi`` or ``asyncapi``, as served (``system.py``): each is the same for the
    process's life; building and encoding it again per request would hand a client a
    cheap way to spend the gateway's CPU."""
    return json.dumps(
        openapi.spec() if name == "openapi" else asyncapi.spec(), separators=(",", ":")
    ).encode()


async def on_api_error(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    metrics.REJECTIONS.labels("gateway", exc.code).inc()
    return error_response(exc.code, exc.message, exc.details, exc.headers)


async def on_store_down(_: Request, exc: Exception) -> Response:
    metrics.ERRORS.labels("gateway", "store_unreachable").inc()
    return error_response("unavailable", STORE_DOWN_MESSAGE)


async def on_not_found(_: Request, exc: Exception) -> Response:
    return error_response("not_found", "There is nothing at this address.")


async def on_wrong_method(request: Request, exc: Exception) -> Response:
    allowed = dict(getattr(exc, "headers", None) or {})
    # A path may be served by several routes (POST /v1/tables opens a table, GET
    # lists them); Starlette names only the first one's methods.
    methods = {m for route in ROUTES if isinstance(route, Route) for m in _methods_at(route, request.scope)}
    if methods:
        allowed["Allow"] = ", ".join(sorted(methods))
    return error_response(
        "method_not_allowed",
        f"{request.method} is not allowed here; use {allowed.get('Allow', 'another method')}.",
        headers=allowed,
    )


def _methods_at(route: Route, scope: Scope) -> set[str]:
    return set(route.methods or ()) if route.path_regex.match(scope["path"]) else set()


async def on_unexpected(request: Request, exc: Exception) -> Response:
    """A bug, not the client's fault: logged with its traceback, answered plainly."""
    metrics.ERRORS.labels("gateway", "unexpected").inc()
    log.exception("unexpected_error", path=request.url.path, method=request.method)
    return error_response("internal", INTERNAL_MESSAGE)


class Timing:
    """Request latency by route and status class, as plain ASGI: Starlette's
    BaseHTTPMiddleware would add a task group and memory streams to every request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        # An exception that escapes this far is answered 500 by Starlette's
        # outermost middleware, after this one: count it as such.
        status = 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            route = scope.get("route")
            name = getattr(route, "path", "unmatched")
            metrics.REQUEST_LATENCY.labels(name, STATUS_CLASS.get(status // 100, "5xx")).observe(
                time.perf_counter() - started
            )


#: Starlette's routes, from the one table (``mounts.TABLE``).
ROUTES = TABLE.starlette


class GatewayApp(Starlette):
    """Starlette, with what the table answers ahead of it (the hot routes, in plain
    ASGI ahead of its middleware, and the play connections) matched once."""

    hot: HotRoutes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = TABLE.ahead(scope)
        if found is None:
            if scope["type"] == "websocket":
                await refuse_upgrade(scope, receive, send)
            else:
                await super().__call__(scope, receive, send)
        elif found.declared.method == "WEBSOCKET":
            await found.declared.handler(self, found.params, scope, receive, send)
        else:
            await self.hot.serve(self, found.route, found.params, scope, receive, send)


async def refuse_upgrade(scope: Scope, receive: Receive, send: Send) -> None:
    """A WebSocket handshake anywhere but a play connection's address: answered as
    the HTTP request it is (404, in the error format), never handed to a route that
    only speaks HTTP (the static files' would fail with a 500)."""
    metrics.EDGE_REFUSALS.labels("http", "upgrade_elsewhere").inc()
    await receive()  # websocket.connect
    body = error_body("not_found", "Only /v1/tables/{table_id}/play accepts a WebSocket.")
    if "websocket.http.response" in scope.get("extensions", {}):
        headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
        await send(
            {"type": "websocket.http.response.start", "status": status_of("not_found"), "headers": headers}
        )
        await send({"type": "websocket.http.response.body", "body": body})
    else:  # the server answers a close before accepting with 403
        await send({"type": "websocket.close", "code": 1008, "reason": "not_found"})


def create_app(settings: Settings | None = None, connections: Connections | None = None) -> Starlette:
    settings = settings or load()
    connections = connections or Connections.from_settings(settings)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        configure("gateway", settings.node, settings.log_level)
        redis = store_client(settings)
        read = read_model_client(settings, redis)
        broker = make_broker(settings)
        await broker.connect()
        # Pub/sub on whichever node of the store answers, never one node for good.
        subscriber = Subscriber(redis)
        replies = Replies(subscriber, settings.node)
        changes = Changes(subscriber)
        await replies.start()
        await changes.start()
        app.state.gateway = Gateway(
            settings=settings,
            redis=redis,
            broker=broker,
            batch=Coalescer(redis),
            replies=replies,
            changes=changes,
            limits=Limits.from_settings(settings),
            store=EventStore(redis, durable=durability.configured(settings)),
            watch=PipelineWatch(redis, settings.partitions, settings.stall_after_s, subscriber, read),
            feeds=FeedHub(changes, connections),
            read=read,
        )
        app.state.gateway.watch.start()
        credentials = app.state.credentials = Credentials(
            app.state.gateway.batch, changes, settings.credential_check_s
        )
        await credentials.start()
        freeze_startup_objects()
        yield
        await credentials.stop()
        await app.state.gateway.watch.stop()
        await replies.stop()
        await changes.stop()
        await broker.stop()
        await redis.aclose()
        if read is not redis:
            await read.aclose()

    app = GatewayApp(
        routes=ROUTES,
        lifespan=lifespan,
        middleware=[Middleware(Timing)],
        exception_handlers={
            ApiError: on_api_error,
            # The store, or one node of it, unreachable or failing over: 503 unavailable.
            **dict.fromkeys(STORE_DOWN, on_store_down),
            404: on_not_found,
            405: on_wrong_method,
            Exception: on_unexpected,
        },
    )
    app.hot = HotRoutes(TABLE.hot)
    app.state.document = document
    app.state.connections = connections
    app.state.metrics = metrics.registry("gateway", rejection_codes=STATUS)
    for route in ROUTES:  # an error rate of 0 is a figure; no series is a gap
        if isinstance(route, Route | Mount):
            metrics.REQUEST_LATENCY.labels(route.path, "5xx")
    return app
