"""Tigris & Euphrates in the browser: a whole game played from a seat link by
clicking legal moves on the board (a tile or leader, then a highlighted
square, then Confirm) and in the side panel (swaps, support, wars, monuments,
treasures), some of them with the keyboard alone, against a bot; and the seat
page never holds a fact of the other seat's hand.

And a whole game with the keyboard alone (Tab to a tile, a leader or a panel
button, Enter or Space to choose it; the board is one Tab stop whose squares
the arrow keys walk; Enter on a square, Enter again to confirm; never a
pointer press), to the final standings, which match the gateway's result;
every move of the seat went through the page."""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

import pytest

from tests.web.helpers import (
    FOCUSED,
    against_a_bot,
    assert_accepted,
    assert_whole_game,
    count_pointer_presses,
    data_keys,
    open_seat,
    pointer_presses,
    press,
    record_moves,
    seat_turns,
    tab_to,
    view,
    views_seen,
)

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser"), pytest.mark.timeout(300)]

#: The whole game, from opening the table to the final standings on screen.
BUDGET_S = 90
COLOURS = ("red", "blue", "green", "black")
#: What a square does once a tile colour, a leader or the catastrophe is picked.
PICKED = {
    "tile": "tigris.place_tile",
    "leader": "tigris.position_leader",
    "catastrophe": "tigris.place_catastrophe",
}
#: A rejection in words, on the board's panel or the page's.
REJECTED = ".zt-msg, [data-testid=move-message].error"
#: A sentence that would tell seat 0 what the other seat drew or discarded.
FOREIGN = re.compile(r"Seat 2 (draws|discards) \d+ (red|blue|green|black)")


def _turn_action(page: Any) -> int:
    status = page.locator("[data-zt=status] .zt-status").inner_text()
    found = re.search(r"action (\d) of 2", status)
    return int(found.group(1)) if found else 0


def _swap_everything(page: Any) -> bool:
    """Open "Swap tiles…", give back every tile in hand, swap. False if no full swap is legal."""
    panel = page.locator("[data-zt=moves]")
    if not panel.locator("details.zt-swap").count():
        return False
    panel.locator("details.zt-swap > summary").click()
    for colour in COLOURS:
        plus = panel.locator(f'[data-key="swap-{colour}-plus"]')
        if not plus.count():
            continue
        for _ in range(int(plus.get_attribute("data-held"))):
            panel.locator(f'[data-key="swap-{colour}-plus"]').click()
    go = panel.locator('[data-key="swap-go"]')
    if go.is_disabled():
        return False
    command = json.loads(go.get_attribute("data-command"))
    assert command["type"] == "tigris.swap_tiles" and sum(command[c] for c in COLOURS) > 0
    go.click()
    return True


def _board_move(page: Any, rng: random.Random, keyboard: bool) -> None:
    """Pick a tile colour, a leader or the catastrophe, then a highlighted square, then confirm."""
    picks = page.locator("button[data-pick]")
    keys = [picks.nth(i).get_attribute("data-pick") for i in range(picks.count())]
    leaders = [k for k in keys if k.startswith("leader:")]
    tiles = [k for k in keys if k.startswith("tile:")]
    if leaders and (rng.random() < 0.35 or not tiles):
        chosen = rng.choice(leaders)
    elif tiles:
        chosen = rng.choice(tiles)
    else:
        chosen = rng.choice(keys)
    pick = page.locator(f'button[data-pick="{chosen}"]').first
    if keyboard:
        pick.focus()
        page.keyboard.press("Space")
    else:
        pick.click()
    expect_pressed = page.locator(f'button[data-pick="{chosen}"][aria-pressed=true]')
    expect_pressed.first.wait_for()
    squares = page.locator("svg.zt-board g.legal[data-command]")
    count = squares.count()
    assert count, f"no square for {chosen}"
    square = squares.nth(rng.randrange(count))
    command = json.loads(square.get_attribute("data-command"))
    kind = chosen.split(":")[0]
    assert command["type"] == PICKED[kind]
    where = square.get_attribute("data-square")
    if keyboard:
        square.focus()
        page.keyboard.press("Enter")
        # The confirmation is asked in words; Enter on the same square confirms.
        page.locator("[data-zt=moves] .zt-confirm-q").wait_for()
        assert where in page.locator("[data-zt=moves] .zt-confirm-q").inner_text()
        page.locator(f'svg.zt-board g.legal.zt-pending[data-square="{where}"]').focus()
        page.keyboard.press("Enter")
    else:
        square.click()
        confirm = page.locator("[data-zt=moves] [data-confirm]")
        assert where in page.locator("[data-zt=moves] .zt-confirm-q").inner_text()
        confirm.click()


