"""Content packs' maps as a client draws them: each pack's map served once,
instead of inside every view and every history entry. A game serves them
through its contract (``GameModule.assets``, by ``pack_board(pack)``), so this
route names no game: one that serves none, or no such pack, is not found.

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
from shared.games import registry
from shared.kernel.contract import Asset, pack_board

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


@functools.lru_cache(maxsize=8)
def _gzipped(asset: Asset) -> bytes:
    return gzip.compress(asset.body, 9, mtime=0)


async def board(request: Request) -> Response:
    """``GET /v1/games/{game}/packs/{pack}/board[?digest=...]``: the pack's map (public)."""
    name = request.path_params["pack"]
    asset = registry.asset(request.path_params["game"], pack_board(name))
    if asset is None:
        raise ApiError("not_found", f"There is no content pack named {name!r}.")
    etag = f'"{asset.digest}"'
    cache = IMMUTABLE if request.query_params.get("digest") == asset.digest else REVALIDATE
    headers = {"etag": etag, "cache-control": cache, "vary": "accept-encoding"}
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    if "gzip" in request.headers.get("accept-encoding", ""):
        headers["content-encoding"] = "gzip"
        return Response(_gzipped(asset), media_type=asset.media_type, headers=headers)
    return Response(asset.body, media_type=asset.media_type, headers=headers)
