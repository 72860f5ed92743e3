"""The games this server hosts (``GET /v1/games``), and their content packs' maps.

Content packs' maps as a client draws them: each pack's map served once,
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
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from services.gateway.answers import GameInfo
from services.gateway.apidoc import path, ref
from services.gateway.errors import ApiError
from services.gateway.routing import Answer, Route
from shared.games import registry
from shared.kernel.contract import Asset, pack_board
from shared.messaging.messages import encode

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


async def games(_: Request) -> Response:
    listing = []
    for key in registry.available():
        game = registry.get(key)
        listing.append(
            GameInfo(
                key=key,
                title=game.title,
                min_seats=game.min_seats,
                max_seats=game.max_seats,
                options=game.options(),
            )
        )
    return Response(encode(listing), media_type="application/json")


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


def _asset_types() -> list[type[msgspec.Struct]]:
    """The structs every registered game's assets encode, each once."""
    found = (registry.get(key).assets for key in registry.available())
    return list(dict.fromkeys(t for assets in found if assets is not None for t in assets.types))


def _one_of(types: list[type[msgspec.Struct]]) -> dict[str, Any]:
    refs = [ref(t.__name__) for t in types]
    return refs[0] if len(refs) == 1 else {"oneOf": refs}


routes = [
    Route(
        "GET",
        "/v1/games",
        games,
        summary="The games this server hosts, with their options",
        answers=[Answer(200, GameInfo, many=True)],
    ),
    Route(
        "GET",
        "/v1/games/{game}/packs/{pack}/board",
        board,
        summary="A content pack's map, for a game whose tables play one (public)",
        description="Served for the games that serve their packs' maps (`game` lists them); "
        "any other game, or a pack the game does not have, is not found. A view names its "
        "map by `board_digest`, a hash of exactly these bytes. Asked for with `?digest=` equal "
        "to it, the answer is immutable for a year; otherwise it is today's map, revalidated "
        "with its ETag (a 304 when it has not changed).",
        parameters=[
            {
                "name": "game",
                "in": "path",
                "required": True,
                "schema": {
                    "type": "string",
                    "enum": [key for key in registry.available() if registry.get(key).assets is not None],
                },
                "description": "A game key (GET /v1/games) whose game serves its packs' maps",
            },
            path("pack", "^[a-z0-9][a-z0-9_-]{0,63}$", "A content pack's name (a view's `pack`)"),
            {
                "name": "digest",
                "in": "query",
                "description": "The view's `board_digest`",
                "schema": {"type": "string", "pattern": "^[0-9a-f]{32}$"},
            },
        ],
        answers=[
            Answer(
                200,
                content={"application/json": {"schema": _one_of(_asset_types())}},
                schemas=tuple(_asset_types()),
            ),
            Answer(304, description="Not modified (If-None-Match held the ETag)"),
        ],
        codes=["not_found"],
    ),
]
