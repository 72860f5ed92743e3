"""A finished table's replay: step, jump and play through it, and the fairness
check shown with the seed's commitment and the revealed seed."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.web.helpers import give_to_bots, open_table, wait_over

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser"), pytest.mark.timeout(180)]


def shown_version(page: Any) -> int:
    return int(page.get_by_test_id("board").get_attribute("data-version"))


def step_text(page: Any) -> str:
    return page.get_by_test_id("replay-step").inner_text()


def wait_version(page: Any, version: int) -> None:
    page.wait_for_function(
        f"() => document.querySelector('[data-testid=board]').dataset.version === '{version}'"
    )


def test_a_replay_steps_jumps_plays_and_says_the_game_was_fair(page: Any, api: httpx.Client) -> None:
    table_id, tokens = open_table(api, "highcard", 3, {"hand_size": 4})
    give_to_bots(api, table_id, tokens)
    final = wait_over(api, table_id)
    log = api.get(f"/v1/tables/{table_id}/log").json()
    versions = [e["version"] for e in log["events"]]

    page.goto(f"/#/replay/{table_id}")
    verdict = page.get_by_test_id("verdict")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=verdict]')?.textContent.startsWith('Fair')"
    )
    assert "Fair" in verdict.inner_text()
    fairness = page.get_by_test_id("fairness")
    assert page.get_by_test_id("commitment").inner_text() == final["commitment"]
    assert page.get_by_test_id("seed").inner_text() == final["seed"]
    assert "yes" in fairness.inner_text()

    # It opens at the first step: the table as it opened.
    page.wait_for_function("() => document.querySelector('[data-testid=board]').dataset.version")
    assert step_text(page).startswith(f"Step 1 of {len(versions)}")
    first = shown_version(page)
    assert first < final["version"]

    # Step forward until the board changes, and back again.
    page.get_by_test_id("replay-forward").click()
    assert step_text(page).startswith("Step 2 ")
    for _ in range(len(versions)):
        if shown_version(page) != first:
            break
        page.get_by_test_id("replay-forward").click()
        page.wait_for_timeout(50)
    moved = shown_version(page)
    assert moved > first
    page.get_by_test_id("replay-back").click()
    page.get_by_test_id("replay-first").click()
    wait_version(page, first)

    # Jump: to the end with the slider (keyboard End), then to the start with the button.
    page.get_by_test_id("replay-slider").focus()
    page.keyboard.press("End")
    wait_version(page, final["version"])
    assert step_text(page).startswith(f"Step {len(versions)} of {len(versions)}")
    assert "The game ends" in page.locator(".log-list li.current").inner_text()
    page.get_by_test_id("replay-first").click()
    wait_version(page, first)

    # Play: the steps advance by themselves.
    page.get_by_test_id("replay-play").click()
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=replay-step]').textContent.startsWith('Step 1 ')"
    )
    page.get_by_test_id("replay-play").click()
    assert page.errors == []


def test_a_live_table_has_no_replay_yet(page: Any, api: httpx.Client) -> None:
    table_id, _ = open_table(api, "highcard", 2)
    page.goto(f"/#/replay/{table_id}")
    page.get_by_text("replays open when it is over").wait_for()
    assert api.get(f"/v1/tables/{table_id}/verify").json()["code"] == "game_not_over"
