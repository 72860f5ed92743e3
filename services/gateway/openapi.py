"""The gateway's OpenAPI 3.1 document, committed as docs/openapi.json.

Written out rather than generated: the routes are few, and the document is a
promise to clients (a test checks the committed copy equals this one, and
that every route exists).
"""

from __future__ import annotations

from typing import Any

from services.gateway.errors import RULE_STATUS, STATUS
from services.gateway.tournaments import UNKNOWN_TOURNAMENT


def _error(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }


def _errors(*codes: str) -> dict[str, Any]:
    by_status: dict[int, list[str]] = {}
    for code in codes:
        by_status.setdefault(STATUS.get(code, RULE_STATUS), []).append(code)
    return {
        str(status): _error("Rejected: " + ", ".join(sorted(names)))
        for status, names in sorted(by_status.items())
    }


def _json(schema: dict[str, Any], description: str = "OK") -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


_TABLE_ID = {"name": "table_id", "in": "path", "required": True, "schema": {"type": "string"}}
_AUTH_OPTIONAL = [{}, {"seatToken": []}]
_READ_ERRORS = ("bad_token", "unknown_table", "rate_limited")


def spec() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Ziggurat",
            "version": "1",
            "description": "Host hidden-information board games: open tables, play moves, watch.",
        },
        "paths": {
            "/health": {
                "get": {
                    "summary": "Liveness and Redis reachability",
                    "responses": {"200": _json({"type": "object"})},
                }
            },
            "/metrics": {
                "get": {
                    "summary": "Prometheus metrics",
                    "responses": {"200": {"description": "text exposition"}},
                }
            },
            "/v1/games": {
                "get": {
                    "summary": "The games this server hosts, with their options",
                    "responses": {"200": _json({"type": "array", "items": {"type": "object"}})},
                }
            },
            "/v1/tables": {
                "post": {
                    "summary": "Open a table; returns one secret token per seat",
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/NewTable"}}
                        },
                    },
                    "responses": {
                        "201": _json({"$ref": "#/components/schemas/TableOpened"}, "Opened"),
                        **_errors(
                            "bad_json",
                            "bad_request",
                            "bad_seat_count",
                            "bad_options",
                            "bad_clock",
                            "unknown_game",
                            "body_too_large",
                            "outcome_unknown",
                            "busy",
                            "table_exists",
                        ),
                    },
                }
            },
            "/v1/tables/{table_id}/commands": {
                "post": {
                    "summary": "Submit a command for your seat; learn at once whether it was accepted",
                    "parameters": [
                        _TABLE_ID,
                        {
                            "name": "Idempotency-Key",
                            "in": "header",
                            "required": False,
                            "schema": {"type": "string", "maxLength": 128},
                        },
                    ],
                    "security": [{"seatToken": []}],
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Move"}}},
                    },
                    "responses": {
                        "200": _json({"$ref": "#/components/schemas/Accepted"}, "Accepted"),
                        **_errors(
                            "bad_json",
                            "bad_request",
                            "bad_command",
                            "missing_token",
                            "bad_token",
                            "unknown_table",
                            "body_too_large",
                            "stale_version",
                            "rate_limited",
                            "outcome_unknown",
                            "busy",
                            "not_your_turn",
                        ),
                    },
                }
            },
            "/v1/tables/{table_id}/view": {
                "get": {
                    "summary": "Your seat's view with its legal commands (with a token), or the spectator's",
                    "description": (
                        "With `min_version`, the answer waits (up to 10 s) until the view shows at "
                        "least that version, so a client that has just acted reads its new view in "
                        "one request instead of polling; after the wait it gets the newest view there is."
                    ),
                    "parameters": [
                        _TABLE_ID,
                        {"name": "min_version", "in": "query", "schema": {"type": "integer", "minimum": 0}},
                    ],
                    "security": _AUTH_OPTIONAL,
                    "responses": {
                        "200": _json({"$ref": "#/components/schemas/ViewDoc"}),
                        **_errors("bad_request", *_READ_ERRORS),
                    },
                }
            },
            "/v1/tables/{table_id}/feed": {
                "get": {
                    "summary": "Live feed (server-sent events) of what your seat, or a spectator, may see",
                    "parameters": [
                        _TABLE_ID,
                        {"name": "after", "in": "query", "schema": {"type": "integer", "minimum": 0}},
                    ],
                    "security": _AUTH_OPTIONAL,
                    "responses": {
                        "200": {"description": "text/event-stream"},
                        **_errors("bad_request", *_READ_ERRORS),
                    },
                }
            },
            "/v1/tables/{table_id}/log": {
                "get": {
                    "summary": "A finished game's public log (replay) and its revealed seed",
                    "parameters": [_TABLE_ID],
                    "responses": {
                        "200": _json({"type": "object"}),
                        **_errors("unknown_table", "game_not_over"),
                    },
                }
            },
            "/v1/tables/{table_id}/replay": {
                "get": {
                    "summary": "A finished game's public view at a version, to replay it step by step",
                    "parameters": [
                        _TABLE_ID,
                        {"name": "version", "in": "query", "schema": {"type": "integer", "minimum": 0}},
                    ],
                    "responses": {
                        "200": _json({"$ref": "#/components/schemas/ViewDoc"}),
                        **_errors("bad_request", "unknown_table", "game_not_over"),
                    },
                }
            },
            "/v1/tables/{table_id}/audit": {
                "get": {
                    "summary": "A finished game's complete log and commands, to verify it was fair",
                    "parameters": [_TABLE_ID],
                    "responses": {
                        "200": _json({"type": "object"}),
                        **_errors("unknown_table", "game_not_over"),
                    },
                }
            },
            **_tournament_paths(),
        },
        "components": {
            "securitySchemes": {
                "seatToken": {"type": "http", "scheme": "bearer"},
                **_TOURNAMENT_SECURITY,
            },
            "schemas": {
                **_TOURNAMENT_SCHEMAS,
                "Error": {
                    "type": "object",
                    "required": ["status", "code", "message"],
                    "properties": {
                        "status": {"const": "rejected"},
                        "code": {
                            "type": "string",
                            "description": "Stable code: "
                            + ", ".join(sorted(STATUS))
                            + "; a game's own rule codes answer 422.",
                        },
                        "message": {"type": "string"},
                        "details": {"type": "object"},
                    },
                },
                "NewTable": {
                    "type": "object",
                    "required": ["game", "seats"],
                    "additionalProperties": False,
                    "properties": {
                        "game": {"type": "string"},
                        "seats": {"type": "integer", "minimum": 1, "maximum": 8},
                        "options": {"type": "object"},
                        "clock": {
                            "type": ["object", "null"],
                            "description": "Seat clocks kept by the platform; when one runs out the seat's "
                            "bot plays, or the seat forfeits",
                            "properties": {
                                "initial_ms": {"type": "integer", "minimum": 0},
                                "increment_ms": {"type": "integer", "minimum": 0},
                                "per_move_ms": {"type": "integer", "minimum": 0},
                                "policy": {"enum": ["bot", "forfeit"]},
                            },
                        },
                        "spectator_delay": {
                            "type": ["object", "null"],
                            "description": "How far spectators trail the live game",
                            "properties": {
                                "moves": {"type": "integer", "minimum": 0},
                                "seconds": {"type": "number", "minimum": 0},
                            },
                        },
                    },
                },
                "TableOpened": {
                    "type": "object",
                    "properties": {
                        "table_id": {"type": "string"},
                        "game": {"type": "string"},
                        "seats": {"type": "integer"},
                        "version": {"type": "integer"},
                        "tokens": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "properties": {"seat": {"type": "integer"}, "token": {"type": "string"}},
                            },
                        },
                        "events": {"type": "array", "items": {"type": "object"}},
                    },
                },
                "Move": {
                    "type": "object",
                    "required": ["command"],
                    "additionalProperties": False,
                    "properties": {
                        "command": {
                            "type": "object",
                            "description": "A command of the table's game, tagged by 'type'",
                        },
                        "expected_version": {"type": ["integer", "null"]},
                    },
                },
                "Accepted": {
                    "type": "object",
                    "properties": {
                        "status": {"const": "accepted"},
                        "command_id": {"type": "string"},
                        "version": {"type": "integer"},
                        "first_version": {"type": "integer"},
                        "seat": {"type": ["integer", "null"]},
                        "duplicate": {"type": "boolean"},
                        "events": {"type": "array", "items": {"type": "object"}},
                    },
                },
                "ViewDoc": {
                    "type": "object",
                    "properties": {
                        "game_id": {"type": "string"},
                        "game": {"type": "string"},
                        "version": {"type": "integer"},
                        "seats": {"type": "integer"},
                        "seat": {"type": ["integer", "null"]},
                        "commitment": {"type": "string"},
                        "actors": {"type": "array", "items": {"type": "integer"}},
                        "over": {"type": "boolean"},
                        "view": {},
                        "legal": {"type": "array"},
                        "result": {},
                        "seed": {"type": "string"},
                    },
                },
            },
        },
    }


