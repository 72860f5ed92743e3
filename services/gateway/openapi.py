"""The gateway's OpenAPI 3.1 document, committed as docs/openapi.json.

Written out rather than generated: the routes are few, and the document is a
promise to clients (a test checks the committed copy equals this one, and
that every route exists).
"""

from __future__ import annotations

from typing import Any

from services.gateway.errors import RULE_STATUS, STATUS


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
                    "parameters": [_TABLE_ID],
                    "security": _AUTH_OPTIONAL,
                    "responses": {
                        "200": _json({"$ref": "#/components/schemas/ViewDoc"}),
                        **_errors(*_READ_ERRORS),
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
        },
        "components": {
            "securitySchemes": {"seatToken": {"type": "http", "scheme": "bearer"}},
            "schemas": {
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