def _panel_move(page: Any, rng: random.Random) -> None:
    buttons = page.locator("[data-zt=moves] button[data-command]")
    count = buttons.count()
    assert count, "it is this seat's move, yet nothing can be clicked"
    choices = [buttons.nth(i) for i in range(count)]
    # Support, wars, monuments, treasures, or a pass: any of them.
    rng.choice(choices).click()


def _no_foreign_hand(page: Any, docs: list[dict[str, Any]]) -> None:
    text = page.locator("body").inner_text()
    assert not FOREIGN.search(text), FOREIGN.search(text).group(0)
    assert page.locator("[data-zt=hand]").count() <= 1
    for doc in docs:
        assert doc.get("seat") == 0, "the seat page read another audience's view"


def test_a_whole_game_of_tigris_by_clicking_against_a_bot(page: Any, api: Any) -> None:
    start = time.monotonic()
    table_id, tokens = against_a_bot(api, "tigris")
    docs = views_seen(page, table_id)
    open_seat(page, table_id, tokens[0], "svg.zt-board")
    rng = random.Random(16)
    moves = 0
    for before in seat_turns(page, "[data-zt=moves]", start, BUDGET_S):
        has_board_moves = page.locator("button[data-pick]").count() > 0
        if has_board_moves:
            # Action 2 of a turn mostly swaps the whole hand, which empties the bag
            # soon enough for a test; the rest are moves on the board.
            if not (_turn_action(page) == 2 and rng.random() < 0.8 and _swap_everything(page)):
                _board_move(page, rng, keyboard=moves % 4 == 3)
        else:
            _panel_move(page, rng)
        assert_accepted(page, before, REJECTED)
        moves += 1
        if moves % 8 == 0:
            _no_foreign_hand(page, docs)

    _no_foreign_hand(page, docs)
    final = view(api, table_id)
    assert final["over"] and final["result"]["standings"]
    assert "Game over" in page.get_by_test_id("status").inner_text()
    assert page.locator("[data-zt=status]").inner_text().count("—") == len(final["result"]["standings"])
    assert moves >= 10
    print(f"{moves} moves by clicking in {time.monotonic() - start:.1f}s")
    assert not page.errors, page.errors  # type: ignore[attr-defined]


#: The whole game by keyboard: every control reached with Tab (the board is one
#: Tab stop, its squares walked with the arrow keys), used with Enter or Space.
KEYBOARD_S = 300


def _swap_everything_by_keys(page: Any, rng: random.Random) -> bool:
    """Open "Swap tiles…", give back every tile in hand, swap. False if no full swap is legal."""
    for _ in range(3):
        if not data_keys(page, "[data-zt=moves] details.zt-swap > summary"):
            return False
        if page.locator("[data-zt=moves] details.zt-swap").get_attribute("open") is None:
            tab_to(page, "swap-open")
            page.keyboard.press("Enter")
        if _give_back_every_tile(page, rng):
            break
        # A new version drew the panel afresh in between (the seat's moves changed): again.
    else:
        raise AssertionError("the swap box was redrawn afresh three times")
    go = page.locator('[data-zt=moves] [data-key="swap-go"]')
    if go.is_disabled():
        return False
    command = json.loads(go.get_attribute("data-command"))
    assert command["type"] == "tigris.swap_tiles" and sum(command[c] for c in COLOURS) > 0
    press(page, rng, "swap-go")
    return True


