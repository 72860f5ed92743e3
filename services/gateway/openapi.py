"""The gateway's OpenAPI 3.1 document, committed as docs/openapi.json.

Every schema is generated from the msgspec type that decodes a request body
or encodes an answer (each answer's type lives beside its route), so the
bounds a type declares are the bounds the document promises. The documents an
answer copies unparsed from another stage (views, feeds' entries) are named by
their types too (``answers.stored``). Only a game's event, whose fields each
game's own types decide, is described by hand, and schemathesis checks every
answer against its schema (tests/e2e/test_openapi_fuzz.py).

Every operation lists every status it can answer, each error status with the
codes it carries; ``tests/services/test_openapi_spec.py`` checks the codes
against the routes' code, and the committed copy against this one.
"""

from __future__ import annotations

import copy
import inspect
from typing import Any

import msgspec

from services.gateway import arenas, bots, casual, context, players, tournaments, web
from services.gateway import body as request_body
from services.gateway.answers import EVENT, SCHEMAS, GameInfo, Health
from services.gateway.body import MAX_HEADER_ID, Move, NewTable
from services.gateway.commands import Accepted, TableOpened
from services.gateway.errors import STATUS, Error, status_of
from services.gateway.feeds import FeedCut
from services.gateway.reads import PublicLog
from services.gateway.tournaments import (
    UNKNOWN_TOURNAMENT,
    MyTable,
    NewPlayer,
    NewTournament,
    PlayerRegistered,
    TournamentAccepted,
    TournamentCreated,
    TournamentLog,
)
from shared.arenas import codes as ac
from shared.arenas.standings import ArenaView
from shared.casual import codes as cc
from shared.eventstore.envelope import CommandRecord, EventEnvelope
from shared.games import registry
from shared.kernel.rejection import GAME_OVER, ILLEGAL_MOVE, NOT_YOUR_TURN, WRONG_PHASE
from shared.ladders.ladder import LadderView
from shared.observability.health import Ready
from shared.players import codes as pc
from shared.players.decide import PLAYER_ID
from shared.readmodels.audit import AuditLog
from shared.readmodels.build import FeedEntry, ViewDoc
from shared.tournaments import codes as tc
from shared.tournaments.views import PairingsView, StandingsView

#: Codes a request for any table or tournament address can get when its path
#: parameter is empty or holds an encoded '/', so that no route matches.
NOT_FOUND = "not_found"
#: The store is unreachable (or a view is not ready yet): every route that reads or writes it.
STORE = "unavailable"
#: The game read models are being rebuilt on a server of their own that lost them: retry.
REBUILDING = "read_models_rebuilding"
#: Codes of any organiser command the tournament service decides.
_TOURNAMENT_SERVICE = ("busy", "dead_lettered", "outcome_unknown", "bad_header", "bad_request", STORE)
#: The rule codes every game shares; each game adds its own.
GAME_RULES = (NOT_YOUR_TURN, GAME_OVER, WRONG_PHASE, ILLEGAL_MOVE, "unknown_seat")
#: A value inside a game command, besides its 'type'.
SCALAR = {"type": ["string", "integer", "number", "boolean", "null"]}
COMMAND_VALUE = {
    "anyOf": [SCALAR, {"type": "array", "items": SCALAR}, {"type": "object", "additionalProperties": SCALAR}]
}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": SCHEMAS + name}


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


def _generated() -> dict[str, Any]:
    """Components generated from the gateway's own request types and the documents it serves."""
    _, components = msgspec.json.schema_components(
        [
            NewTable,
            Move,
            NewTournament,
            NewPlayer,
            ViewDoc,
            FeedEntry,
            StandingsView,
            PairingsView,
            EventEnvelope,
            CommandRecord,
            web.BotSeats,
            # The answers the tournament routes encode.
            TournamentCreated,
            PlayerRegistered,
            TournamentAccepted,
            MyTable,
            players.NewAccount,
            players.PlayerKeyIssued,
            players.PlayerPage,
            players.Joined,
            LadderView,
            bots.TurnNotice,
            arenas.NewArena,
            arenas.ArenaOpened,
            arenas.ArenaAccepted,
            arenas.ArenaList,
            ArenaView,
            casual.NewCasual,
            casual.CasualView,
            bots.InvitationNotice,
            *_asset_types(),
            # The answers the table, lobby and health routes encode.
            Error,
            Health,
            Ready,
            GameInfo,
            TableOpened,
            Accepted,
            PublicLog,
            AuditLog,
            TournamentLog,
            web.TableSummary,
            web.TableList,
            web.Verdict,
            web.BotsTaken,
            web.TournamentSummary,
            web.TournamentList,
            FeedCut,
            # What the gateway checks of a game command (the game's own types check the rest).
            request_body._Tagged,
        ],
        ref_template=SCHEMAS + "{name}",
    )
    components = msgspec.json.decode(msgspec.json.encode(components))  # defaults as JSON has them
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
        components[name]["properties"][field]["anyOf"][0]["pattern"] = tournaments._ID.pattern
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
_STR = {"type": "string"}


