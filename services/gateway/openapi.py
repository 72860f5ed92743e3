"""The gateway's OpenAPI 3.1 document, committed as docs/openapi.json, assembled
from the routes' own declarations (:class:`services.gateway.routing.Route`).

Every schema is generated from the msgspec type that decodes a request body
or encodes an answer (each answer's type lives beside its route), so the
bounds a type declares are the bounds the document promises. The documents an
answer copies unparsed from another stage (views, feeds' entries) are named by
their types too (``answers.stored``). Only a game's event, whose fields each
game's own types decide, is described by hand, and schemathesis checks every
answer against its schema (tests/gateway/test_openapi_fuzz.py).

Every operation lists every status it can answer, each error status with the
codes it carries; ``tests/gateway/test_openapi_spec.py`` checks the codes
against the routes' code, and the committed copy against this one. Paths are
in sorted order, so the document does not depend on the order resources are
mounted in.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Sequence
from typing import Any

import msgspec

from services.gateway import body as request_body
from services.gateway import tournaments
from services.gateway.answers import EVENT, SCHEMAS
from services.gateway.apidoc import ref
from services.gateway.errors import STATUS, Error, status_of
from services.gateway.feeds import FeedCut
from services.gateway.mounts import TABLE
from services.gateway.routing import Answer, Route
from shared.readmodels.build import FeedEntry

#: A value inside a game command, besides its 'type'.
SCALAR = {"type": ["string", "integer", "number", "boolean", "null"]}
COMMAND_VALUE = {
    "anyOf": [SCALAR, {"type": "array", "items": SCALAR}, {"type": "object", "additionalProperties": SCALAR}]
}
#: Every route that documents itself.
DOCUMENTED = [route for route in TABLE.routes if route.summary is not None]
#: Named by every error answer, and by every live stream's last frame.
_ALWAYS = (Error, FeedCut, FeedEntry)


# -- generated schemas -------------------------------------------------------------


def _tidy(node: Any) -> None:
    """Docstrings as msgspec copies them keep their indentation: one line of prose instead.

    A tuple of n values of one type (a rating's (mu, sigma)) becomes ``items`` with n as
    its min and max length: the same constraint as msgspec's ``prefixItems`` with
    ``items: false``, which schemathesis 4.32 cannot check a response against (it
    reports a schema error; schemathesis issue #3842)."""
    if isinstance(node, dict):
        if isinstance(node.get("description"), str):
            node["description"] = " ".join(inspect.cleandoc(node["description"]).split())
        prefix = node.get("prefixItems")
        if prefix and node.get("items") is False and all(p == prefix[0] for p in prefix):
            del node["prefixItems"]
            node["items"] = prefix[0]
        for value in node.values():
            _tidy(value)
    elif isinstance(node, list):
        for value in node:
            _tidy(value)


def _types(routes: Sequence[Route]) -> list[type[msgspec.Struct]]:
    """Every type a route decodes or encodes, or its description names, each once."""
    found: list[type[msgspec.Struct]] = []
    for route in routes:
        if route.body is not None:
            found.append(route.body)
        for answer in route.answers:
            found.extend(answer.schemas)
            if answer.struct is not None:
                found.append(answer.struct)
    return list(dict.fromkeys([*found, *_ALWAYS]))


def _generated() -> dict[str, Any]:
    """Components generated from the routes' own request and answer types."""
    _, components = msgspec.json.schema_components(
        # What the gateway checks of a game command (the game's own types check the rest).
        [*_types(DOCUMENTED), request_body._Tagged],
        ref_template=SCHEMAS + "{name}",
    )
    # Defaults as JSON has them.
    components = msgspec.json.decode(msgspec.json.encode(components), type=dict[str, Any])
    _tidy(components)
    command = components.pop("_Tagged")
    command.pop("title", None)
    command["description"] = (
        "A command of the table's game: an object tagged by 'type' "
        "(e.g. 'tigris.place_tile'); the game's own types decide the rest."
    )
    # Every hosted game's commands hold scalars, and lists or maps of scalars (a test
    # checks): said here, so the document (and a fuzzer) never nests values without end.
    command["additionalProperties"] = COMMAND_VALUE
    components["Move"]["properties"]["command"] = command
    # Checked by the route, beyond what the type says: ids are made of safe characters.
    for name, field in (("NewTournament", "tournament_id"), ("NewPlayer", "player_id")):
        components[name]["properties"][field]["anyOf"][0]["pattern"] = tournaments.ID.pattern
    return components


# -- described by hand: no type holds these -------------------------------------------

#: Any hosted game's event: each game's own event union decides its fields, and the
#: gateway passes events through unparsed (answers.Event), so only the tag is promised.
_HAND_WRITTEN: dict[str, Any] = {
    EVENT: {
        "type": "object",
        "description": "An event as the requester may see it, tagged by 'type' (e.g. 'table.opened')",
        "required": ["type"],
        "properties": {"type": {"type": "string"}},
    },
}

# -- operations ----------------------------------------------------------------------

_HEADERS: dict[int, dict[str, Any]] = {
    405: {
        "Allow": {
            "description": "The methods this address accepts",
            "required": True,
            "schema": {"type": "string"},
        }
    },
    429: {
        "Retry-After": {
            "description": "Seconds until the budget has room again",
            "required": True,
            "schema": {"type": "string", "pattern": "^[1-9][0-9]*$"},
        }
    },
}


def _error_response(status: int, codes: list[str], open_codes: str | None) -> dict[str, Any]:
    """One status's answer: the error body, its possible codes, and the status's headers."""
    if open_codes is None:
        code: dict[str, Any] = {"enum": codes}
        description = "Rejected: " + ", ".join(codes)
    else:
        # Any rule code, but never a platform code of another status.
        others = sorted({str(c) for c, s in STATUS.items() if s != status} - set(codes))
        code = {"type": "string", "pattern": "^[a-z][a-z0-9_.]*$", "not": {"enum": others}}
        description = "Rejected: " + ", ".join([*codes, open_codes])
    schema = {"allOf": [ref("Error"), {"properties": {"code": code}}]}
    out: dict[str, Any] = {"description": description, "content": {"application/json": {"schema": schema}}}
    if status in _HEADERS:
        out["headers"] = _HEADERS[status]
    return out


def _responses(ok: dict[str, dict[str, Any]], *codes: str, rules: str | None = None) -> dict[str, Any]:
    """``ok`` and an error answer per status ``codes`` (and ``rules``, open 422 codes) can have.

    Every address answers a wrong method with 405 method_not_allowed.
    """
    by_status: dict[int, list[str]] = {405: ["method_not_allowed"]}
    for code in codes:
        names = by_status.setdefault(status_of(code), [])
        if code not in names:
            names.append(code)
    if rules is not None:
        by_status.setdefault(422, [])
    errors = {
        str(status): _error_response(status, sorted(names), rules if status == 422 else None)
        for status, names in by_status.items()
    }
    return dict(sorted({**ok, **errors}.items()))


def _answer(answer: Answer) -> dict[str, Any]:
    if answer.content is not None:
        return {"description": answer.description, "content": answer.content}
    if answer.struct is None:
        return {"description": answer.description}
    schema = ref(answer.struct.__name__)
    if answer.many:
        schema = {"type": "array", "items": schema}
    return {"description": answer.description, "content": {"application/json": {"schema": schema}}}


def operation(route: Route) -> dict[str, Any]:
    """One route's operation, from its declaration."""
    assert route.summary is not None
    op: dict[str, Any] = {"summary": route.summary}
    if route.description is not None:
        op["description"] = route.description
    if route.parameters:
        op["parameters"] = list(route.parameters)
    if route.security is not None:
        op["security"] = list(route.security)
    if route.body is not None:
        media: dict[str, Any] = {"schema": ref(route.body.__name__)}
        if route.example is not None:
            media["example"] = route.example
        op["requestBody"] = {"required": True, "content": {"application/json": media}}
    ok = {str(answer.status): _answer(answer) for answer in route.answers}
    op["responses"] = _responses(ok, *route.codes, rules=route.rules)
    return op


def _paths() -> dict[str, Any]:
    paths: dict[str, Any] = {}
    for route in sorted(DOCUMENTED, key=lambda r: (r.path, r.method)):
        paths.setdefault(route.path, {})[route.method.lower()] = operation(route)
    return paths


def spec() -> dict[str, Any]:
    """A fresh document (callers may change theirs)."""
    return copy.deepcopy(_document())


def _document() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Ziggurat",
            "version": "1",
            "description": "Host hidden-information board games: open tables, play moves, watch. "
            "Every rejection is a JSON Error with a stable code; a wrong method answers 405 with "
            "Allow, a spent budget 429 with Retry-After. Any request may also be refused by the "
            "connection's own guards before a route sees it, and the connection then closes: 400 "
            "bad_request (not HTTP/1.1), 408 request_timeout (not whole within the request timeout), "
            "431 headers_too_large, 429 too_many_connections (the client's address, or the server, "
            "holds as many connections as it may) or rate_limited (the address's request budget); "
            'docs/reliability.md, "Limits".',
        },
        "paths": _paths(),
        "components": {
            "securitySchemes": {
                "seatToken": {"type": "http", "scheme": "bearer"},
                "organiserToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "Returned when the tournament is created",
                },
                "playerToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "Returned when the player is registered",
                },
                "playerKey": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A player key (POST /v1/players): the bot API, and a player's own seats",
                },
            },
            "schemas": dict(sorted({**_generated(), **_HAND_WRITTEN}.items())),
        },
    }