# -- tournaments ----------------------------------------------------------------

_TOURNAMENT_ID = {"name": "tournament_id", "in": "path", "required": True, "schema": {"type": "string"}}
_IDEMPOTENCY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "schema": {"type": "string", "maxLength": 128},
}
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
_ORGANISER_ERRORS = ("missing_token", "bad_token", UNKNOWN_TOURNAMENT, "outcome_unknown", "busy")
#: The tournament's own rule codes (shared/tournaments/codes.py) answer 422.
_RULE_NOTE = (
    " Rule violations answer 422 with the tournament's code (e.g. already_started, round_still_running)."
)


def _organiser_post(
    summary: str, *codes: str, body: str | None = None, created: str | None = None
) -> dict[str, Any]:
    op: dict[str, Any] = {
        "summary": summary,
        "description": "Organiser only." + _RULE_NOTE,
        "parameters": [_TOURNAMENT_ID, _IDEMPOTENCY],
        "security": [{"organiserToken": []}],
        "responses": {
            **(
                {"201": _json({"$ref": f"#/components/schemas/{created}"}, "Created")}
                if created
                else {"200": _json({"$ref": "#/components/schemas/TournamentAccepted"}, "Accepted")}
            ),
            **_errors(*_ORGANISER_ERRORS, *codes),
        },
    }
    if body:
        op["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{body}"}}},
        }
    return {"post": op}


