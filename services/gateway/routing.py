"""The gateway's one routing table, and the declaration every route is written as.

Each resource module lists its routes (``routes``), each one a :class:`Route`
that says, beside its handler, what the OpenAPI document says of it: summary,
request and answer types, parameters, and every platform code it can answer
with. ``mounts.py`` puts the resources' lists in one :class:`Table`, which
``app.py`` serves; the OpenAPI document (``openapi.py``) is assembled from the
same declarations, so what a route does and what the document says of it are
written once, side by side (a route without a summary is no part of the API).

The table is matched once ahead of Starlette (:meth:`Table.ahead`): the two
routes a playing client calls all the time (``hot``) are answered in plain ASGI
(:class:`services.gateway.hot.HotRoutes`), and the one WebSocket route is handed
its connection; every other request goes to Starlette's router, made from the
same table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

import msgspec
from starlette.routing import BaseRoute, Mount
from starlette.routing import Route as StarletteRoute
from starlette.types import ASGIApp, Scope

Method = Literal["GET", "POST", "WEBSOCKET"]


@dataclass(frozen=True)
class Answer:
    """One successful answer of a route: its status and what it carries.

    ``struct`` is the msgspec type the handler encodes (its schema is generated);
    ``content`` describes an answer no one type holds (a stream of server-sent
    events, Prometheus text), and ``schemas`` the types that description names."""

    status: int
    struct: type[msgspec.Struct] | None = None
    description: str = "OK"
    many: bool = False
    content: dict[str, Any] | None = None
    schemas: tuple[type[msgspec.Struct], ...] = ()


@dataclass(frozen=True)
class Route:
    """One operation: method and path, its handler, and what the document says of it."""

    method: Method
    path: str
    handler: Callable[..., Any]
    #: None: not part of the API (a page, the documents themselves); not in the document.
    summary: str | None = None
    description: str | None = None
    parameters: Sequence[dict[str, Any]] = ()
    security: Sequence[dict[str, list[str]]] | None = None
    body: type[msgspec.Struct] | None = None
    example: dict[str, Any] | None = None
    answers: Sequence[Answer] = ()
    #: Every code the route can answer with: platform codes (``errors.Code``) and the
    #: rule codes of the domain it writes to (405 method_not_allowed is every route's).
    codes: Sequence[str] = ()
    #: A game's own rule codes answer 422 too: how the document names them.
    rules: str | None = None
    #: Answered in plain ASGI ahead of Starlette (the moves and view reads of play, and
    #: a table's live feed, which holds its request for hours).
    hot: bool = False

    def starlette(self) -> StarletteRoute:
        if self.method == "WEBSOCKET":  # matched by the table, never routed by Starlette
            return StarletteRoute(self.path, self.handler)
        return StarletteRoute(self.path, self.handler, methods=[self.method])


@dataclass(frozen=True)
class Mounted:
    """An ASGI application under a path prefix (the web client's files): not part of the API."""

    path: str
    app: ASGIApp


Entry = Route | Mounted


class Ahead(NamedTuple):
    """A request answered ahead of Starlette: its compiled route, its declaration, its path's values."""

    route: StarletteRoute
    declared: Route
    params: dict[str, Any]


class Table:
    """Every route of the gateway, matched in one place."""

    def __init__(self, entries: Sequence[Entry]) -> None:
        self.entries = tuple(entries)
        self.routes = tuple(e for e in self.entries if isinstance(e, Route))
        #: Compiled once: the hot routes and the WebSocket routes, matched by :meth:`ahead`.
        self._ahead = [(r, r.starlette()) for r in self.routes if r.hot or r.method == "WEBSOCKET"]
        self.hot = tuple(compiled for r, compiled in self._ahead if r.hot)
        #: Starlette's routes: every HTTP route (the hot ones first, should it ever see
        #: them) and the mounted applications.
        self.starlette: list[BaseRoute] = [
            *self.hot,
            *(r.starlette() for r in self.routes if not r.hot and r.method != "WEBSOCKET"),
            *(Mount(e.path, app=e.app) for e in self.entries if isinstance(e, Mounted)),
        ]

    def ahead(self, scope: Scope) -> Ahead | None:
        """A hot route's request or a WebSocket route's connection, with its route;
        None: Starlette's to route (a WebSocket it gets is refused by the application)."""
        if scope["type"] not in ("http", "websocket") or scope.get("root_path"):
            return None  # a mounted application: Starlette's own routing strips the prefix
        socket = scope["type"] == "websocket"
        path = scope["path"]
        for declared, compiled in self._ahead:
            if (declared.method == "WEBSOCKET") != socket:
                continue
            found = compiled.path_regex.match(path)
            if found is not None:
                params = {k: compiled.param_convertors[k].convert(v) for k, v in found.groupdict().items()}
                return Ahead(compiled, declared, params)
        return None
