"""The lobby's "open a table against bots" with a level per bot seat (issue 25): a
table of the card game against a ``hard`` bot, opened from the page, whose bot
the platform process's runner then plays at that level."""

from __future__ import annotations

import random
import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from playwright.sync_api import expect

from shared.infra.launcher import Stack
from shared.kernel.legal_groups import expand
from tests.web.helpers import auth

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser"), pytest.mark.timeout(180)]


def _bot_moves(stack: Stack, level: str) -> float:
    text = httpx.get(stack.metrics_urls()["platform"], timeout=10).text
    found = re.search(rf'^ziggurat_bot_move_cpu_seconds_count\{{level="{level}"\}} (\S+)$', text, re.M)
    return float(found.group(1)) if found else 0.0


def test_a_table_against_a_hard_bot_from_the_lobby(page: Any, api: httpx.Client, web: Stack) -> None:
    before = _bot_moves(web, "hard")
    handed: list[Any] = []
    page.on(
        "request",
        lambda r: handed.append(r.post_data_json) if r.method == "POST" and r.url.endswith("/bots") else None,
    )
    page.goto("/")
    form = page.get_by_test_id("open-table")
    form.locator("#open-game").select_option("tigris-cards")
    form.locator("#open-seats").fill("2")
    form.locator("#open-role-0").select_option("you")
    assert form.locator("#open-level-0").is_hidden(), "a person's seat has no level to pick"
    form.locator("#open-role-1").select_option("bot")
    assert form.locator("#open-level-1").input_value() == "medium"
    form.locator("#open-level-1").select_option("hard")
    form.get_by_role("button", name="Open the table").click()
    page.wait_for_url(re.compile(r"#/table/\w+/seat/0\?token="))
    fragment = urlsplit(urlsplit(page.url).fragment)
    table_id = fragment.path.split("/")[2]
    token = parse_qs(fragment.query)["token"][0]
    assert [body["levels"] for body in handed] == [["hard"]]
    about = api.get(f"/v1/tables/{table_id}/about").json()
    assert (about["bots"], about["bot_levels"]) == ([1], ["hard"])

    # Seat 0 plays through the API; the bot's turns are the runner's, at the hard level.
    rng = random.Random(25)
    version, bot_turns = 0, 0
    while bot_turns < 2:
        r = api.get(f"/v1/tables/{table_id}/view", headers=auth(token), params={"min_version": version + 1})
        assert r.status_code == 200, r.text
        doc = r.json()
        assert not doc["over"]
        if 0 not in doc["actors"]:
            bot_turns += 1
            version = doc["version"]
            continue
        command = rng.choice(expand(doc["legal"]))
        body = {"command": command, "expected_version": doc["version"]}
        r = api.post(f"/v1/tables/{table_id}/commands", json=body, headers=auth(token))
        assert r.status_code == 200, r.text
        version = r.json()["version"]
    api.get(f"/v1/tables/{table_id}/view", headers=auth(token), params={"min_version": version + 1})
    assert _bot_moves(web, "hard") >= before + 2
    page.goto("/")
    row = page.get_by_test_id("live-tables").locator(f"tr[data-table='{table_id}']")
    expect(row).to_contain_text("Seat 2 (bot) · hard")
    assert page.errors == []


def test_an_organiser_registers_a_bot_entrant_at_a_level(page: Any, api: httpx.Client) -> None:
    page.goto("/#/organise")
    form = page.get_by_test_id("create-tournament")
    form.locator("#t-name").fill("Levels cup")
    form.locator("#t-game").select_option("tigris-cards")
    form.locator("#t-rounds").fill("1")
    form.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url(re.compile(r"#/tournament/[\w-]+/organise\?token="))
    tid = re.search(r"#/tournament/([\w-]+)/organise", page.url).group(1)
    register = page.get_by_test_id("register")
    for name, kind, level in (
        ("Plain one", "bot", None),  # the level as the form first offers it
        ("Hard one", "bot", "hard"),
        ("Ada", "human", None),
    ):
        register.locator("#p-name").fill(name)
        register.locator("#p-kind").select_option(kind)
        if kind == "human":
            assert register.locator("#p-level").is_hidden(), "a person's entry has no level to pick"
        elif level is not None:
            register.locator("#p-level").select_option(level)
        register.get_by_role("button", name="Register").click()
        page.get_by_test_id("organiser-message").get_by_text(f"{name} is registered.").wait_for()
    lines = api.get(f"/v1/tournaments/{tid}/standings").json()["lines"]
    assert {line["line"]["name"]: line["line"]["level"] for line in lines} == {
        "Hard one": "hard",
        "Plain one": "medium",
        "Ada": None,
    }
    assert page.errors == []
