"""The gateway's web application: HTTP in, server-sent events out."""

from __future__ import annotations

import functools
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import structlog
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from services.gateway import (
    arenas,
    asyncapi,
    bots,
    casual,
    commands,
    packs,
    play_socket,
    players,
    reads,
    tournaments,
    web,
)
from services.gateway.answers import GameInfo, Health
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
from services.gateway.openapi import spec
from services.gateway.ratelimit import Limits
from services.gateway.watch import PipelineWatch
from services.web import assets as client
from shared.eventstore.store import EventStore
from shared.games import registry
from shared.infra.coalesce import Coalescer
from shared.infra.memory import freeze_startup_objects
from shared.infra.redis_client import STORE_DOWN, Subscriber, store_client
from shared.infra.settings import Settings, load
from shared.messaging.broker import make_broker
from shared.messaging.messages import encode
from shared.messaging.replies import Replies
from shared.observability import metrics
from shared.observability.health import ready_body, store_readiness
from shared.observability.logging import configure
from shared.readmodels.server import read_model_client

log = structlog.get_logger()


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


@functools.cache
def _document(name: str) -> bytes:
    # Each document is the same for the process's life; building and encoding it
    # again per request would hand a client a cheap way to spend the gateway's CPU.
    return json.dumps(spec() if name == "openapi" else asyncapi.spec(), separators=(",", ":")).encode()


async def openapi(_: Request) -> Response:
    return Response(_document("openapi"), media_type="application/json")


async def asyncapi_document(_: Request) -> Response:
    """The broker's channels and message types (docs/asyncapi.json)."""
    return Response(_document("asyncapi"), media_type="application/json")


async def docs(_: Request) -> Response:
    return HTMLResponse(
        "<!doctype html><title>Ziggurat API</title><h1>Ziggurat API</h1>"
        '<p>The OpenAPI 3.1 spec is at <a href="/openapi.json">/openapi.json</a>.</p>'
    )


async def games(_: Request) -> Response:
    listing = []
    for key in registry.available():
        game = registry.get(key)
        listing.append(
            GameInfo(
                key=key,
                title=game.title,
                min_seats=game.min_seats,
                max_seats=game.max_seats,
                options=game.options(),
            )
        )
    return Response(encode(listing), media_type="application/json")


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


#: The two routes a playing client calls all the time: answered by :class:`HotRoutes`
#: before Starlette (and first in Starlette's order, should it ever see them).
HOT = [
    Route("/v1/tables/{table_id}/commands", commands.submit_command, methods=["POST"]),
    Route("/v1/tables/{table_id}/view", reads.view),
]
ROUTES = [
    *HOT,
    Route("/v1/tables", commands.open_table, methods=["POST"]),
    Route("/health", health),
    Route("/ready", ready),
    Route("/metrics", prometheus),
    Route("/openapi.json", openapi),
    Route("/asyncapi.json", asyncapi_document),
    Route("/docs", docs),
    Route("/v1/games", games),
    Route("/v1/games/{game}/packs/{pack}/board", packs.board),
    Route("/v1/tables/{table_id}/feed", reads.feed),
    Route("/v1/tables/{table_id}/log", reads.public_log),
    Route("/v1/tables/{table_id}/replay", reads.replay),
    Route("/v1/tables/{table_id}/audit", reads.audit_log),
    Route("/v1/tournaments", tournaments.create, methods=["POST"]),
    Route("/v1/tournaments/{tournament_id}/players", tournaments.register, methods=["POST"]),
    Route(
        "/v1/tournaments/{tournament_id}/players/{player_id}/withdraw", tournaments.withdraw, methods=["POST"]
    ),
    Route("/v1/tournaments/{tournament_id}/start", tournaments.start, methods=["POST"]),
    Route("/v1/tournaments/{tournament_id}/rounds", tournaments.pair_round, methods=["POST"]),
    Route("/v1/tournaments/{tournament_id}/finish", tournaments.finish, methods=["POST"]),
    Route("/v1/tournaments/{tournament_id}/standings", tournaments.standings),
    Route("/v1/tournaments/{tournament_id}/pairings", tournaments.pairings),
    Route("/v1/tournaments/{tournament_id}/log", tournaments.log),
    Route("/v1/tournaments/{tournament_id}/feed", tournaments.feed),
    Route("/v1/tournaments/{tournament_id}/me", tournaments.my_table),
    Route("/v1/tables", web.list_tables),
    Route("/v1/tables/{table_id}/about", web.about),
    Route("/v1/tables/{table_id}/verify", web.verify),
    Route("/v1/tables/{table_id}/bots", web.add_bots, methods=["POST"]),
    Route("/v1/tournaments", web.list_tournaments),
    Route("/v1/players", players.register, methods=["POST"]),
    Route("/v1/players/{player_id}", players.player_page),
    Route("/v1/players/{player_id}/key", players.rotate_key, methods=["POST"]),
    Route("/v1/tournaments/{tournament_id}/join", players.join_tournament, methods=["POST"]),
    Route("/v1/ladders/{game}", players.ladder),
    Route("/v1/bot/stream", bots.stream),
    Route("/v1/arenas", arenas.create, methods=["POST"]),
    Route("/v1/arenas", arenas.listing),
    Route("/v1/arenas/{arena_id}", arenas.view),
    Route("/v1/arenas/{arena_id}/join", arenas.join, methods=["POST"]),
    Route("/v1/arenas/{arena_id}/leave", arenas.leave, methods=["POST"]),
    Route("/v1/casual", casual.invite, methods=["POST"]),
    Route("/v1/casual/{invitation_id}", casual.view),
    Route("/v1/casual/{invitation_id}/accept", casual.accept, methods=["POST"]),
    Route("/v1/casual/{invitation_id}/decline", casual.decline, methods=["POST"]),
    # The web client (services/web), served here under `make run`; in the
    # deployments the proxy routes these two paths to the web service instead.
    Route("/", client.index),
    Mount("/static", app=client.ASSETS),
]


class GatewayApp(Starlette):
    """Starlette, with the hot routes answered in plain ASGI ahead of its middleware."""

    hot: HotRoutes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = self.hot.match(scope)
        if found is not None:
            await self.hot.serve(self, *found, scope, receive, send)
        elif (table_id := play_socket.match(scope)) is not None:
            await play_socket.serve(self, table_id, scope, receive, send)
        elif scope["type"] == "websocket":
            await refuse_upgrade(scope, receive, send)
        else:
            await super().__call__(scope, receive, send)


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
            store=EventStore(redis),
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
    app.hot = HotRoutes(HOT)
    app.state.connections = connections
    app.state.metrics = metrics.registry("gateway", rejection_codes=STATUS)
    for route in ROUTES:  # an error rate of 0 is a figure; no series is a gap
        metrics.REQUEST_LATENCY.labels(route.path, "5xx")
    return app
