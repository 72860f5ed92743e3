"""Reading requests: bodies bounded in size, valid UTF-8 JSON, decoded by
msgspec into structs whose every value carries its bounds; headers that are
stored or echoed are checked the same way.

Nothing that fails here reaches a stage: the client gets a 400 with a stable
code and the reason.
"""

from __future__ import annotations

import os
import re
from typing import Annotated, Any, TypeVar

import msgspec
from starlette.requests import HTTPConnection, Request

from services.gateway.errors import ApiError, Code
from shared.kernel.bounds import MAX_OPTIONS, MAX_SEATS, Name
from shared.kernel.clocks import ClockSettings, SpectatorDelay
from shared.kernel.levels import LEVELS

T = TypeVar("T")
MAX_DEPTH_HINT = "JSON nested too deeply"
#: Idempotency keys and correlation ids are stored with every command and
#: event: printable ASCII, at most this long.
MAX_HEADER_ID = 128
_HEADER_ID = re.compile(rf"^[\x21-\x7e]{{1,{MAX_HEADER_ID}}}$")
#: The id headers' names as a request carries them (encoded once, not per request).
_HEADER_NAMES = {name: name.encode() for name in ("idempotency-key", "x-correlation-id")}
#: A game command at the edge: an object with a short ``type`` tag. The game's
#: own types (with their bounds) decode the rest in the validator.
MAX_VERSION = 2**53  # far beyond any game, and exact in every JSON reader


def header(request: HTTPConnection, name: bytes) -> str | None:
    """A request header's first value (``name`` lower-case, as the server hands names
    over), as Starlette's ``request.headers`` reads it: a scan of the request's few
    headers, without the mapping that object builds for every request."""
    for key, value in request.scope["headers"]:
        if key == name:
            return value.decode("latin-1")
    return None


async def read_body(request: Request, limit: int) -> bytes:
    declared = header(request, b"content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise ApiError("body_too_large", f"The body is larger than {limit} bytes.", limit=limit)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError("body_too_large", f"The body is larger than {limit} bytes.", limit=limit)
        chunks.append(chunk)
    return b"".join(chunks)


#: A schema error inside one of these fields gets that field's own code.
FIELD_CODES: dict[str, Code] = {
    "clock": "bad_clock",
    "options": "bad_options",
    "game_options": "bad_options",
    "seats": "bad_seat_count",
    "seats_per_table": "bad_seat_count",
    # A bot's level: a lobby's bot seats, a casual table's bot seat, an arena's bot entrants.
    "levels": "unknown_level",
    "seats.bot": "unknown_level",
    "bots": "unknown_level",
}
#: What a person needs to know to fix such a field, after the schema's own words.
FIELD_HINTS: dict[str, str] = {
    field: f". The bot levels are {', '.join(LEVELS)}." for field in ("levels", "seats.bot", "bots")
}
_PATH = re.compile(r"at `\$((?:\.[a-z_]+|\[\d+\])+)`")
_NAME = re.compile(r"[a-z_]+")


def _coded_field(error: str) -> str | None:
    """The innermost field on the failing path that has a code of its own, by its
    name or with its parent's (``$.seats[1].bot`` is a bot's level, ``$.clock.initial_ms``
    a clock's field)."""
    path = _PATH.search(error)
    names = _NAME.findall(path.group(1)) if path else []
    for i in reversed(range(len(names))):
        for name in (".".join(names[i - 1 : i + 1]) if i else "", names[i]):
            if name in FIELD_CODES:
                return name
    return None


async def read_json(request: Request, schema: type[T], limit: int) -> T:
    return decode_json(await read_body(request, limit), schema)


def decode_json(raw: bytes, schema: type[T]) -> T:
    """A request's JSON (a body, or a play connection's message) as ``schema``, or
    the 400 that says what is wrong with it."""
    try:
        # msgspec checks UTF-8 only in the strings it decodes, not inside a
        # Raw field it passes through: check the whole body once.
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ApiError("bad_json", f"The body is not valid UTF-8 (byte {exc.start}).") from exc
    try:
        return msgspec.json.decode(raw, type=schema)
    except msgspec.ValidationError as exc:
        field = _coded_field(str(exc))
        code: Code = FIELD_CODES.get(field, "bad_request") if field else "bad_request"
        hint = FIELD_HINTS.get(field or "", "")
        raise ApiError(code, f"The request body does not fit the schema: {exc}{hint}") from exc
    except msgspec.DecodeError as exc:
        raise ApiError("bad_json", f"The body is not valid JSON: {exc}") from exc
    except RecursionError as exc:
        raise ApiError("bad_json", MAX_DEPTH_HINT) from exc


def bearer(request: HTTPConnection) -> str | None:
    scheme, _, token = (header(request, b"authorization") or "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return None


def header_id(request: HTTPConnection, name: str) -> str | None:
    """A stored id header (Idempotency-Key, X-Correlation-ID), checked; None if absent."""
    value = header(request, _HEADER_NAMES.get(name) or name.lower().encode("latin-1"))
    if value is None:
        return None
    if not _HEADER_ID.match(value):
        raise ApiError(
            "bad_header",
            f"The {name} header must be 1 to {MAX_HEADER_ID} printable ASCII characters without spaces.",
            header=name,
        )
    return value


def correlation_id(request: HTTPConnection) -> str:
    return header_id(request, "x-correlation-id") or made_up_id()


def made_up_id() -> str:
    """32 random hex digits, for a request that brought no id of its own (a quarter
    of the cost of ``uuid.uuid4().hex``, paid twice by every move)."""
    return os.urandom(16).hex()


class _Tagged(msgspec.Struct):
    type: Annotated[str, msgspec.Meta(max_length=64)]


_tagged = msgspec.json.Decoder(_Tagged).decode


def check_command(raw: msgspec.Raw) -> None:
    """The command is an object with a ``type`` tag; the game's types judge the rest."""
    try:
        _tagged(raw)
    except (msgspec.ValidationError, msgspec.DecodeError, RecursionError) as exc:
        raise ApiError(
            "bad_command", f"A command is a JSON object with a 'type' of at most 64 characters: {exc}"
        ) from exc


class NewTable(msgspec.Struct, forbid_unknown_fields=True):
    game: Name
    seats: Annotated[int, msgspec.Meta(ge=1, le=MAX_SEATS)]
    #: Checked against the game's own options type at the edge.
    options: Annotated[dict[Name, Any], msgspec.Meta(max_length=MAX_OPTIONS)] = {}
    clock: ClockSettings | None = None
    spectator_delay: SpectatorDelay | None = None


class Move(msgspec.Struct, forbid_unknown_fields=True):
    command: msgspec.Raw
    expected_version: Annotated[int, msgspec.Meta(ge=0, le=MAX_VERSION)] | None = None
    #: A move in one request: the accepted reply also holds the seat's new view.
    view: Annotated[
        bool,
        msgspec.Meta(
            description="true: an accepted reply also holds your seat's view once it shows the "
            "new version (as GET view?min_version=version answers), so a move costs one request"
        ),
    ] = False
