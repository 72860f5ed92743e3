"""Age of Conan's content packs as a client draws them: each pack's map served
once, instead of inside every view and every history entry.

A view names the map by ``board_digest`` (a hash of exactly these bytes). Asked
for with that digest, the answer is immutable (cached for a year); asked for
without it or with another one (a page loaded before a deploy), the answer is
today's map with its ``ETag``, revalidated: the same rule as the static assets.
"""

from __future__ import annotations

import functools
import gzip

from starlette.requests import Request
from starlette.responses import Response

from services.gateway.errors import ApiError
from shared.games.conan import PACKS
from shared.games.conan.views import board_digest, board_json

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


@functools.lru_cache(maxsize=8)
def _gzipped(name: str) -> bytes:
    return gzip.compress(board_json(PACKS[name]), 9, mtime=0)


async def board(request: Request) -> Response:
    """``GET /v1/games/conan/packs/{pack}/board[?digest=...]``: the pack's map (public)."""
    name = request.path_params["pack"]
    pack = PACKS.get(name)
    if pack is None:
        raise ApiError("not_found", f"There is no content pack named {name!r}.")
    digest = board_digest(pack)
    etag = f'"{digest}"'
    cache = IMMUTABLE if request.query_params.get("digest") == digest else REVALIDATE
    headers = {"etag": etag, "cache-control": cache, "vary": "accept-encoding"}
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    if "gzip" in request.headers.get("accept-encoding", ""):
        headers["content-encoding"] = "gzip"
        return Response(_gzipped(name), media_type="application/json", headers=headers)
    return Response(board_json(pack), media_type="application/json", headers=headers)