def _with_player_id(path_item: dict[str, Any]) -> dict[str, Any]:
    player = {"name": "player_id", "in": "path", "required": True, "schema": {"type": "string"}}
    path_item["post"]["parameters"] = [*path_item["post"]["parameters"], player]
    return path_item


def _public_get(summary: str, schema: dict[str, Any], *codes: str, **extra: Any) -> dict[str, Any]:
    return {
        "get": {
            "summary": summary,
            "parameters": [_TOURNAMENT_ID, *extra.pop("parameters", [])],
            "responses": {"200": schema, **_errors(UNKNOWN_TOURNAMENT, *codes)},
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
                "rounds as results come in." + _RULE_NOTE,
                "parameters": [_IDEMPOTENCY],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/NewTournament"}}
                    },
                },
                "responses": {
                    "201": _json({"$ref": "#/components/schemas/TournamentCreated"}, "Created"),
                    **_errors(
                        "bad_json",
                        "bad_request",
                        "body_too_large",
                        "unknown_game",
                        "bad_seat_count",
                        "bad_options",
                        "invalid_settings",
                        "already_created",
                        "outcome_unknown",
                    ),
                },
            }
        },
        f"{base}/players": _organiser_post(
            "Register a player or a bot; returns the player's token",
            "bad_json",
            "bad_request",
            "already_registered",
            "already_started",
            "invalid_player",
            body="NewPlayer",
            created="PlayerRegistered",
        ),
        f"{base}/players/{{player_id}}/withdraw": _with_player_id(
            _organiser_post("Withdraw a player from later rounds", "unknown_player", "already_withdrawn")
        ),
        f"{base}/start": _organiser_post(
            "Close registration and start; the first round is paired and its tables opened",
            "already_started",
            "not_enough_players",
        ),
        f"{base}/rounds": _organiser_post(
            "Pair the next round now (the service also pairs it as soon as a round is complete)",
            "not_started",
            "round_still_running",
            "no_more_rounds",
        ),
        f"{base}/finish": _organiser_post(
            "Finish the tournament (the service finishes it after the last round)",
            "not_started",
            "round_still_running",
        ),
        f"{base}/standings": _public_get(
            "Standings with tie-breaks and OpenSkill ratings",
            _json({"$ref": "#/components/schemas/Standings"}),
        ),
        f"{base}/pairings": _public_get(
            "Every round's tables, their games and places", _json({"$ref": "#/components/schemas/Pairings"})
        ),
        f"{base}/log": _public_get(
            "Every event of the tournament, to recompute standings and ratings",
            _json({"$ref": "#/components/schemas/TournamentLog"}),
        ),
        f"{base}/feed": _public_get(
            "Live feed (server-sent events) of the tournament's events",
            {"description": "text/event-stream: 'tournament-event' entries, then 'end' when it is finished"},
            "bad_request",
            parameters=[{"name": "after", "in": "query", "schema": {"type": "integer", "minimum": 0}}],
        ),
        f"{base}/me": _public_get(
            "Your table in the current round and your seat token there",
            _json({"$ref": "#/components/schemas/MyTable"}),
            "missing_token",
            "bad_token",
            security=[{"playerToken": []}],
        ),
    }