def _object(properties: dict[str, Any], description: str | None = None) -> dict[str, Any]:
    """One frame of a live feed (an SSE event, not JSON): every key is always present."""
    out: dict[str, Any] = {"type": "object", "required": list(properties), "properties": properties}
    if description:
        out["description"] = description
    return out


def _public_read(summary: str, parameter: dict[str, Any], answer: str) -> dict[str, Any]:
    """A public, rate-limited read of one thing named in the path."""
    return {
        "get": {
            "summary": summary,
            "description": "Rate limited: " + _RATE_LIMIT_NOTE["reads"] + ".",
            "parameters": [parameter],
            "responses": _responses({"200": _json(_ref(answer))}, NOT_FOUND, "rate_limited", STORE),
        }
    }


def _reconnect_frame() -> dict[str, Any]:
    """The frame every live stream ends a slow reader with."""
    json_data = {"type": "string", "contentMediaType": "application/json"}
    return _object(
        {"event": {"const": "reconnect"}, "data": {**json_data, "contentSchema": _ref("FeedCut")}},
        "The client read too slowly and is cut off: reconnect with Last-Event-ID",
    )


# -- responses -------------------------------------------------------------------

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
_RATE_LIMIT_NOTE = {
    "commands": "commands per seat token",
    "opens": "table openings per client address",
    "reads": "reads per seat token, or per client address without one",
    "tokens": "invalid tokens per client address",
    "writes": "writes per caller (player, organiser token or seat token) and per client address",
}


def _error_response(status: int, codes: list[str], open_codes: str | None) -> dict[str, Any]:
    """One status's answer: the error body, its possible codes, and the status's headers."""
    if open_codes is None:
        code: dict[str, Any] = {"enum": codes}
        description = "Rejected: " + ", ".join(codes)
    else:
        # Any rule code, but never a platform code of another status.
        others = sorted({c for c, s in STATUS.items() if s != status} - set(codes))
        code = {"type": "string", "pattern": "^[a-z][a-z0-9_.]*$", "not": {"enum": others}}
        description = "Rejected: " + ", ".join([*codes, open_codes])
    schema = {"allOf": [_ref("Error"), {"properties": {"code": code}}]}
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


def _json(schema: dict[str, Any], description: str = "OK") -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _body(name: str, example: dict[str, Any] | None = None) -> dict[str, Any]:
    media: dict[str, Any] = {"schema": _ref(name)}
    if example is not None:
        media["example"] = example
    return {"required": True, "content": {"application/json": media}}


def _path(name: str, pattern: str, description: str | None = None) -> dict[str, Any]:
    out = {"name": name, "in": "path", "required": True, "schema": {"type": "string", "pattern": pattern}}
    if description:
        out["description"] = description
    return out


def _query_version(name: str, description: str) -> dict[str, Any]:
    return {
        "name": name,
        "in": "query",
        "description": description,
        "schema": {"type": "integer", "minimum": 0, "maximum": request_body.MAX_VERSION},
    }


_HEADER_ID_SCHEMA = {"type": "string", "pattern": f"^[\\x21-\\x7e]{{1,{MAX_HEADER_ID}}}$"}
_IDEMPOTENCY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": f"1 to {MAX_HEADER_ID} printable ASCII characters (bad_header otherwise). The key "
    "is its caller's (the seat token, player, organiser token, or the client address where the "
    "route takes no credential), for this route and resource: the same caller's retry gets the "
    "first outcome; the same key from another caller is a request of its own",
    "schema": _HEADER_ID_SCHEMA,
}
_CORRELATION = {
    "name": "X-Correlation-ID",
    "in": "header",
    "required": False,
    "description": "Stored with the command and its events, for tracing (bad_header if malformed)",
    "schema": _HEADER_ID_SCHEMA,
}
_LAST_EVENT_ID = {
    "name": "Last-Event-ID",
    "in": "header",
    "required": False,
    "description": "Sent by EventSource when it reconnects: the id of the last event received. The "
    "feed resumes after the larger of this and `after` (bad_request unless a whole number).",
    "schema": {"type": "string", "pattern": "^(0|[1-9][0-9]{0,15})$"},
}
_AFTER = _query_version("after", "Stream only the events after this version")
_TABLE_ID = _path("table_id", context._TABLE_ID.pattern, "The gateway's own (20 hex) or a tournament's")
_TOURNAMENT_ID = _path("tournament_id", tournaments._ID.pattern)
_PLAYER_ID = _path("player_id", tournaments._ID.pattern)
_AUTH_OPTIONAL = [{}, {"seatToken": []}]


