"""The player accounts' pages: a game's leaderboard and a player's page show what
the API returns after a few rated games (played in an arena by bot processes);
joining an arena from its page seats the player, whose bot process plays the
table; and no page's document, storage or request URL ever holds a player key
(it rides only in the URL fragment and the Authorization header)."""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from shared.infra.launcher import Stack
from tests.support.accounts import bearer, cli_bot
from tests.support.waiting import until_blocking
from tests.web.helpers import ordinal

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser"), pytest.mark.timeout(240)]


def register(api: httpx.Client, name: str) -> tuple[str, str]:
    r = api.post("/v1/players", json={"name": name, "bot": True, "operator": "browser tests"})
    assert r.status_code == 201, r.text
    return r.json()["player_id"], r.json()["player_key"]


def arena(api: httpx.Client, arena_id: str) -> dict[str, Any]:
    r = api.get(f"/v1/arenas/{arena_id}")
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def new_arena(api: httpx.Client, seconds: int) -> str:
    """A two-seat arena of ``highcard`` open for ``seconds``: its id."""
    r = api.post("/v1/arenas", json={"game": "highcard", "seats": 2, "seconds": seconds})
    assert r.status_code == 201, r.text
    arena_id: str = r.json()["arena_id"]
    return arena_id


def join(api: httpx.Client, arena_id: str, key: str) -> None:
    assert api.post(f"/v1/arenas/{arena_id}/join", headers=bearer(key)).status_code == 200


class KeyWatch:
    """Every request the page makes; ``check()`` asserts no key is in any URL, in
    the document, or in the page's storage (the fragment is the one place allowed)."""

    def __init__(self, page: Any, keys: list[str]) -> None:
        self.page = page
        self.keys = keys
        self.urls: list[str] = []
        self.authorized: list[str] = []
        page.on("request", self._seen)

    def _seen(self, request: Any) -> None:
        self.urls.append(request.url)
        auth = request.headers.get("authorization", "")
        if auth:
            self.authorized.append(auth)
        assert "referer" not in request.headers or not any(k in request.headers["referer"] for k in self.keys)

    def check(self) -> None:
        html = self.page.content()
        stored = self.page.evaluate("() => JSON.stringify([{...localStorage}, {...sessionStorage}])")
        for key in self.keys:
            assert key not in html, "a player key is in the document"
            assert key not in stored, "a player key is in the page's storage"
            for url in self.urls:
                assert key not in url, f"a player key went out in a URL: {url}"
            assert key not in self.page.url.split("#", 1)[0]


@pytest.fixture
def bot(web: Stack, tmp_path: Path) -> Iterator[Callable[[str, str], Path]]:
    """``bot(key, strategy)`` starts a bot process playing the account with this key;
    it answers the process's log. Each is killed once the test ends."""
    started: list[subprocess.Popen[bytes]] = []

    def start(key: str, strategy: str) -> Path:
        log = tmp_path / f"bot-{len(started)}.log"
        started.append(cli_bot(web, key, strategy, log))
        return log

    yield start
    for proc in started:
        proc.kill()
        proc.wait()


