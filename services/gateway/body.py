"""Reading request bodies: bounded in size, decoded by msgspec into a struct."""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec
from starlette.requests import Request

from services.gateway.errors import ApiError
from shared.kernel.clocks import ClockSettings, SpectatorDelay

T = TypeVar("T")
MAX_DEPTH_HINT = "JSON nested too deeply"


async def read_json(request: Request, schema: type[T], limit: int) -> T:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise ApiError("body_too_large", f"The body is larger than {limit} bytes.", limit=limit)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError("body_too_large", f"The body is larger than {limit} bytes.", limit=limit)
        chunks.append(chunk)
    raw = b"".join(chunks)
    try:
        return msgspec.json.decode(raw, type=schema)
    except msgspec.ValidationError as exc:
        raise ApiError("bad_request", f"The request body does not fit the schema: {exc}") from exc
    except msgspec.DecodeError as exc:
        raise ApiError("bad_json", f"The body is not valid JSON: {exc}") from exc
    except RecursionError as exc:
        raise ApiError("bad_json", MAX_DEPTH_HINT) from exc


def bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return None


class NewTable(msgspec.Struct, forbid_unknown_fields=True):
    game: str
    seats: int
    options: dict[str, Any] = {}
    clock: ClockSettings | None = None
    spectator_delay: SpectatorDelay | None = None


class Move(msgspec.Struct, forbid_unknown_fields=True):
    command: msgspec.Raw
    expected_version: int | None = None