def _sse(kind: str, summary: str) -> dict[str, Any]:
    """A live feed: each event of the stream as schemathesis and OpenAPI 3.1 read it."""
    json_data = {"type": "string", "contentMediaType": "application/json"}
    event = {
        "oneOf": [
            _object(
                {
                    "event": {"const": kind},
                    "id": {"type": "string", "pattern": "^(0|[1-9][0-9]*)$", "description": "The version"},
                    "data": {**json_data, "contentSchema": _ref("FeedEntry")},
                }
            ),
            _object(
                {"event": {"const": "end"}, "data": {"const": "{}"}},
                "Nothing will follow: the stream closes",
            ),
            _reconnect_frame(),
        ]
    }
    return {
        "description": f"text/event-stream: '{kind}' events, each a FeedEntry with its version as id, "
        "then 'end' once " + summary + "; a comment line every 15 s while idle",
        "content": {"text/event-stream": {"schema": event}},
    }


#: A read of a table: with a seat token the seat's, without one the spectator's.
_TABLE_READ = ("rate_limited", "bad_token", "unknown_table", NOT_FOUND, STORE, REBUILDING)
#: A public read of a finished table.
_FINISHED_READ = ("rate_limited", "unknown_table", "game_not_over", NOT_FOUND, STORE, REBUILDING)
_GAME_RULES_NOTE = "a game's own rule code (" + ", ".join(GAME_RULES) + ", ...)"


def _table_paths() -> dict[str, Any]:
    return {
        "/health": {
            "get": {
                "summary": "Liveness: the process answers; never consults the store",
                "responses": _responses({"200": _json(_ref("Health"))}),
            }
        },
        "/ready": {
            "get": {
                "summary": "Readiness: the store answers, no stage is stalled, no dead letter waits",
                "description": "`?scope=store` checks only the store (for the probe that routes traffic). "
                "503 lists the problems.",
                "parameters": [{"name": "scope", "in": "query", "schema": {"enum": ["store"]}}],
                "responses": _responses(
                    {"200": _json(_ref("Ready"), "Ready"), "503": _json(_ref("Ready"), "Not ready")}
                ),
            }
        },
        "/metrics": {
            "get": {
                "summary": "Prometheus metrics",
                "responses": _responses(
                    {
                        "200": {
                            "description": "Prometheus text exposition",
                            "content": {"text/plain": {"schema": {"type": "string"}}},
                        }
                    }
                ),
            }
        },
        "/v1/games": {
            "get": {
                "summary": "The games this server hosts, with their options",
                "responses": _responses({"200": _json({"type": "array", "items": _ref("GameInfo")})}),
            }
        },
        "/v1/tables": {
            "post": {
                "summary": "Open a table; returns one secret token per seat",
                "description": "With an `Idempotency-Key`, a retry from the same client address gets the "
                "same table and tokens (`duplicate: true`); the same key with another body is "
                "idempotency_key_reused. Rate limited: " + _RATE_LIMIT_NOTE["opens"] + ".",
                "parameters": [_IDEMPOTENCY, _CORRELATION],
                "requestBody": _body("NewTable", {"game": "tigris", "seats": 2}),
                "responses": _responses(
                    {"201": _json(_ref("TableOpened"), "Opened")},
                    "bad_json",
                    "bad_request",
                    "bad_header",
                    "bad_seat_count",
                    "bad_options",
                    "bad_clock",
                    "unknown_game",
                    "body_too_large",
                    "table_exists",
                    "idempotency_key_reused",
                    "dead_lettered",
                    "rate_limited",
                    "busy",
                    STORE,
                    "outcome_unknown",
                ),
            }
        },
        "/v1/tables/{table_id}/commands": {
            "post": {
                "summary": "Submit a command for your seat; learn at once whether it was accepted",
                "description": "Rate limited: "
                + _RATE_LIMIT_NOTE["commands"]
                + ", and "
                + _RATE_LIMIT_NOTE["tokens"]
                + ". A rule violation answers 422 with the game's own code. With `view: true`, "
                "the accepted reply also holds your seat's new view, so a move costs one request "
                "(a retry with the same Idempotency-Key gets the current view); the view counts "
                "against the reads budget too.",
                "parameters": [_TABLE_ID, _IDEMPOTENCY, _CORRELATION],
                "security": [{"seatToken": []}],
                "requestBody": _body("Move"),
                "responses": _responses(
                    {"200": _json(_ref("Accepted"), "Accepted")},
                    "bad_json",
                    "bad_request",
                    "bad_command",
                    "bad_header",
                    "missing_token",
                    "bad_token",
                    "unknown_table",
                    NOT_FOUND,
                    "body_too_large",
                    "stale_version",
                    "dead_lettered",
                    "rate_limited",
                    "busy",
                    STORE,
                    REBUILDING,
                    "outcome_unknown",
                    rules=_GAME_RULES_NOTE,
                ),
            }
        },
        "/v1/tables/{table_id}/view": {
            "get": {
                "summary": "Your seat's view with its legal commands (with a token), or the spectator's",
                "description": (
                    "With `min_version`, the answer waits (up to 10 s) until the view shows at "
                    "least that version, so a client that has just acted reads its new view in "
                    "one request instead of polling; after the wait it gets the newest view there is. "
                    "Rate limited: " + _RATE_LIMIT_NOTE["reads"] + "."
                ),
                "parameters": [
                    _TABLE_ID,
                    _query_version("min_version", "Wait until the view shows at least this version"),
                ],
                "security": _AUTH_OPTIONAL,
                "responses": _responses({"200": _json(_ref("ViewDoc"))}, "bad_request", *_TABLE_READ),
            }
        },
        "/v1/tables/{table_id}/feed": {
            "get": {
                "summary": "Live feed (server-sent events) of what your seat, or a spectator, may see",
                "description": "Resumes after the larger of `after` and `Last-Event-ID`. "
                "Rate limited: " + _RATE_LIMIT_NOTE["reads"] + ".",
                "parameters": [_TABLE_ID, _AFTER, _LAST_EVENT_ID],
                "security": _AUTH_OPTIONAL,
                "responses": _responses(
                    {"200": _sse("game-event", "the game is over")}, "bad_request", *_TABLE_READ
                ),
            }
        },
        "/v1/tables/{table_id}/log": {
            "get": {
                "summary": "A finished game's public log (replay) and its revealed seed",
                "parameters": [_TABLE_ID],
                "responses": _responses({"200": _json(_ref("PublicLog"))}, *_FINISHED_READ),
            }
        },
        "/v1/tables/{table_id}/replay": {
            "get": {
                "summary": "A finished game's public view at a version, to replay it step by step",
                "parameters": [
                    _TABLE_ID,
                    _query_version("version", "The version to show (default: the last)"),
                ],
                "responses": _responses({"200": _json(_ref("ViewDoc"))}, "bad_request", *_FINISHED_READ),
            }
        },
        "/v1/tables/{table_id}/audit": {
            "get": {
                "summary": "A finished game's complete log and commands, to verify it was fair",
                "parameters": [_TABLE_ID],
                "responses": _responses({"200": _json(_ref("AuditLog"))}, *_FINISHED_READ),
            }
        },
    }


