"""The pieces route declarations (:class:`services.gateway.routing.Route`) are written
with: shared parameters, the codes groups of routes share, notes on rate limits, and
the live streams' frames, each said once for every resource that uses it."""

from __future__ import annotations

from typing import Any

from services.gateway.answers import SCHEMAS
from services.gateway.body import MAX_HEADER_ID, MAX_VERSION
from services.gateway.context import TABLE_ID

#: Codes a request for any table or tournament address can get when its path
#: parameter is empty or holds an encoded '/', so that no route matches.
NOT_FOUND = "not_found"
#: The store is unreachable (or a view is not ready yet): every route that reads or writes it.
STORE = "unavailable"
#: The game read models are being rebuilt on a server of their own that lost them: retry.
REBUILDING = "read_models_rebuilding"
#: Codes of any organiser command the platform process decides.
TOURNAMENT_SERVICE = ("busy", "dead_lettered", "outcome_unknown", "bad_header", "bad_request", STORE)
#: A read of a table: with a seat token the seat's, without one the spectator's.
TABLE_READ = ("rate_limited", "bad_token", "unknown_table", NOT_FOUND, STORE, REBUILDING)
#: A public read of a finished table.
FINISHED_READ = ("rate_limited", "unknown_table", "game_not_over", NOT_FOUND, STORE, REBUILDING)
#: Checked before anything a player key does.
PLAYER_KEY = ("missing_token", "bad_token", "rate_limited", STORE)
#: The id patterns of names chosen by the caller (a tournament, a player in it).
SAFE_ID = "^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"

RATE_LIMIT_NOTE = {
    "commands": "commands per seat token",
    "opens": "table openings per client address",
    "reads": "reads per seat token, or per client address without one",
    "tokens": "invalid tokens per client address",
    "writes": "writes per caller (player, organiser token or seat token) and per client address",
}
READS_NOTE = "Rate limited: " + RATE_LIMIT_NOTE["reads"] + "."
#: A write with a credential: bad credentials and writes are both budgeted.
WRITE_NOTE = "Rate limited: " + RATE_LIMIT_NOTE["tokens"] + ", and " + RATE_LIMIT_NOTE["writes"] + "."


def ref(name: str) -> dict[str, Any]:
    return {"$ref": SCHEMAS + name}


def path(name: str, pattern: str, description: str | None = None) -> dict[str, Any]:
    out = {"name": name, "in": "path", "required": True, "schema": {"type": "string", "pattern": pattern}}
    if description:
        out["description"] = description
    return out


def query_version(name: str, description: str) -> dict[str, Any]:
    return {
        "name": name,
        "in": "query",
        "description": description,
        "schema": {"type": "integer", "minimum": 0, "maximum": MAX_VERSION},
    }


def limit(most: int, default: int, description: str | None = "At most this many") -> dict[str, Any]:
    out: dict[str, Any] = {"name": "limit", "in": "query"}
    if description:
        out["description"] = description
    out["schema"] = {"type": "integer", "minimum": 1, "maximum": most, "default": default}
    return out


_HEADER_ID_SCHEMA = {"type": "string", "pattern": f"^[\\x21-\\x7e]{{1,{MAX_HEADER_ID}}}$"}
IDEMPOTENCY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": f"1 to {MAX_HEADER_ID} printable ASCII characters (bad_header otherwise). The key "
    "is its caller's (the seat token, player, organiser token, or the client address where the "
    "route takes no credential), for this route and resource: the same caller's retry gets the "
    "first outcome; the same key from another caller is a request of its own",
    "schema": _HEADER_ID_SCHEMA,
}
CORRELATION = {
    "name": "X-Correlation-ID",
    "in": "header",
    "required": False,
    "description": "Stored with the command and its events, for tracing (bad_header if malformed)",
    "schema": _HEADER_ID_SCHEMA,
}
LAST_EVENT_ID = {
    "name": "Last-Event-ID",
    "in": "header",
    "required": False,
    "description": "Sent by EventSource when it reconnects: the id of the last event received. The "
    "feed resumes after the larger of this and `after` (bad_request unless a whole number).",
    "schema": {"type": "string", "pattern": "^(0|[1-9][0-9]{0,15})$"},
}
AFTER = query_version("after", "Stream only the events after this version")
TABLE = path("table_id", TABLE_ID.pattern, "The gateway's own (20 hex) or a tournament's")
TOURNAMENT = path("tournament_id", SAFE_ID)
#: Anyone may read; a seat token makes it the seat's read.
AUTH_OPTIONAL: list[dict[str, list[str]]] = [{}, {"seatToken": []}]
PLAYER_KEY_AUTH: list[dict[str, list[str]]] = [{"playerKey": []}]


def frame(properties: dict[str, Any], description: str | None = None) -> dict[str, Any]:
    """One frame of a live feed (an SSE event, not JSON): every key is always present."""
    out: dict[str, Any] = {"type": "object", "required": list(properties), "properties": properties}
    if description:
        out["description"] = description
    return out


JSON_DATA = {"type": "string", "contentMediaType": "application/json"}


def reconnect_frame() -> dict[str, Any]:
    """The frame every live stream ends a slow reader with."""
    return frame(
        {"event": {"const": "reconnect"}, "data": {**JSON_DATA, "contentSchema": ref("FeedCut")}},
        "The client read too slowly and is cut off: reconnect with Last-Event-ID",
    )


def sse(kind: str, summary: str) -> dict[str, Any]:
    """A live feed of entries: each event of the stream as schemathesis and OpenAPI 3.1 read it."""
    event = {
        "oneOf": [
            frame(
                {
                    "event": {"const": kind},
                    "id": {"type": "string", "pattern": "^(0|[1-9][0-9]*)$", "description": "The version"},
                    "data": {**JSON_DATA, "contentSchema": ref("FeedEntry")},
                }
            ),
            frame(
                {"event": {"const": "end"}, "data": {"const": "{}"}},
                "Nothing will follow: the stream closes",
            ),
            reconnect_frame(),
        ]
    }
    return {
        "description": f"text/event-stream: '{kind}' events, each a FeedEntry with its version as id, "
        "then 'end' once " + summary + "; a comment line every 15 s while idle",
        "content": {"text/event-stream": {"schema": event}},
    }