def test_leaderboard_and_player_page_show_the_api_after_rated_games(
    page: Any, api: httpx.Client, bot: Callable[[str, str], Path]
) -> None:
    a_id, a_key = register(api, "Ladder Ada")
    _, b_key = register(api, "Ladder Bo")
    arena_id = new_arena(api, 6)
    a_log = bot(a_key, "random")
    bot(b_key, "greedy")
    for key in (a_key, b_key):
        join(api, arena_id, key)

    def rated() -> bool:
        doc = arena(api, arena_id)
        done = doc["status"] == "closed" and all(t["places"] is not None for t in doc["tables"])
        me = api.get(f"/v1/players/{a_id}").json()
        return (
            done
            and bool(doc["tables"])
            and len(me["games"])
            == len(doc["tables"])
            == sum(len(ladder["history"]) for ladder in me["ladders"])
        )

    assert until_blocking(rated, 90), a_log.read_text()[-2000:]
    watch = KeyWatch(page, [a_key, b_key])

    # The leaderboard: every line as the API has it.
    ladder = api.get("/v1/ladders/highcard").json()
    page.goto("/#/ladder/highcard")
    page.locator(f"[data-testid=ladder] tr[data-player='{a_id}']").wait_for()
    for line in ladder["lines"]:
        row = page.locator(f"[data-testid=ladder] tr[data-player='{line['player_id']}']")
        cells = row.locator("td").all_inner_texts()
        assert cells[0] == str(line["rank"])
        assert cells[1] == line["name"] + (" (bot)" if line["bot"] else "")
        assert cells[2] == f"{line['rating']:.2f}" + (" ?" if line["provisional"] else "")
        assert cells[3:5] == [str(line["games"]), str(line["wins"])]
    assert page.locator("[data-testid=ladder] tbody tr").count() == len(ladder["lines"])
    watch.check()

    # A player's page, reached from the leaderboard: rating, history chart, games and results.
    page.locator(f"[data-testid=ladder] tr[data-player='{a_id}'] a").click()
    page.wait_for_url(re.compile(rf"#/players/{a_id}$"))
    me = api.get(f"/v1/players/{a_id}").json()
    (mine,) = me["ladders"]
    card = page.locator("section.card[data-game=highcard]")
    assert card.get_by_test_id("rating").inner_text() == f"{mine['rating']:.2f}"
    assert card.locator("svg circle").count() == len(mine["history"])
    games = page.get_by_test_id("games")
    assert games.locator("tbody tr").count() == len(me["games"])
    places = {p["table_id"]: p for p in mine["history"]}
    for game in me["games"]:
        row = games.locator(f"tr[data-table='{game['table_id']}']")
        point = places[game["table_id"]]
        assert row.get_by_test_id("result").inner_text() == f"{ordinal(point['place'])} of {point['players']}"
        assert row.locator("a").get_attribute("href") == f"#/replay/{game['table_id']}"
    watch.check()


def test_joining_an_arena_from_its_page_seats_the_player(
    page: Any, api: httpx.Client, bot: Callable[[str, str], Path]
) -> None:
    c_id, c_key = register(api, "Arena Cy")
    d_id, d_key = register(api, "Arena Di")
    arena_id = new_arena(api, 120)
    # Di waits with a bot process; Cy's bot process runs, and Cy joins from the page.
    bot(d_key, "random")
    c_log = bot(c_key, "random")
    join(api, arena_id, d_key)
    watch = KeyWatch(page, [c_key, d_key])

    page.goto("/#/arenas")
    page.locator(f"tr[data-arena='{arena_id}'] a").click()
    page.wait_for_url(re.compile(rf"#/arena/{arena_id}$"))
    page.locator(f"[data-testid=arena-board] tr[data-player='{d_id}']").wait_for()
    page.locator("#arena-key").fill(c_key)
    page.get_by_role("button", name="Use this key").click()
    page.wait_for_url(re.compile(rf"#/arena/{arena_id}\?key="))
    assert page.locator("#arena-key").count() == 0
    watch.check()
    page.get_by_test_id("arena-join").click()
    page.get_by_test_id("arena-me").get_by_text("You are in the queue").wait_for()

    # Seated: a table with both, played to its end by the bot processes, shown on the page.
    def cy_played() -> bool:
        doc = arena(api, arena_id)
        return any(c_id in t["players"] and t["places"] is not None for t in doc["tables"])

    assert until_blocking(cy_played, 60), c_log.read_text()[-2000:]
    table = next(
        t for t in arena(api, arena_id)["tables"] if c_id in t["players"] and t["places"] is not None
    )
    row = page.locator(f"[data-testid=arena-tables] tr[data-table='{table['table_id']}']")
    row.get_by_role("link", name="replay").wait_for()
    assert "Arena Cy" in row.inner_text() and "Arena Di" in row.inner_text()
    page.locator(f"[data-testid=arena-board] tr[data-player='{c_id}']").wait_for()
    page.get_by_test_id("arena-mine").wait_for()

    page.get_by_test_id("arena-leave").click()
    page.get_by_test_id("arena-me").get_by_text("You left the arena").wait_for()
    # The key went out only as the Authorization header of the join and the leave.
    assert watch.authorized.count(f"Bearer {c_key}") == 2
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(
        line["player_id"] == c_id and line["waiting"] for line in arena(api, arena_id)["lines"]
    ):
        time.sleep(0.2)
    assert not any(line["player_id"] == c_id and line["waiting"] for line in arena(api, arena_id)["lines"])
    watch.check()