# -- tournaments ----------------------------------------------------------------

_TOURNAMENT_SECURITY = {
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
}
#: Checked before any organiser command: the tournament, then the organiser token.
_ORGANISER = ("missing_token", "bad_token", UNKNOWN_TOURNAMENT, NOT_FOUND, "rate_limited")
_ORGANISER_NOTE = (
    "Organiser only. Rate limited: "
    + _RATE_LIMIT_NOTE["tokens"]
    + ", and "
    + _RATE_LIMIT_NOTE["writes"]
    + "."
)


def _organiser_post(
    summary: str, *codes: str, body: str | None = None, created: str | None = None
) -> dict[str, Any]:
    ok = (
        {"201": _json(_ref(created), "Created")}
        if created
        else {"200": _json(_ref("TournamentAccepted"), "Accepted")}
    )
    op: dict[str, Any] = {
        "summary": summary,
        "description": _ORGANISER_NOTE,
        "parameters": [_TOURNAMENT_ID, _IDEMPOTENCY, _CORRELATION],
        "security": [{"organiserToken": []}],
        "responses": _responses(
            ok,
            *_ORGANISER,
            *_TOURNAMENT_SERVICE,
            tc.FINISHED,
            *codes,
            *(("bad_json", "body_too_large") if body else ()),
        ),
    }
    if body:
        op["requestBody"] = _body(body)
    return {"post": op}


def _with_player_id(path_item: dict[str, Any]) -> dict[str, Any]:
    path_item["post"]["parameters"] = [*path_item["post"]["parameters"], _PLAYER_ID]
    return path_item


def _public_get(summary: str, ok: dict[str, Any], *codes: str, **extra: Any) -> dict[str, Any]:
    return {
        "get": {
            "summary": summary,
            "parameters": [_TOURNAMENT_ID, *extra.pop("parameters", [])],
            "responses": _responses({"200": ok}, UNKNOWN_TOURNAMENT, NOT_FOUND, STORE, *codes),
            **extra,
        }
    }


