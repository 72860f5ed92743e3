"""Playing from a seat link against the platform process's bots, with the
generic renderer (the fixture game high card has no board renderer): a whole
game with the mouse from the lobby's form, one with the keyboard alone, and a
rejection shown in words."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from tests.web.helpers import give_to_bots, move_behind_its_back, open_table, view

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser"), pytest.mark.timeout(180)]

MOVE = "section.moves button[data-command]:not([disabled])"
TURN_OR_OVER = f"""() => {{
  const status = document.querySelector('[data-testid=status]');
  return (status && status.textContent.includes('Game over')) || document.querySelector('{MOVE}') !== null;
}}"""


def over(page: Any) -> bool:
    return "Game over" in page.get_by_test_id("status").inner_text()


def version(page: Any) -> int:
    return int(page.get_by_test_id("version").inner_text().split()[-1])


def wait_past(page: Any, before: int) -> None:
    shown = "Number(document.querySelector('[data-testid=version]').textContent.split(' ').pop())"
    page.wait_for_function(f"() => {shown} > {before}")


def test_a_whole_game_with_the_mouse_from_the_lobby(page: Any) -> None:
    page.goto("/")
    form = page.get_by_test_id("open-table")
    form.locator("#open-game").select_option("highcard")
    form.locator("#open-seats").fill("2")
    form.locator("#open-role-0").select_option("you")
    form.locator("#open-role-1").select_option("bot")
    form.get_by_text("Game options").click()
    form.locator("#option-hand_size").fill("6")
    form.get_by_role("button", name="Open the table").click()
    page.wait_for_url(re.compile(r"#/table/\w+/seat/0\?token="))
    played = 0
    while True:
        page.wait_for_function(TURN_OR_OVER, timeout=20_000)
        if over(page):
            break
        before = version(page)
        page.locator(MOVE).first.click()
        wait_past(page, before)
        played += 1
    assert played == 6
    assert page.get_by_test_id("result").inner_text()
    assert "The game ends" in page.locator(".log-list").inner_text()
    assert page.errors == []


def test_a_whole_game_with_the_keyboard(page: Any, api: httpx.Client) -> None:
    table_id, tokens = open_table(api, "highcard", 2, {"hand_size": 5})
    give_to_bots(api, table_id, tokens[1:])
    page.goto(f"/#/table/{table_id}/seat/0?token={tokens[0]}")
    played = 0
    while True:
        page.wait_for_function(TURN_OR_OVER, timeout=20_000)
        if over(page):
            break
        for _ in range(80):  # Tab until a move has the focus (it stays in the panel after a move)
            if page.evaluate("() => document.activeElement.matches('section.moves button[data-command]')"):
                break
            page.keyboard.press("Tab")
        else:
            raise AssertionError("Tab never reached a move")
        before = version(page)
        page.keyboard.press("Enter")
        wait_past(page, before)
        played += 1
    assert played == 5
    assert view(api, table_id)["over"]
    assert page.errors == []


def test_a_rejected_move_is_shown_in_words(page: Any, api: httpx.Client) -> None:
    table_id, tokens = open_table(api, "highcard", 2)
    # The page hears nothing from its feed, so it still offers the move played behind its back.
    page.route("**/feed*", lambda route: route.abort())
    page.goto(f"/#/table/{table_id}/seat/0?token={tokens[0]}")
    page.locator(MOVE).first.wait_for()
    move_behind_its_back(api, table_id, tokens[0])
    page.locator(MOVE).last.click()
    message = page.get_by_test_id("move-message")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=move-message]')?.textContent.startsWith('Not accepted:')"
    )
    assert len(message.inner_text()) > len("Not accepted: ") + 10
    # The page read the table again: it is the other seat's turn now.
    page.wait_for_function(
        "() => document.querySelector('[data-testid=status]').textContent.includes('waiting for')"
    )
