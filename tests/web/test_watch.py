"""Watching a live bot game of every hosted game: the spectator's page follows
the table over its feed, and the move number and the log move on screen."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from tests.web.helpers import HOSTED, give_to_bots, open_table

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser"), pytest.mark.timeout(120)]


def move_number(page: Any) -> int:
    found = re.search(r"Move (\d+)", page.get_by_test_id("status").inner_text())
    return int(found.group(1)) if found else -1


@pytest.mark.parametrize("game", [*HOSTED, "highcard"])
def test_watching_a_live_bot_game_updates_the_page(page: Any, api: httpx.Client, game: str) -> None:
    table_id, tokens = open_table(api, game, HOSTED.get(game, 2))
    page.goto(f"/#/table/{table_id}")
    page.get_by_test_id("feed-state").get_by_text("live").wait_for()
    # "live" can show a moment before the opening events are written out.
    page.locator(".log-list li").first.wait_for()
    before = move_number(page)
    logged = page.locator(".log-list li").count()
    assert before == 1 and logged >= 1
    # The bots start once the page is watching: everything after comes over the feed.
    give_to_bots(api, table_id, tokens)
    page.wait_for_function(
        "() => { const m = /Move (\\d+)/.exec(document.querySelector('[data-testid=status]').textContent);"
        " return m && Number(m[1]) > 3 || document.querySelector('[data-testid=status]').textContent"
        ".includes('Game over'); }",
        timeout=30_000,
    )
    assert page.locator(".log-list li").count() > logged
    assert "Watching" in page.get_by_test_id("status").inner_text()
    assert page.errors == []