def _tournament_paths() -> dict[str, Any]:
    base = "/v1/tournaments/{tournament_id}"
    return {
        "/v1/tournaments": {
            "post": {
                "summary": "Create a tournament; returns the organiser token",
                "description": "The tournament service opens every table as a game and pairs "
                "rounds as results come in. Bad settings answer 422 invalid_settings. With an "
                "`Idempotency-Key`, a retry from the same client address gets the same tournament "
                "and token; the same key with another body is idempotency_key_reused.",
                "parameters": [_IDEMPOTENCY, _CORRELATION],
                "requestBody": _body("NewTournament", {"game": "tigris", "name": "Open", "rounds": 3}),
                "responses": _responses(
                    {"201": _json(_ref("TournamentCreated"), "Created")},
                    *_TOURNAMENT_SERVICE,
                    "bad_json",
                    "body_too_large",
                    "unknown_game",
                    "bad_seat_count",
                    "bad_options",
                    "bad_clock",
                    tc.INVALID_SETTINGS,
                    tc.ALREADY_CREATED,
                    "idempotency_key_reused",
                    "rate_limited",
                ),
            }
        },
        f"{base}/players": _organiser_post(
            "Register a player or a bot; returns the player's token",
            tc.ALREADY_REGISTERED,
            tc.ALREADY_STARTED,
            tc.INVALID_PLAYER,
            tc.FULL,
            "idempotency_key_reused",
            body="NewPlayer",
            created="PlayerRegistered",
        ),
        f"{base}/players/{{player_id}}/withdraw": _with_player_id(
            _organiser_post("Withdraw a player from later rounds", tc.UNKNOWN_PLAYER, tc.ALREADY_WITHDRAWN)
        ),
        f"{base}/start": _organiser_post(
            "Close registration and start; the first round is paired and its tables opened",
            tc.ALREADY_STARTED,
            tc.NOT_ENOUGH_PLAYERS,
        ),
        f"{base}/rounds": _organiser_post(
            "Pair the next round now (the service also pairs it as soon as a round is complete)",
            tc.NOT_STARTED,
            tc.ROUND_RUNNING,
            tc.NO_MORE_ROUNDS,
            tc.NOT_ENOUGH_PLAYERS,
        ),
        f"{base}/finish": _organiser_post(
            "Finish the tournament (the service finishes it after the last round)",
            tc.NOT_STARTED,
            tc.ROUND_RUNNING,
        ),
        f"{base}/standings": _public_get(
            "Standings with tie-breaks and OpenSkill ratings",
            _json(_ref("StandingsView")),
            "rate_limited",
        ),
        f"{base}/pairings": _public_get(
            "Every round's tables, their games and places", _json(_ref("PairingsView")), "rate_limited"
        ),
        f"{base}/log": _public_get(
            "Every event of the tournament, to recompute standings and ratings",
            _json(_ref("TournamentLog")),
            "rate_limited",
        ),
        f"{base}/feed": _public_get(
            "Live feed (server-sent events) of the tournament's events",
            _sse("tournament-event", "the tournament is finished"),
            "bad_request",
            "rate_limited",
            parameters=[_AFTER, _LAST_EVENT_ID],
            description="Resumes after the larger of `after` and `Last-Event-ID`.",
        ),
        f"{base}/me": _public_get(
            "Your table in the current round and your seat token there",
            _json(_ref("MyTable")),
            "missing_token",
            "bad_token",
            "rate_limited",
            security=[{"playerToken": []}],
        ),
    }


# -- the web client's reads ----------------------------------------------------------

_LIMIT = {
    "name": "limit",
    "in": "query",
    "description": "At most this many",
    "schema": {"type": "integer", "minimum": 1, "maximum": web.MAX_LIST, "default": 50},
}


def _web_paths() -> dict[str, Any]:
    """Listings, seat names, fairness verdicts and bot seats, for the web client (and anyone)."""
    limited = "Rate limited: " + _RATE_LIMIT_NOTE["reads"] + "."
    return {
        "/v1/tables": {
            "get": {
                "summary": "Live tables (newest first) or finished ones, as the lobby lists them",
                "description": limited,
                "parameters": [
                    {
                        "name": "state",
                        "in": "query",
                        "schema": {"enum": ["live", "finished"], "default": "live"},
                    },
                    _LIMIT,
                    {"name": "game", "in": "query", "description": "Only this game's", "schema": _STR},
                ],
                "responses": _responses(
                    {"200": _json(_ref("TableList"))}, "bad_request", "unknown_game", "rate_limited", STORE
                ),
            }
        },
        "/v1/tables/{table_id}/about": {
            "get": {
                "summary": "One table as the lobby lists it: seat names, bot seats, public state",
                "description": limited,
                "parameters": [_TABLE_ID],
                "responses": _responses(
                    {"200": _json(_ref("TableSummary"))},
                    "unknown_table",
                    NOT_FOUND,
                    "rate_limited",
                    STORE,
                    REBUILDING,
                ),
            }
        },
        "/v1/tables/{table_id}/verify": {
            "get": {
                "summary": "Whether a finished game was fair: its audit log re-decided from its seed",
                "description": limited,
                "parameters": [_TABLE_ID],
                "responses": _responses({"200": _json(_ref("Verdict"))}, *_FINISHED_READ),
            }
        },
        "/v1/tables/{table_id}/bots": {
            "post": {
                "summary": "Hand seats to the bot runner, which plays them through this API",
                "description": "Only the holder of a seat's token can give it away. Rate limited: "
                + _RATE_LIMIT_NOTE["tokens"]
                + ", and "
                + _RATE_LIMIT_NOTE["writes"]
                + ".",
                "parameters": [_TABLE_ID],
                "requestBody": _body("BotSeats"),
                "responses": _responses(
                    {"200": _json(_ref("BotsTaken"))},
                    "bad_json",
                    "bad_request",
                    "body_too_large",
                    "bad_token",
                    "unknown_table",
                    NOT_FOUND,
                    "rate_limited",
                    STORE,
                    REBUILDING,
                ),
            }
        },
        "/v1/tournaments": {
            "get": {
                "summary": "The newest tournaments with their state",
                "description": limited,
                "parameters": [_LIMIT],
                "responses": _responses(
                    {"200": _json(_ref("TournamentList"))}, "bad_request", "rate_limited", STORE
                ),
            }
        },
    }


