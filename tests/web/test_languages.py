"""The pages speak the browser's language (English, Finnish or Hungarian), switch
on every page, remember the choice, and say a refusal in the page's language."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from shared.infra.launcher import Stack
from tests.web.helpers import move_behind_its_back, open_table

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser"), pytest.mark.timeout(120)]

#: A move button in the generic panel (as tests/web/test_play.py finds them).
MOVE = "section.moves button[data-command]:not([disabled])"
LOCALES = Path(__file__).resolve().parents[2] / "services" / "web" / "static" / "locales"


def catalogue(language: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((LOCALES / f"{language}.json").read_text("utf-8"))
    return loaded


def english_left(text: str, language: str, prefixes: tuple[str, ...]) -> list[str]:
    """The English sentences of the shell and the lobby (those without placeholders,
    translated otherwise) that the page's visible text still shows."""
    english, other = catalogue("en"), catalogue(language)
    return [
        sentence
        for key, sentence in english.items()
        if key.startswith(prefixes)
        and isinstance(sentence, str)
        and "{" not in sentence
        and len(sentence) > 4
        and other[key] != sentence
        and re.search(rf"(?<!\w){re.escape(sentence)}(?!\w)", text)
    ]


@pytest.fixture
def finnish(browser: Any, web: Stack) -> Iterator[Any]:
    """A page in a browser whose languages are Finnish first (then English)."""
    context = browser.new_context(
        base_url=web.api,
        viewport={"width": 1400, "height": 1000},
        locale="fi-FI",
        extra_http_headers={"accept-language": "fi-FI,fi;q=0.9,en;q=0.5"},
    )
    context.set_default_timeout(20_000)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda exc: errors.append(str(exc)))
    opened.errors = errors
    yield opened
    context.close()


def test_the_lobby_follows_the_browser_switches_and_remembers(finnish: Any) -> None:
    page = finnish
    assert page.evaluate("navigator.languages[0]").startswith("fi")
    page.goto("/")
    fi, hu = catalogue("fi"), catalogue("hu")
    expect(page.locator("h1")).to_have_text(fi["lobby.title"])
    expect(page.locator("html")).to_have_attribute("lang", "fi")
    expect(page.get_by_test_id("lobby-language")).to_contain_text("Suomi")
    expect(page.locator("header.top nav")).to_contain_text(fi["nav.tournaments"])
    expect(page.get_by_role("heading", name=fi["lobby.open_heading"])).to_be_visible()
    page.get_by_test_id("live-tables").locator("p, table").first.wait_for()
    shown = page.inner_text("body")
    assert english_left(shown, "fi", ("nav.", "lobby.", "app.", "level.")) == []

    page.get_by_test_id("language").select_option("hu")
    expect(page.locator("h1")).to_have_text(hu["lobby.title"])
    expect(page.locator("html")).to_have_attribute("lang", "hu")
    expect(page.get_by_test_id("language")).to_have_value("hu")
    page.reload()
    expect(page.locator("h1")).to_have_text(hu["lobby.title"])
    expect(page.get_by_test_id("lobby-language")).to_contain_text("Magyar")
    page.get_by_test_id("live-tables").locator("p, table").first.wait_for()
    assert english_left(page.inner_text("body"), "hu", ("nav.", "lobby.", "app.", "level.")) == []

    # Another page keeps the choice: the switcher is the shell's, on every page.
    page.goto("/#/tournaments")
    expect(page.locator("header.top nav")).to_contain_text(hu["nav.organise"])
    expect(page.get_by_test_id("language")).to_have_value("hu")
    assert page.errors == []


def test_a_refusal_is_said_in_finnish(finnish: Any) -> None:
    page = finnish
    page.goto("/")
    form = page.get_by_test_id("open-table")
    form.locator("#open-game").select_option("highcard")
    form.locator("summary").first.click()
    form.locator("#option-deck_size").fill("0")
    opened: list[Any] = []
    page.on("response", lambda r: opened.append(r) if r.url.endswith("/v1/tables") else None)
    form.get_by_role("button", name=catalogue("fi")["lobby.open_submit"]).click()
    alert = form.get_by_role("alert")
    sentence = catalogue("fi")["error.bad_options"]
    expect(alert).to_contain_text(sentence)
    expect(alert).to_contain_text("Pöytää ei avattu")
    assert [r.status for r in opened] == [400]
    assert opened[0].json()["code"] == "bad_options"
    # The API's own message stays English; the page shows the client's sentence instead.
    assert opened[0].json()["message"] not in alert.inner_text()
    assert page.errors == []


def test_a_seat_plays_in_finnish(finnish: Any, api: Any) -> None:
    """The table page's chrome in Finnish (whose turn, the moves panel), and a move
    refused shown in the client's Finnish sentence for its code, not the API's English."""
    page = finnish
    fi = catalogue("fi")
    table_id, tokens = open_table(api, "highcard", 2)
    # No feed: the page keeps offering the move played behind its back (as in test_play.py).
    page.route("**/feed*", lambda route: route.abort())
    page.goto(f"/#/table/{table_id}/seat/0?token={tokens[0]}")
    expect(page.locator("html")).to_have_attribute("lang", "fi")
    expect(page.get_by_test_id("status")).to_contain_text("Pelaat: Paikka 1")
    expect(page.get_by_role("heading", name=fi["table.your_move"])).to_be_visible()
    page.locator(MOVE).first.wait_for()
    assert english_left(page.inner_text("body"), "fi", ("nav.", "table.", "moves.")) == []

    move_behind_its_back(api, table_id, tokens[0])
    refused: list[Any] = []
    page.on("response", lambda r: refused.append(r) if r.url.endswith("/commands") else None)
    page.locator(MOVE).last.click()
    message = page.get_by_test_id("move-message")
    expect(message).to_contain_text("Ei hyväksytty:")
    body = refused[0].json()
    expect(message).to_have_text(fi["refusal.not_accepted"].replace("{reason}", fi[f"error.{body['code']}"]))
    assert body["message"] not in message.inner_text()
    assert page.errors == []
