"""A small tournament followed in the browser from creation to final
standings: the organiser creates it and registers three bots and a person,
starts it; the person's player page takes them to each of their tables,
where they play with the mouse; the public page ends with the final
standings, every round's pairings and links to the replays."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser"), pytest.mark.timeout(240)]

MOVE = "section.moves button[data-command]:not([disabled])"
TURN_OR_OVER = f"""() => {{
  const status = document.querySelector('[data-testid=status]');
  return (status && status.textContent.includes('Game over')) || document.querySelector('{MOVE}') !== null;
}}"""
SEAT_PAGE = re.compile(r"#/table/[\w-]+/seat/\d\?token=")
#: True on the player page, or on a seat page other than the one just played.
ON_TO_THE_NEXT = """played => document.querySelector('[data-testid=player-status]') !== null
    || (location.hash.includes('/seat/') && location.href !== played)"""


def play_out(page: Any) -> int:
    """Click legal moves until the game is over; the number of moves made."""
    played = 0
    while True:
        page.wait_for_function(TURN_OR_OVER, timeout=30_000)
        if "Game over" in page.get_by_test_id("status").inner_text():
            return played
        before = page.get_by_test_id("version").inner_text()
        page.locator(MOVE).first.click()
        page.wait_for_function(
            f"() => document.querySelector('[data-testid=version]').textContent !== {before!r}"
        )
        played += 1


def register(page: Any, name: str, kind: str) -> None:
    form = page.get_by_test_id("register")
    form.locator("#p-name").fill(name)
    form.locator("#p-kind").select_option(kind)
    form.get_by_role("button", name="Register").click()
    page.get_by_test_id("organiser-message").get_by_text(f"{name} is registered.").wait_for()


def test_a_tournament_from_creation_to_final_standings(page: Any, api: httpx.Client) -> None:
    page.goto("/#/organise")
    form = page.get_by_test_id("create-tournament")
    form.locator("#t-name").fill("Browser cup")
    form.locator("#t-game").select_option("highcard")
    form.locator("#t-format").select_option("swiss")
    form.locator("#t-seats").fill("2")
    form.locator("#t-rounds").fill("2")
    form.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url(re.compile(r"#/tournament/[\w-]+/organise\?token="))
    tid = re.search(r"#/tournament/([\w-]+)/organise", page.url).group(1)
    page.get_by_test_id("tournament-status").get_by_text("registering").wait_for()

    for name in ("Bot Ash", "Bot Birch", "Bot Cedar"):
        register(page, name, "bot")
    register(page, "Ada", "human")
    player_link = page.get_by_test_id("player-links").locator("a[data-player]").get_attribute("href")
    assert player_link.startswith(f"#/tournament/{tid}/player?token=")
    expect(page.locator("[data-testid=standings] tbody tr")).to_have_count(4)
    page.get_by_test_id("organiser-start").click()
    page.get_by_test_id("organiser-message").get_by_text("The tournament has started.").wait_for()

    # The player's own page (another tab) takes Ada to her table, round after round.
    tab = page.context.new_page()
    tab_errors: list[str] = []
    tab.on("pageerror", lambda exc: tab_errors.append(str(exc)))
    tab.goto(f"/{player_link}")
    played: list[str] = []
    while len(played) < 2:
        tab.wait_for_url(SEAT_PAGE, timeout=60_000)
        assert tab.url not in played, "the player page took Ada back to a table she had finished"
        played.append(tab.url)
        expect(tab.locator(".players")).to_contain_text("Ada")
        assert play_out(tab) == 3
        tab.get_by_role("link", name="Your tournament page").click()
        # The player page shows where Ada stands, or, once the next round is already
        # open (the results and the pairing can beat the click), takes her straight to it.
        tab.wait_for_function(ON_TO_THE_NEXT, arg=played[-1], timeout=20_000)
    tab.get_by_test_id("player-status").get_by_text("the tournament is over").wait_for(timeout=60_000)

    # The organiser's page, live: the final standings and both rounds.
    page.get_by_role("heading", name="Final standings").wait_for(timeout=60_000)
    assert "finished" in page.get_by_test_id("tournament-status").inner_text()
    rows = page.locator("[data-testid=standings] tbody tr")
    assert rows.count() == 4
    assert sorted(rows.nth(i).locator("td").nth(1).inner_text() for i in range(4)) == [
        "Ada",
        "Bot Ash",
        "Bot Birch",
        "Bot Cedar",
    ]
    standings = api.get(f"/v1/tournaments/{tid}/standings").json()
    assert [rows.nth(i).locator("td").nth(1).inner_text() for i in range(4)] == [
        line["line"]["name"] for line in standings["lines"]
    ]
    for number in (1, 2):
        card = page.locator(f"[data-round='{number}']")
        assert "complete" in card.inner_text()
        assert card.get_by_role("link", name="replay").count() == 2

    # The public page says the same to anyone.
    public = page.context.new_page()
    public.goto(f"/#/tournament/{tid}")
    public.get_by_role("heading", name="Final standings").wait_for()
    expect(public.locator("[data-testid=standings] tbody tr")).to_have_count(4)
    assert page.errors == [] and tab_errors == []
