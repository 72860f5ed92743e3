"""Euphrates & Tigris, the card game, in the browser: a whole game played from
a seat link against a bot with the keyboard alone (Tab to a card in hand, a
leader or a panel button, Space or Enter to choose it, the arrow keys between
the highlighted places on the table, Enter to place, Enter again to confirm),
to the final standings, which match the gateway's result; every move of the
seat went through the page.

The game is the short variant a two-seat table allows: 120 of the 185 cards
leave the game unseen after dealing (``two_player_removal``), so the draw pile
runs out after about 45 moves of the seat instead of about 150."""

from __future__ import annotations

import random
import time
from typing import Any
from urllib.parse import quote

import pytest

from tests.browser.helpers import (
    assert_every_move_through_the_page,
    assert_final_standings_shown,
    give_to_bots,
    open_table,
    record_moves,
    view,
)

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("browser"), pytest.mark.timeout(300)]

SHORT = {"two_player_removal": 120}
BUDGET_S = 200
#: A rejection in words, on the board's panel or the page's.
REJECTED = ".zt-msg, [data-testid=move-message].error"
#: Most Tab presses from anywhere on the page to any control on it.
TABS = 400
FOCUSED_KEY = "() => document.activeElement && document.activeElement.getAttribute('data-key')"


def _tab_to(page: Any, key: str) -> None:
    """Press Tab until the control with this ``data-key`` has the focus."""
    for _ in range(TABS):
        if page.evaluate(FOCUSED_KEY) == key:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {key}")


def _keys(page: Any, selector: str) -> list[str]:
    return page.locator(selector).evaluate_all("els => els.map(e => e.getAttribute('data-key'))")


def _one_move(page: Any, rng: random.Random) -> None:
    """Keys until one command is sent."""
    box = page.locator("[data-zt=moves]")
    for _ in range(12):
        if box.locator("[data-confirm]").count():
            question = box.locator(".zt-confirm-q").inner_text()
            assert question.endswith("?"), question
            # Enter on the chosen place again confirms; else the Confirm button.
            pending = page.locator("svg.zt-board .legal.zt-pending")
            if not (pending.count() and page.evaluate(FOCUSED_KEY) == pending.get_attribute("data-key")):
                _tab_to(page, "confirm")
            page.keyboard.press("Enter")
            return
        options = _keys(page, "[data-zt=moves] button[data-option]")
        if options:
            _tab_to(page, rng.choice(options))
            page.keyboard.press(rng.choice(["Enter", " "]))
            continue
        if page.locator("button[data-pick][aria-pressed=true]").count():
            # Picking moved the focus to the first place it may go: walk the table with the arrows.
            start = page.evaluate(FOCUSED_KEY)
            assert start and start.startswith("t-"), start
            for _ in range(rng.randrange(4)):
                page.keyboard.press(rng.choice(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"]))
            place = page.evaluate(FOCUSED_KEY)
            assert place.startswith("t-"), place
            page.keyboard.press("Enter")
            continue
        picks = _keys(page, "[data-zt=moves] button[data-pick], [data-zt=hand] button[data-pick]")
        commands = _keys(page, "[data-zt=moves] button[data-command]")
        if not picks and not commands:
            # The page is between two versions of the view: look again.
            page.wait_for_timeout(250)
            continue
        if picks and (not commands or rng.random() < 0.85):
            _tab_to(page, rng.choice(picks))
            page.keyboard.press(rng.choice(["Enter", " "]))
            continue
        # An offer to answer, cards to commit to a conflict, a conflict to resolve first.
        _tab_to(page, rng.choice(commands))
        page.keyboard.press(rng.choice(["Enter", " "]))
        return
    raise AssertionError(f"it is this seat's move, yet no command after several keys: {box.inner_text()}")


def test_a_whole_game_of_the_card_game_with_the_keyboard(page: Any, api: Any) -> None:
    start = time.monotonic()
    table_id, tokens = open_table(api, "tigris-cards", 2, SHORT)
    give_to_bots(api, table_id, [tokens[1]])
    accepted = record_moves(page, table_id)
    page.goto(f"/#/table/{table_id}/seat/0?token={quote(tokens[0])}")
    page.locator("svg.zt-board").wait_for()
    rng = random.Random(16)
    moves = 0
    while True:
        assert time.monotonic() - start < BUDGET_S, f"the game took longer than {BUDGET_S}s ({moves} moves)"
        page.locator("[data-zt=moves], [data-testid=result]").first.wait_for(timeout=30_000)
        if page.locator("[data-testid=result]").count():
            break
        before = page.get_by_test_id("version").inner_text()
        _one_move(page, rng)
        # Until the page shows the next version (or a rejection, in words).
        page.wait_for_function(
            """([v, rejected]) => { const el = document.querySelector('[data-testid=version]');
                 return (el && el.textContent !== v) || document.querySelector(rejected) !== null; }""",
            arg=[before, REJECTED],
        )
        rejected = page.locator(REJECTED)
        assert not rejected.count(), rejected.first.inner_text()
        moves += 1

    final = view(api, table_id)
    assert final["over"] and final["result"]["standings"]
    assert_final_standings_shown(page, final["result"])
    # The board's own panel lists the standings too.
    status = page.locator("[data-zt=status]").inner_text()
    for standing in final["result"]["standings"]:
        assert f"{standing['place']}. Seat {standing['seat'] + 1} — {standing['score']}" in status, status
    assert_every_move_through_the_page(api, table_id, 0, accepted)
    assert len(accepted) == moves
    print(f"{moves} moves with the keyboard in {time.monotonic() - start:.1f}s")
    assert not page.errors, page.errors  # type: ignore[attr-defined]