def _give_back_every_tile(page: Any, rng: random.Random) -> bool:
    """Press each colour's + as often as the hand holds it; False if the box was
    closed or the focus lost on the way."""
    for colour in COLOURS:
        key = f"swap-{colour}-plus"
        plus = page.locator(f'[data-zt=moves] [data-key="{key}"]')
        if not plus.count():
            continue
        if not plus.is_visible():
            return False
        tab_to(page, key)
        for _ in range(int(plus.get_attribute("data-held"))):
            # The box redrawn by a press keeps the focus on the same button.
            if page.evaluate(FOCUSED) != key:
                return False
            page.keyboard.press(rng.choice(["Enter", " "]))
    return True


def _one_move_by_keys(page: Any, rng: random.Random) -> str:
    """Keys until one command is sent; returns how it was chosen ("board", "swap" or "panel")."""
    picks = data_keys(page, "[data-zt=moves] button[data-pick], [data-zt=hand] button[data-pick]")
    if picks:
        if _turn_action(page) == 2 and rng.random() < 0.8 and _swap_everything_by_keys(page, rng):
            return "swap"
        leaders = [k for k in picks if k.startswith("sel-leader:")]
        tiles = [k for k in picks if k.startswith("sel-tile:")]
        if leaders and (rng.random() < 0.35 or not tiles):
            chosen = rng.choice(leaders)
        else:
            chosen = rng.choice(tiles or picks)
        press(page, rng, chosen)
        page.locator(f'button[data-key="{chosen}"][aria-pressed=true]').first.wait_for()
        squares = data_keys(page, "svg.zt-board .legal")
        assert squares, f"no square for {chosen}"
        # Picking moved the focus to the first square it may go: walk the board with the arrows.
        assert page.evaluate(FOCUSED) in squares
        for _ in range(rng.randrange(6)):
            page.keyboard.press(rng.choice(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"]))
        where = page.evaluate(FOCUSED)
        assert where in squares
        command = json.loads(page.locator(f'svg.zt-board [data-key="{where}"]').get_attribute("data-command"))
        assert command["type"] == PICKED[chosen.split("-", 1)[1].split(":")[0]]
        page.keyboard.press("Enter")
        # The confirmation is asked in words; Enter on the same square confirms.
        page.locator("[data-zt=moves] .zt-confirm-q").wait_for()
        assert page.evaluate(FOCUSED) == where
        assert data_keys(page, "svg.zt-board .legal.zt-pending") == [where]
        page.keyboard.press("Enter")
        return "board"
    # Support, wars, monuments, treasures, or a pass: any of them.
    commands = data_keys(page, "[data-zt=moves] button[data-command]")
    assert commands, "it is this seat's move, yet nothing can be chosen"
    press(page, rng, rng.choice(commands))
    return "panel"


@pytest.mark.timeout(KEYBOARD_S + 60)
def test_a_whole_game_of_tigris_by_keyboard_against_a_bot(page: Any, api: Any) -> None:
    start = time.monotonic()
    table_id, tokens = against_a_bot(api, "tigris")
    answers = record_moves(page, table_id)
    count_pointer_presses(page)
    open_seat(page, table_id, tokens[0], "svg.zt-board")
    rng = random.Random(61)
    counts = {"board": 0, "swap": 0, "panel": 0}
    moves = 0
    for before in seat_turns(page, "[data-zt=moves]", start, KEYBOARD_S):
        counts[_one_move_by_keys(page, rng)] += 1
        assert_accepted(page, before, REJECTED)
        moves += 1

    assert_whole_game(page, api, table_id, answers)
    assert len(answers.accepted) == moves
    assert counts["board"] >= 10, counts
    print(f"{moves} moves with the keyboard ({counts}) in {time.monotonic() - start:.1f}s")
    assert pointer_presses(page) == 0, "the keyboard game used the mouse"
    assert not page.errors, page.errors  # type: ignore[attr-defined]
