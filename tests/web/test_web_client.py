"""The web client's own server (``python -m services.web``, as the proxy reaches it):
the page, its files with their cache rules, and refusals in the API's error format."""

from __future__ import annotations

import re

import httpx

from services.gateway.errors import error_body
from services.web.app import create_app
from services.web.assets import ASSETS, IMMUTABLE, not_found


def test_a_refusal_is_the_gateways_error_format_byte_for_byte() -> None:
    for message in ("There is no such file.", "The web client is not installed."):
        answer = not_found(message)
        assert answer.body == error_body("not_found", message)
        assert answer.status_code == 404 and answer.media_type == "application/json"


def client() -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app()), base_url="http://web")


async def test_the_page_names_the_version_its_files_are_served_under() -> None:
    async with client() as web:
        page = await web.get("/")
        assert page.status_code == 200 and page.headers["cache-control"] == "no-cache"
        assert page.headers["referrer-policy"] == "no-referrer"
        version = re.search(r"/static/([0-9a-f]{12})/app\.js", page.text)
        assert version and version.group(1) == ASSETS.version
        script = await web.get(f"/static/{ASSETS.version}/app.js", headers={"accept-encoding": "gzip"})
        assert script.headers["content-type"] == "text/javascript; charset=utf-8"
        assert script.headers["cache-control"] == IMMUTABLE
        assert script.headers["content-encoding"] == "gzip" and b"import" in script.content
        # A game's renderer, two folders down, is served too.
        board = await web.get(f"/static/{ASSETS.version}/games/tigris/board.js")
        assert board.status_code == 200 and b"export function drawBoard" in board.content
        # An older version's file is today's, revalidated rather than kept a year.
        stale = await web.get("/static/000000000000/style.css")
        assert stale.status_code == 200 and stale.headers["cache-control"] == "no-cache"
        assert (await web.get("/health")).json() == {"ok": True}


async def test_what_is_not_a_file_of_the_client_is_not_found_in_the_apis_words() -> None:
    async with client() as web:
        for path in (
            f"/static/{ASSETS.version}/index.html",
            f"/static/{ASSETS.version}/nothing.js",
            f"/static/{ASSETS.version}/../assets.py",
            "/static/",
            "/v1/games",
        ):
            answer = await web.get(path)
            assert answer.status_code == 404, path
            assert answer.json()["code"] == "not_found", path
        assert (await web.post(f"/static/{ASSETS.version}/app.js")).status_code == 404


def test_every_games_renderer_exports_the_whole_contract() -> None:
    """A renderer that draws but exports no ``describe`` or ``label`` still loads:
    the page then falls back to the generic words without an error, which only a
    reader would notice."""
    games = ASSETS.root / "games"
    folders = sorted(p for p in games.iterdir() if p.is_dir())
    assert {p.name for p in folders} >= {"tigris", "tigris-cards", "catan", "conan"}
    for folder in folders:
        text = (folder / "index.js").read_text()
        exported = set(re.findall(r"^export (?:async )?function (\w+)", text, re.M))
        for names in re.findall(r"^export \{([^}]*)\} from", text, re.M):
            exported |= {n.strip() for n in names.split(",")}
        assert {"render", "label", "describe", "summary"} <= exported, folder.name
        assert {"board.js", "panels.js", "words.js"} <= {p.name for p in folder.iterdir()}, folder.name
