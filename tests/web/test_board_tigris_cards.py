"""Euphrates & Tigris, the card game, in the browser: a whole game played from
a seat link against a bot, once with the keyboard alone (Tab to a card in
hand, a leader or a panel button, Space or Enter to choose it, the arrow keys
between the highlighted places on the table, Enter to place, Enter again to
confirm) and once with the mouse alone (a card, a highlighted place, Confirm),
to the final standings, which match the gateway's result; every move of the
seat went through the page.

The game is the short variant a two-seat table allows: 120 of the 185 cards
leave the game unseen after dealing (``two_player_removal``), so the draw pile
runs out after about 45 moves of the seat instead of about 150."""

from __future__ import annotations

import json
import random
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
)

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser"), pytest.mark.timeout(300)]

SHORT = {"two_player_removal": 120}
BUDGET_S = 240
#: A rejection in words, on the board's panel or the page's.
REJECTED = ".zt-msg, [data-testid=move-message].error"


def _press(page: Any, rng: random.Random, key: str, keyboard: bool) -> None:
    """Activate the control with this ``data-key``: Tab to it and Enter or Space, or a click."""
    if keyboard:
        press(page, rng, key)
    else:
        page.locator(f"[data-key={json.dumps(key)}]").click()


def _one_move(page: Any, rng: random.Random, keyboard: bool) -> None:
    """Keys or clicks until one command is sent."""
    box = page.locator("[data-zt=moves]")
    for _ in range(12):
        if box.locator("[data-confirm]").count():
            question = box.locator(".zt-confirm-q").inner_text()
            assert question.endswith("?"), question
            # Enter on the chosen place again confirms; else the Confirm button.
            pending = data_keys(page, "svg.zt-board .legal.zt-pending")
            if keyboard and page.evaluate(FOCUSED) in pending:
                page.keyboard.press("Enter")
            else:
                _press(page, rng, "confirm", keyboard)
            return
        options = data_keys(page, "[data-zt=moves] button[data-option]")
        if options:
            _press(page, rng, rng.choice(options), keyboard)
            continue
        if page.locator("button[data-pick][aria-pressed=true]").count():
            places = data_keys(page, "svg.zt-board .legal")
            assert places, "a card, leader or catastrophe is picked, yet no place is highlighted"
            if keyboard:
                # Picking moved the focus to the first place it may go: walk the table with the arrows.
                assert page.evaluate(FOCUSED) in places
                for _ in range(rng.randrange(4)):
                    page.keyboard.press(rng.choice(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"]))
                assert page.evaluate(FOCUSED) in places
                page.keyboard.press("Enter")
            else:
                page.locator(f"svg.zt-board .legal[data-key={json.dumps(rng.choice(places))}]").click()
            continue
        picks = data_keys(page, "[data-zt=moves] button[data-pick], [data-zt=hand] button[data-pick]")
        commands = data_keys(page, "[data-zt=moves] button[data-command]")
        if not picks and not commands:
            # The page is between two versions of the view: look again.
            page.wait_for_timeout(250)
            continue
        if picks and (not commands or rng.random() < 0.85):
            _press(page, rng, rng.choice(picks), keyboard)
            continue
        # An offer to answer, cards to commit to a conflict, a conflict to resolve first.
        _press(page, rng, rng.choice(commands), keyboard)
        return
    raise AssertionError(f"it is this seat's move, yet no command after several steps: {box.inner_text()}")


@pytest.mark.parametrize("keyboard", [True, False], ids=["keyboard", "mouse"])
def test_a_whole_game_of_the_card_game(page: Any, api: Any, keyboard: bool) -> None:
    start = time.monotonic()
    table_id, tokens = against_a_bot(api, "tigris-cards", SHORT)
    answers = record_moves(page, table_id)
    if keyboard:
        count_pointer_presses(page)
    open_seat(page, table_id, tokens[0], "svg.zt-board")
    rng = random.Random(16)
    moves = 0
    for before in seat_turns(page, "[data-zt=moves]", start, BUDGET_S):
        _one_move(page, rng, keyboard)
        assert_accepted(page, before, REJECTED)
        moves += 1

    final = assert_whole_game(page, api, table_id, answers)
    # The board's own panel lists the standings too.
    status = page.locator("[data-zt=status]").inner_text()
    for standing in final["result"]["standings"]:
        assert f"{standing['place']}. Seat {standing['seat'] + 1} — {standing['score']}" in status, status
    assert len(answers.accepted) == moves
    how = "with the keyboard" if keyboard else "by clicking"
    print(f"{moves} moves {how} in {time.monotonic() - start:.1f}s")
    if keyboard:
        assert pointer_presses(page) == 0, "the keyboard game used the mouse"
    assert not page.errors, page.errors  # type: ignore[attr-defined]