# -- players, ladders and the bot API ------------------------------------------------

_PLAYER_ID_PATH = _path("player_id", PLAYER_ID.pattern)
#: Checked before anything a player key does.
_PLAYER_KEY = ("missing_token", "bad_token", "rate_limited", STORE)


def _player_paths() -> dict[str, Any]:
    key_note = "Rate limited: " + _RATE_LIMIT_NOTE["tokens"] + "."
    write_note = "Rate limited: " + _RATE_LIMIT_NOTE["tokens"] + ", and " + _RATE_LIMIT_NOTE["writes"] + "."
    return {
        "/v1/players": {
            "post": {
                "summary": "Register a player account (a person or a bot); returns its player key, once",
                "description": "Only the key's hash is kept. With an `Idempotency-Key`, a retry from the "
                "same client address gets the same player and key; the same key with another body is "
                "idempotency_key_reused. Rate limited: " + _RATE_LIMIT_NOTE["opens"] + ".",
                "parameters": [_IDEMPOTENCY],
                "requestBody": _body("NewAccount", {"name": "My bot", "bot": True, "operator": "me"}),
                "responses": _responses(
                    {"201": _json(_ref("PlayerKeyIssued"), "Registered")},
                    "bad_json",
                    "bad_request",
                    "bad_header",
                    "body_too_large",
                    "rate_limited",
                    "busy",
                    STORE,
                    "idempotency_key_reused",
                    pc.INVALID_PLAYER,
                    pc.ALREADY_REGISTERED,
                ),
            }
        },
        "/v1/players/{player_id}": _public_read(
            "A player's page: ratings and their history per game, current and finished tables",
            _PLAYER_ID_PATH,
            "PlayerPage",
        ),
        "/v1/players/{player_id}/key": {
            "post": {
                "summary": "Rotate the player key: the old key stops working before this answers",
                "description": "Authorised by the current key. A retry with the same `Idempotency-Key` "
                "and the old key learns the same new key. " + write_note,
                "parameters": [_PLAYER_ID_PATH, _IDEMPOTENCY],
                "security": [{"playerKey": []}],
                "responses": _responses(
                    {"200": _json(_ref("PlayerKeyIssued"))},
                    *_PLAYER_KEY,
                    NOT_FOUND,
                    "bad_header",
                    "idempotency_key_reused",
                    "busy",
                    pc.SAME_KEY,
                    pc.NO_PLAYER,
                ),
            }
        },
        "/v1/ladders/{game}": {
            "get": {
                "summary": "A game's rating ladder (OpenSkill), best first; provisional players marked",
                "description": "Every rated tournament table moves its registered players' ratings "
                "once. A player with fewer rated games than `provisional_below` is provisional. "
                "Rate limited: " + _RATE_LIMIT_NOTE["reads"] + ".",
                "parameters": [_path("game", "^[a-z0-9][a-z0-9_-]{0,63}$", "A game key (GET /v1/games)")],
                "responses": _responses(
                    {"200": _json(_ref("LadderView"))}, "unknown_game", NOT_FOUND, "rate_limited", STORE
                ),
            }
        },
        "/v1/tournaments/{tournament_id}/join": {
            "post": {
                "summary": "Enter a tournament as a player account, with its own key",
                "description": "Only the player itself enters: its ladder rating for the tournament's "
                "game is the prior its tournament ratings start from, and its results feed the ladder. "
                + write_note,
                "parameters": [_TOURNAMENT_ID, _IDEMPOTENCY, _CORRELATION],
                "security": [{"playerKey": []}],
                "responses": _responses(
                    {"201": _json(_ref("Joined"), "Joined")},
                    *_PLAYER_KEY,
                    *_TOURNAMENT_SERVICE,
                    UNKNOWN_TOURNAMENT,
                    NOT_FOUND,
                    tc.FINISHED,
                    tc.ALREADY_REGISTERED,
                    tc.ALREADY_STARTED,
                    tc.INVALID_PLAYER,
                    tc.FULL,
                ),
            }
        },
        "/v1/bot/stream": {
            "get": {
                "summary": "The bot API: one stream of turns for every table the player sits at",
                "description": "Server-sent events: `turn` when a seat of yours is to act (its view with "
                "the legal moves), `over` when a table ends, a bare id otherwise. Answer through "
                "POST /v1/tables/{table_id}/commands with the same key and `Idempotency-Key: "
                "<table>:<seat>:<version>` (a turn may come twice). Resumes after `Last-Event-ID` "
                "(or `after`); without either, starts with a look at every table. " + key_note,
                "parameters": [_AFTER, _LAST_EVENT_ID],
                "security": [{"playerKey": []}],
                "responses": _responses({"200": _bot_sse()}, *_PLAYER_KEY, "bad_request"),
            }
        },
    }


