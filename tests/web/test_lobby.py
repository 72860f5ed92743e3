"""The lobby lists the hosted games, live and finished tables and tournaments;
and the gateway serves the pages the way browsers cache best: the page never
cached, every asset under a versioned path cached for good, compressed."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.web.helpers import give_to_bots, open_table, play_random, view, wait_over

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser"), pytest.mark.timeout(120)]

#: What a first visit to the lobby may download (compressed), assets and API answers aside.
PAGE_WEIGHT = 60_000


def test_the_lobby_lists_games_and_tables(page: Any, api: httpx.Client) -> None:
    live_id, _ = open_table(api, "highcard", 3)
    done_id, tokens = open_table(api, "highcard", 2)
    give_to_bots(api, done_id, tokens)
    wait_over(api, done_id)
    assets: list[int] = []
    page.on(
        "response",
        lambda r: (
            assets.append(int(r.headers.get("content-length", "0")))
            if "/static/" in r.url or r.url.endswith("/")
            else None
        ),
    )

    page.goto("/")
    for game in api.get("/v1/games").json():
        expect(page.locator(f"ul.games li[data-game='{game['key']}']")).to_contain_text(game["title"])
    row = page.get_by_test_id("live-tables").locator(f"tr[data-table='{live_id}']")
    expect(row).to_contain_text("High card")
    expect(row.get_by_test_id("moves")).to_have_text("1")
    expect(row).to_contain_text("3: Seat 1, Seat 2, Seat 3")
    finished = page.get_by_test_id("finished-tables").locator(f"tr[data-table='{done_id}']")
    expect(finished).to_contain_text("wins")
    expect(finished).to_contain_text("(bot)")
    row.get_by_role("link", name="watch").click()
    page.wait_for_url(re.compile(f"#/table/{live_id}$"))
    page.get_by_test_id("feed-state").get_by_text("live").wait_for()
    assert sum(assets) < PAGE_WEIGHT, assets
    assert page.errors == []


def test_pages_and_assets_are_cached_right(api: httpx.Client) -> None:
    index = api.get("/")
    assert index.status_code == 200
    assert index.headers["cache-control"] == "no-cache"
    assert "default-src 'self'" in index.headers["content-security-policy"]
    assert index.headers["referrer-policy"] == "no-referrer"
    version = re.search(r"/static/([0-9a-f]{12})/app\.js", index.text).group(1)

    asset = api.get(f"/static/{version}/app.js", headers={"accept-encoding": "gzip"})
    assert asset.status_code == 200
    assert asset.headers["content-type"].startswith("text/javascript")
    assert asset.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert asset.headers["content-encoding"] == "gzip"
    again = api.get(f"/static/{version}/app.js", headers={"if-none-match": asset.headers["etag"]})
    assert again.status_code == 304

    # A page loaded before an edit asks with its old version: today's file, revalidated.
    stale = api.get("/static/000000000000/app.js")
    assert stale.status_code == 200 and stale.headers["cache-control"] == "no-cache"
    assert api.get(f"/static/{version}/nothing.js").status_code == 404
    assert api.get(f"/static/{version}/../web.py").status_code == 404
    assert api.get(f"/static/{version}/index.html").status_code == 404


def test_a_delayed_table_is_listed_as_its_spectators_see_it(api: httpx.Client) -> None:
    r = api.post("/v1/tables", json={"game": "highcard", "seats": 2, "spectator_delay": {"moves": 2}})
    assert r.status_code == 201, r.text
    table_id, tokens = r.json()["table_id"], [t["token"] for t in r.json()["tokens"]]
    live = play_random(api, table_id, tokens, 3)
    seen = view(api, table_id)
    assert seen["moves"] == live["moves"] - 2 == 2
    listed = api.get("/v1/tables", params={"state": "live", "game": "highcard", "limit": 200}).json()
    mine = next(t for t in listed["tables"] if t["table_id"] == table_id)
    shown = ("moves", "version", "actors")
    assert [mine[k] for k in shown] == [seen[k] for k in shown]
    about = api.get(f"/v1/tables/{table_id}/about").json()
    assert about["moves"] == seen["moves"]
