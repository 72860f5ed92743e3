"""The two routes a playing client calls all the time, answered in plain ASGI.

A move (``POST /v1/tables/{id}/commands``) and a view read
(``GET /v1/tables/{id}/view``) are most of the gateway's requests. Through
Starlette each passes three middleware layers (server errors, timing,
exceptions), two exception-catching wrappers, the router and the endpoint
wrapper, and its answer goes back through as many wrapped ``send``
functions: more CPU than the handler itself spends. Here the same route
objects (their path pattern, methods and endpoint), matched by the routing
table (:meth:`services.gateway.routing.Table.ahead`), are answered directly;
every other request goes on to Starlette unchanged.

A table's live feed (``GET /v1/tables/{id}/feed``) is served here too, for
another reason: its request lasts for hours, and through Starlette each of the
thousands a gateway holds would keep every layer's coroutine and wrapped
``send`` alive, memory that each of the collector's full passes walks
(docs/performance.md, "Round 3: spectators"). Its endpoint returns an answer
that writes itself (:class:`Streaming`).

What a request sees is the same either way: the endpoint is the same
function, an exception gets the answer of the application's own exception
handler (looked up as Starlette looks it up), a method the route does not
serve gets the application's 405, the latency histogram gets the same
labels, and an unexpected error is re-raised after its 500 is sent so that
uvicorn logs it and closes the connection, as it does behind Starlette's
outermost middleware.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from shared.observability import metrics

ExceptionHandler = Callable[[Request, Exception], Any]
#: The status label of the latency histogram (here and in ``app.Timing``): the class is
#: what availability needs; the exact code of every refusal is in
#: ``ziggurat_rejections_total{code}``.
STATUS_CLASS = {n: f"{n}xx" for n in range(1, 6)}


class JsonAnswer(Response):
    """A JSON answer of a hot route: the headers Starlette's ``Response`` gives the same
    body and media type (``content-length``, ``content-type``), written directly rather
    than through its generic assembly (2.5 µs a request against 4)."""

    media_type = "application/json"

    def __init__(self, body: bytes, status_code: int = 200) -> None:
        self.status_code = status_code
        self.body = body
        self.background = None
        self.raw_headers = [(b"content-length", b"%d" % len(body)), (b"content-type", b"application/json")]


class Streaming(Protocol):
    """An answer that writes itself (a live feed, ``services.gateway.feeds``): served
    here, a feed held for hours keeps no middleware's frames and closures alive."""

    status_code: int

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None: ...


class HotRoutes:
    """Serves ``routes`` (Starlette routes with function endpoints) itself."""

    def __init__(self, routes: Sequence[Route]) -> None:
        self.routes = tuple(routes)
        # Metric children looked up once: ``labels()`` costs more than the observation.
        self._latency = {
            (route.path, label): metrics.REQUEST_LATENCY.labels(route.path, label)
            for route in self.routes
            for label in STATUS_CLASS.values()
        }

    async def serve(
        self,
        app: Any,
        route: Route,
        params: dict[str, Any],
        scope: Scope,
        receive: Receive,
        send: Send,
    ) -> None:
        """Answer one request of ``route``; ``app`` is the Starlette application whose
        state the endpoint reads and whose exception handlers answer its errors."""
        started = time.perf_counter()
        scope["app"] = app
        scope["path_params"] = params
        scope["route"] = route
        request = Request(scope, receive, send)
        status = 500
        try:
            unexpected: Exception | None = None
            try:
                if route.methods and scope["method"] not in route.methods:
                    raise HTTPException(405, headers={"Allow": ", ".join(route.methods)})
                response: Response | Streaming = await route.endpoint(request)
            except Exception as exc:
                handler = _handler(app.exception_handlers, exc)
                if handler is None:
                    unexpected = exc
                    handler = app.exception_handlers.get(Exception) or app.exception_handlers.get(500)
                if handler is None:
                    raise
                response = await handler(request, exc)
            if isinstance(response, Response):
                status = response.status_code
                await send({"type": "http.response.start", "status": status, "headers": response.raw_headers})
                await send({"type": "http.response.body", "body": response.body})
            else:
                await response(scope, receive, send)
                status = response.status_code
            if unexpected is not None:
                raise unexpected
        finally:
            self._latency[route.path, STATUS_CLASS.get(status // 100, "5xx")].observe(
                time.perf_counter() - started
            )


def _handler(handlers: Mapping[Any, ExceptionHandler], exc: Exception) -> ExceptionHandler | None:
    """The handler Starlette's ExceptionMiddleware would pick (by status for an HTTP
    exception, else by class); None where only its server-error middleware answers."""
    if isinstance(exc, HTTPException) and exc.status_code in handlers:
        return handlers[exc.status_code]
    for cls in type(exc).__mro__:
        if cls is Exception:
            return None  # Starlette hands the catch-all to the outermost middleware
        if cls in handlers:
            return handlers[cls]
    return None