_ARENA_ID = _path("arena_id", arenas.ARENA_ID.pattern)


def _arena_paths() -> dict[str, Any]:
    key_note = "Rate limited: " + _RATE_LIMIT_NOTE["tokens"] + ", and " + _RATE_LIMIT_NOTE["writes"] + "."

    def membership(summary: str, *codes: str) -> dict[str, Any]:
        return {
            "post": {
                "summary": summary,
                "description": key_note,
                "parameters": [_ARENA_ID, _IDEMPOTENCY],
                "security": [{"playerKey": []}],
                "responses": _responses(
                    {"200": _json(_ref("ArenaAccepted"))},
                    *_PLAYER_KEY,
                    NOT_FOUND,
                    "bad_header",
                    "busy",
                    *codes,
                ),
            }
        }

    return {
        "/v1/arenas": {
            "get": {
                "summary": "Arenas, newest first: game, window, status, players and tables",
                "description": "Rate limited: " + _RATE_LIMIT_NOTE["reads"] + ".",
                "parameters": [
                    {
                        "name": "limit",
                        "in": "query",
                        "schema": {
                            "type": "integer",
                            "minimum": 1,
                            "maximum": arenas.MAX_LISTED,
                            "default": 20,
                        },
                    }
                ],
                "responses": _responses(
                    {"200": _json(_ref("ArenaList"))}, "bad_request", "rate_limited", STORE
                ),
            },
            "post": {
                "summary": "Open an arena: a rated, continuous format for one game, for a time window",
                "description": "Players who join wait in a queue; a table opens as soon as `seats` are "
                "waiting, and its players queue again when it ends, until they leave or the window "
                "closes. Every table is rated on the game's ladder. Rate limited: "
                + _RATE_LIMIT_NOTE["opens"]
                + ".",
                "parameters": [_IDEMPOTENCY],
                "requestBody": _body("NewArena", {"game": "highcard", "seats": 2, "seconds": 600}),
                "responses": _responses(
                    {"201": _json(_ref("ArenaOpened"), "Opened")},
                    "bad_json",
                    "bad_request",
                    "bad_header",
                    "bad_options",
                    "bad_seat_count",
                    "bad_clock",
                    "unknown_game",
                    "body_too_large",
                    "rate_limited",
                    "busy",
                    STORE,
                    "idempotency_key_reused",
                    ac.INVALID_ARENA,
                    ac.ALREADY_CREATED,
                ),
            },
        },
        "/v1/arenas/{arena_id}": _public_read(
            "An arena's leaderboard (points per placing), who waits, who plays, its tables",
            _ARENA_ID,
            "ArenaView",
        ),
        "/v1/arenas/{arena_id}/join": membership(
            "Join the arena's queue with your player key",
            ac.CLOSED,
            ac.NOT_OPEN_YET,
            ac.ALREADY_IN,
            ac.FULL,
        ),
        "/v1/arenas/{arena_id}/leave": membership(
            "Leave the arena (after the table you are playing, if any)", ac.NOT_IN
        ),
    }


_INVITATION_ID = _path("invitation_id", casual.INVITATION_ID.pattern)


def _pack_paths() -> dict[str, Any]:
    """A content pack's map, served once per pack instead of inside every view, by
    the games that serve one through their contract (``GameModule.assets``)."""
    serving = [key for key in registry.available() if registry.get(key).assets is not None]
    return {
        "/v1/games/{game}/packs/{pack}/board": {
            "get": {
                "summary": "A content pack's map, for a game whose tables play one (public)",
                "description": "Served for the games that serve their packs' maps (`game` lists them); "
                "any other game, or a pack the game does not have, is not found. A view names its "
                "map by `board_digest`, a hash of exactly these bytes. Asked for with `?digest=` equal "
                "to it, the answer is immutable for a year; otherwise it is today's map, revalidated "
                "with its ETag (a 304 when it has not changed).",
                "parameters": [
                    {
                        "name": "game",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string", "enum": serving},
                        "description": "A game key (GET /v1/games) whose game serves its packs' maps",
                    },
                    _path("pack", "^[a-z0-9][a-z0-9_-]{0,63}$", "A content pack's name (a view's `pack`)"),
                    {
                        "name": "digest",
                        "in": "query",
                        "description": "The view's `board_digest`",
                        "schema": {"type": "string", "pattern": "^[0-9a-f]{32}$"},
                    },
                ],
                "responses": _responses(
                    {
                        "200": _json(_one_of(_asset_types())),
                        "304": {"description": "Not modified (If-None-Match held the ETag)"},
                    },
                    NOT_FOUND,
                ),
            }
        }
    }


def _asset_types() -> list[type[msgspec.Struct]]:
    """The structs every registered game's assets encode, each once."""
    found = (registry.get(key).assets for key in registry.available())
    return list(dict.fromkeys(t for assets in found if assets is not None for t in assets.types))


def _one_of(types: list[type[msgspec.Struct]]) -> dict[str, Any]:
    refs = [_ref(t.__name__) for t in types]
    return refs[0] if len(refs) == 1 else {"oneOf": refs}