_ENTRY = {
    "type": "object",
    "properties": {
        "version": {"type": "integer"},
        "server_time": {"type": "integer"},
        "event": {"type": "object"},
    },
}
_TOURNAMENT_SCHEMAS: dict[str, Any] = {
    "NewTournament": {
        "type": "object",
        "required": ["game"],
        "additionalProperties": False,
        "properties": {
            "tournament_id": {"type": ["string", "null"], "pattern": "^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"},
            "name": {"type": "string"},
            "game": {"type": "string"},
            "game_options": {"type": "object"},
            "format": {"enum": ["swiss", "round_robin", "elimination"]},
            "seats_per_table": {"type": "integer", "minimum": 2, "maximum": 4},
            "min_table_size": {"type": ["integer", "null"]},
            "rounds": {"type": "integer", "minimum": 0},
            "clock": {"type": ["object", "null"]},
            "points": {"type": ["array", "null"], "items": {"type": "integer"}},
            "bye_points": {"type": ["integer", "null"]},
            "delay": {"type": "object"},
            "qualifiers": {"type": "integer", "minimum": 1},
        },
    },
    "TournamentCreated": {
        "type": "object",
        "properties": {
            "tournament_id": {"type": "string"},
            "organiser_token": {"type": "string"},
            "version": {"type": "integer"},
            "events": {"type": "array", "items": {"type": "object"}},
        },
    },
    "NewPlayer": {
        "type": "object",
        "required": ["name"],
        "additionalProperties": False,
        "properties": {
            "name": {"type": "string"},
            "kind": {"enum": ["human", "bot"]},
            "bot": {"type": ["string", "null"], "description": "bots: which bot plays (default random)"},
            "player_id": {"type": ["string", "null"]},
        },
    },
    "PlayerRegistered": {
        "type": "object",
        "properties": {
            "player_id": {"type": "string"},
            "player_token": {"type": "string"},
            "version": {"type": "integer"},
        },
    },
    "TournamentAccepted": {
        "type": "object",
        "properties": {
            "status": {"const": "accepted"},
            "command_id": {"type": "string"},
            "version": {"type": "integer"},
            "duplicate": {"type": "boolean"},
            "events": {"type": "array", "items": {"type": "object"}},
        },
    },
    "Standings": {
        "type": "object",
        "properties": {
            "tournament_id": {"type": "string"},
            "name": {"type": "string"},
            "game": {"type": "string"},
            "format": {"type": "string"},
            "status": {"enum": ["registering", "running", "finished"]},
            "round": {"type": "integer"},
            "planned_rounds": {"type": "integer"},
            "complete": {"type": "boolean"},
            "lines": {"type": "array", "items": {"type": "object"}},
        },
    },
    "Pairings": {
        "type": "object",
        "properties": {
            "tournament_id": {"type": "string"},
            "status": {"type": "string"},
            "rounds": {"type": "array", "items": {"type": "object"}},
        },
    },
    "TournamentLog": {
        "type": "object",
        "properties": {"tournament_id": {"type": "string"}, "events": {"type": "array", "items": _ENTRY}},
    },
    "MyTable": {
        "type": "object",
        "properties": {
            "tournament_id": {"type": "string"},
            "player_id": {"type": "string"},
            "status": {"type": "string"},
            "round": {"type": "integer"},
            "bye": {"type": "boolean"},
            "table": {"type": ["integer", "null"]},
            "table_id": {"type": ["string", "null"]},
            "seat": {"type": ["integer", "null"]},
            "seat_token": {"type": ["string", "null"]},
            "over": {"type": ["boolean", "null"]},
        },
    },
}
