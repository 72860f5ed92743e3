"""A content pack's map, served by the gateway through the game contract
(``GameModule.assets``) without naming a game: Conan's packs answered by
digest, gzipped or not and revalidated by ETag; any other game, an unknown game
or an unknown pack answered 404 not_found, as an address with no route is."""

from __future__ import annotations

import httpx
import pytest

from services.gateway.games import IMMUTABLE, REVALIDATE
from shared.games.conan import PACKS
from shared.games.conan.views import board_digest, board_json
from shared.infra.launcher import Stack

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("stack"), pytest.mark.timeout(120)]


async def test_each_conan_pack_map_is_served_by_its_digest(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        for name, pack in PACKS.items():
            where = f"/v1/games/conan/packs/{name}/board"
            digest, etag = board_digest(pack), f'"{board_digest(pack)}"'
            # Asked for by the digest a view names: kept for good.
            r = await api.get(where, params={"digest": digest}, headers={"accept-encoding": "gzip"})
            assert r.status_code == 200, r.text
            assert r.headers["content-encoding"] == "gzip"
            assert r.content == board_json(pack)  # httpx unzips it
            assert r.headers["content-type"] == "application/json"
            assert (r.headers["etag"], r.headers["cache-control"]) == (etag, IMMUTABLE)
            assert r.headers["vary"] == "accept-encoding"
            # Without it (or with a stale one): today's map, revalidated.
            for params in ({}, {"digest": "0" * 32}):
                plain = await api.get(where, params=params, headers={"accept-encoding": "identity"})
                assert plain.status_code == 200 and "content-encoding" not in plain.headers
                assert plain.content == board_json(pack)
                assert (plain.headers["etag"], plain.headers["cache-control"]) == (etag, REVALIDATE)
            same = await api.get(where, headers={"if-none-match": etag})
            assert (same.status_code, same.content) == (304, b"")
            assert (same.headers["etag"], same.headers["cache-control"]) == (etag, REVALIDATE)
            changed = await api.get(where, headers={"if-none-match": '"0"'})
            assert changed.status_code == 200 and changed.content == board_json(pack)


@pytest.mark.parametrize(
    "where",
    [
        "/v1/games/conan/packs/atlantis/board",  # no such pack
        "/v1/games/catan/packs/ziggurat/board",  # a game that serves no packs' maps
        "/v1/games/highcard/packs/ziggurat/board",  # an extra game, the same
        "/v1/games/no-such-game/packs/ziggurat/board",
    ],
)
async def test_any_other_game_or_pack_is_not_found(stack: Stack, where: str) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        r = await api.get(where)
        assert r.status_code == 404
        assert r.json()["code"] == "not_found"