def _casual_paths() -> dict[str, Any]:
    key_note = "Rate limited: " + _RATE_LIMIT_NOTE["tokens"] + ", and " + _RATE_LIMIT_NOTE["writes"] + "."

    def answer(summary: str, *codes: str) -> dict[str, Any]:
        return {
            "post": {
                "summary": summary,
                "description": key_note,
                "parameters": [_INVITATION_ID],
                "security": [{"playerKey": []}],
                "responses": _responses(
                    {"200": _json(_ref("CasualView"))},
                    *_PLAYER_KEY,
                    NOT_FOUND,
                    "busy",
                    cc.NOT_INVITED,
                    cc.CANCELLED,
                    *codes,
                ),
            }
        }

    return {
        "/v1/casual": {
            "post": {
                "summary": "Invite players (and seat our bots) to a casual table, rated or not",
                "description": "The host's key; the host sits at the table. Each invited player hears "
                "of it on its bot stream (`invitation`) and accepts or declines; the table opens (its id "
                "is the invitation's) once every invited player accepted. Rated tables move the players' "
                "ladder ratings. The host, and apart each invited player, may have only so many "
                "invitations waiting for answers (too_many_invitations; a host withdraws one by declining "
                "it). Rate limited: "
                + _RATE_LIMIT_NOTE["opens"]
                + ", "
                + _RATE_LIMIT_NOTE["tokens"]
                + ", and "
                + _RATE_LIMIT_NOTE["writes"]
                + ".",
                "parameters": [_IDEMPOTENCY],
                "security": [{"playerKey": []}],
                "requestBody": _body(
                    "NewCasual", {"game": "highcard", "seats": [{"player_id": "pl0"}, {"bot": "random"}]}
                ),
                "responses": _responses(
                    {"201": _json(_ref("CasualView"), "Invited")},
                    *_PLAYER_KEY,
                    NOT_FOUND,
                    "bad_json",
                    "bad_request",
                    "bad_header",
                    "bad_options",
                    "bad_seat_count",
                    "bad_clock",
                    "unknown_game",
                    "body_too_large",
                    "busy",
                    "dead_lettered",
                    "outcome_unknown",
                    "table_exists",
                    cc.INVALID,
                    cc.ALREADY_CREATED,
                    cc.NOT_READY,
                    cc.TOO_MANY_PENDING,
                    "idempotency_key_reused",
                ),
            }
        },
        "/v1/casual/{invitation_id}": _public_read(
            "An invitation: its seats, who accepted, and its table once open", _INVITATION_ID, "CasualView"
        ),
        "/v1/casual/{invitation_id}/accept": answer(
            "Accept an invitation with your key (the last acceptance opens the table)",
            "bad_header",
            "dead_lettered",
            "outcome_unknown",
            "table_exists",
            "bad_options",
            "bad_seat_count",
            "bad_clock",
            "unknown_game",
            cc.NOT_READY,
        ),
        "/v1/casual/{invitation_id}/decline": answer(
            "Decline an invitation: it is cancelled", cc.ALREADY_OPEN
        ),
    }


def _bot_sse() -> dict[str, Any]:
    json_data = {"type": "string", "contentMediaType": "application/json"}
    turn = {**json_data, "contentSchema": _ref("TurnNotice")}
    event = {
        "oneOf": [
            _object({"event": {"enum": ["turn", "over"]}, "id": {"type": "string"}, "data": turn}),
            _object(
                {
                    "event": {"const": "invitation"},
                    "id": {"type": "string"},
                    "data": {**json_data, "contentSchema": _ref("InvitationNotice")},
                },
                "An invitation to a casual table: POST /v1/casual/{invitation_id}/accept or decline",
            ),
            # Without 'event': every other frame has an id too.
            {
                **_object({"id": {"type": "string"}}, "Nothing to do at this entry: the id moves on"),
                "not": {"required": ["event"]},
            },
            _object(
                {"event": {"const": "end"}, "data": {"const": "{}"}},
                "The player key was rotated: the stream closes",
            ),
            _reconnect_frame(),
        ]
    }
    return {
        "description": "text/event-stream: 'turn' and 'over' events (a TurnNotice each), their id the "
        "inbox entry's number; a comment line every 15 s while idle",
        "content": {"text/event-stream": {"schema": event}},
    }


def _paths() -> dict[str, Any]:
    """Every operation, with the path items several sections share merged."""
    paths: dict[str, Any] = {}
    for section in (
        _table_paths(),
        _web_paths(),
        _tournament_paths(),
        _player_paths(),
        _arena_paths(),
        _casual_paths(),
        _pack_paths(),
    ):
        for path, item in section.items():
            paths.setdefault(path, {}).update(item)
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
                **_TOURNAMENT_SECURITY,
                "playerKey": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A player key (POST /v1/players): the bot API, and a player's own seats",
                },
            },
            "schemas": dict(sorted({**_generated(), **_HAND_WRITTEN}.items())),
        },
    }
