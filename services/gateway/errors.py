"""Every error the gateway answers with: a stable code, an HTTP status, and a
message a person understands. The OpenAPI spec lists the same codes."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from starlette.responses import Response

from shared.kernel.rejection import RuleViolation
from shared.messaging.messages import encode

#: Every platform code: the one closed list. ``ApiError`` takes only these (mypy
#: refuses any other code at a raise); a game's or a domain's own rule codes come as
#: refusals (:meth:`ApiError.refused`, an outcome's code) and answer 422.
Code = Literal[
    "bad_json",
    "bad_request",
    "bad_command",
    "bad_options",
    "bad_seat_count",
    "bad_clock",
    "bad_header",
    "unknown_level",
    "missing_token",
    "bad_token",
    "unknown_game",
    "unknown_table",
    "unknown_tournament",
    "not_found",
    "method_not_allowed",
    "body_too_large",
    "stale_version",
    "table_exists",
    "game_not_over",
    "busy",
    "rate_limited",
    "outcome_unknown",
    "unavailable",
    "read_models_rebuilding",
    "internal",
    "dead_lettered",
    "idempotency_key_reused",
    "tournament_full",
    "arena_full",
    "too_many_invitations",
    "too_many_connections",
    "idle_timeout",
    "credential_revoked",
    "request_timeout",
    "headers_too_large",
]
#: Rejection codes that do not come from a game's own rules, with their status.
STATUS: dict[Code, int] = {
    "bad_json": 400,
    "bad_request": 400,
    "bad_command": 400,
    "bad_options": 400,
    "bad_seat_count": 400,
    "bad_clock": 400,
    "bad_header": 400,
    # A bot seat or entry named a level that is none of shared/kernel/levels.py's.
    "unknown_level": 400,
    "missing_token": 401,
    "bad_token": 403,
    "unknown_game": 404,
    "unknown_table": 404,
    "unknown_tournament": 404,
    "not_found": 404,
    "method_not_allowed": 405,
    "body_too_large": 413,
    "stale_version": 409,
    "table_exists": 409,
    "game_not_over": 409,
    "busy": 503,
    "rate_limited": 429,
    "outcome_unknown": 504,
    "unavailable": 503,
    # A read-model server of their own lost them (restarted empty): the
    # projector rebuilds them from the store; nothing is lost, retry.
    "read_models_rebuilding": 503,
    "internal": 500,
    # A stage failed on this command and set it aside for an operator: the
    # command was not applied. A platform fault, but one this one request
    # owns; it is never retried by itself, so 422 (not a 5xx to retry).
    "dead_lettered": 422,
    "idempotency_key_reused": 422,
    # Aggregate bounds (docs/reliability.md, "Write budgets and aggregate bounds"):
    # the aggregate is full, not the request wrong, so the same request may pass later.
    "tournament_full": 409,
    "arena_full": 409,
    "too_many_invitations": 409,
    # Play connections (WebSocket): refusals sent as a last message before the close.
    # too_many_connections also refuses a socket, a feed or a bot stream over a cap
    # (services/gateway/connections.py).
    "too_many_connections": 429,
    "idle_timeout": 408,
    # The key or token a play connection was opened with ended (a rotated player key):
    # services/gateway/credentials.py.
    "credential_revoked": 401,
    # The transport's guards (services/gateway/transport.py), answered before the
    # application sees the request, on a connection that then closes.
    "request_timeout": 408,
    "headers_too_large": 431,
}
#: The messages of the two platform faults, said alike on every channel (HTTP, play connections).
STORE_DOWN_MESSAGE = "The store is unreachable right now; retry shortly."
INTERNAL_MESSAGE = "Something went wrong on our side; it has been logged."
#: A game's own rule violation (not your turn, illegal placement, ...).
RULE_STATUS = 422


#: ``STATUS`` looked up by any code (a rule code is none of these).
_BY_NAME: dict[str, int] = {code: status for code, status in STATUS.items()}


def status_of(code: str) -> int:
    return _BY_NAME.get(code, RULE_STATUS)


class Error(msgspec.Struct, kw_only=True):
    """Every rejection, whatever its status. `details` holds the code's particulars
    (rate_limited: retry_after_s; body_too_large: limit; bad_header: header; bad_request
    of a query or header: parameter or header; stale_version: current; unknown_game:
    available; a command: command_id)."""

    status: Literal["rejected"]
    code: Annotated[
        str,
        msgspec.Meta(
            description="Stable code: "
            + ", ".join(sorted(c for c in STATUS if c != "internal"))
            + "; a game's or a tournament's own rule codes answer 422."
        ),
    ]
    message: Annotated[str, msgspec.Meta(description="For people; may change")]
    details: dict[str, Any]


class ApiError(Exception):
    def __init__(
        self, code: Code, message: str, headers: dict[str, str] | None = None, **details: Any
    ) -> None:
        super().__init__(message)
        self.code: str = code
        self.message = message
        self.headers = headers
        self.details = details

    @classmethod
    def refused(cls, violation: RuleViolation) -> ApiError:
        """A rule's refusal as the API's: the same code, message and details."""
        return cls.passed_on(violation.code, violation.message, violation.details)

    @classmethod
    def passed_on(cls, code: str, message: str, details: dict[str, Any]) -> ApiError:
        """Another stage's refusal (an outcome's code: a rule's, or a platform code the
        stage chose) answered as it came; every code a route chooses itself is a ``Code``."""
        error = cls("bad_request", message, **details)
        error.code = code
        return error


def error_body(code: str, message: str, details: dict[str, Any] | None = None) -> bytes:
    """A rejection's JSON, as every answer carries it (HTTP body or play-connection reply)."""
    return encode(Error(status="rejected", code=code, message=message, details=details or {}))


def error_response(
    code: str, message: str, details: dict[str, Any] | None = None, headers: dict[str, str] | None = None
) -> Response:
    body = error_body(code, message, details)
    return Response(body, status_code=status_of(code), media_type="application/json", headers=headers)
