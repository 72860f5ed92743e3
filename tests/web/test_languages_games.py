"""Each game's page in Finnish and in Hungarian: the board, the panels and the
event log say nothing in English, a game's own refusal is said in Finnish, and
one board per language is photographed for docs/screenshots.

English left is found by reading the page's visible text against the English
catalogue: its words are the English catalogue's words that the page's own
catalogue never uses. So a proper noun or a word the languages share (Ziggurat,
Tigris, a name of the content pack) counts only if the translation itself
avoids it, and no list of allowed strings is tuned to pass; digits and board
coordinates (A1, H4) are no words. A content pack's words (Conan's provinces,
kingdoms, cards and their texts, adventures, objectives, map labels) are a
vocabulary of their own in each language (the pack's ``i18n/<code>.yaml``,
English its own files), so a pack word left in English on a Finnish page is
English left like any other. Names the view sends as data (the strings of
the seat's view that hold a capital letter or a space, unlike identifiers: a
seat's name) are left out of the text first. A sentence a renderer forgot to
put in the catalogue is still caught when it shares a word with any English
sentence (which every English sentence of three words or more does: "the",
"and", "of")."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from playwright.sync_api import expect

from shared.games.conan.loader import load_packs
from shared.infra.launcher import Stack
from tests.web.helpers import HOSTED, auth, open_table, photograph, play_random, strings, view

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser"), pytest.mark.timeout(180)]

LOCALES = Path(__file__).resolve().parents[2] / "services" / "web" / "static" / "locales"
#: Random moves to a position with pieces on the board, a hand and a log (as test_mid_game.py).
MOVES = {"tigris": 40, "tigris-cards": 30, "catan": 70, "catan-ck": 70, "conan": 40}
#: Letters only (ä, ő included), so "H4" and "12" hold no word.
WORD = re.compile(r"[^\W\d_]{3,}")
#: An identifier in capitals (a die face, a fate: ``HIT_CONAN``), not a name.
CODE = re.compile(r"[A-Z][A-Z_]*")
PLACEHOLDER = re.compile(r"\{\w+\}")
LANGUAGE_TAG = {"en": "en-GB", "fi": "fi-FI", "hu": "hu-HU"}


@cache
def catalogue(language: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((LOCALES / f"{language}.json").read_text("utf-8"))
    return loaded


@cache
def vocabulary(language: str) -> frozenset[str]:
    """Every word (three letters or more, placeholders aside) the catalogue's sentences use,
    and the content packs' words in that language."""
    found: set[str] = set(pack_vocabulary(language))
    for entry in catalogue(language).values():
        for text in [entry] if isinstance(entry, str) else entry.values():
            found |= {w.lower() for w in WORD.findall(PLACEHOLDER.sub(" ", text))}
    return frozenset(found)


@cache
def pack_vocabulary(language: str) -> frozenset[str]:
    """Every word of Conan's bundled packs' words in ``language`` (``en``: the packs' own
    names and texts): the page names the pack's things in these, as the map asset serves them."""
    found: set[str] = set()
    for pack in load_packs().values():
        words = pack.words.get(language)
        found |= {w.lower() for s in strings(msgspec.to_builtins(words)) for w in WORD.findall(s)}
    return frozenset(found)


def data_names(api: httpx.Client, table_id: str, token: str) -> list[str]:
    """The display names the seat's view carries (a seat's name): strings with a capital
    letter or a space, longest first. A code in capitals (a die face, ``SHIELD``) is no
    name: the page words it. Conan's content pack sends no names in its views: its
    words are the pack's, in every language (:func:`pack_vocabulary`)."""
    found = strings(view(api, table_id, token))
    named = {s for s in found if WORD.search(s) and (" " in s or s != s.lower()) and not CODE.fullmatch(s)}
    return sorted(named, key=len, reverse=True)


def english_left(text: str, language: str) -> list[str]:
    """The English words in ``text``: the English catalogue's that ``language``'s never uses,
    each with the words around it, so a failure says where."""
    english = vocabulary("en") - vocabulary(language)
    left = []
    for match in WORD.finditer(text):
        if match.group().lower() in english:
            left.append(text[max(0, match.start() - 40) : match.end() + 40].replace("\n", " | "))
    return left


def test_the_rule_finds_english_and_spares_the_translation() -> None:
    # The check must catch an English sentence and pass its translations, or it proves nothing.
    en, fi, hu = catalogue("en"), catalogue("fi"), catalogue("hu")
    assert english_left(en["tigris.log_passed"].format(name="Paikka 1"), "fi")
    assert english_left(en["tigris.hint_pick"], "hu")
    assert english_left(fi["tigris.hint_pick"] + " " + fi["tigris.now_over"], "fi") == []
    assert english_left(hu["tigris.hint_pick"] + " H4 12", "hu") == []
    # A content pack's words count as the language's, and its English ones as English.
    assert english_left("The Tower of the Elephant", "fi") and english_left("Shield Wall", "hu")
    assert english_left("Norsun torni · Kilpimuuri · Läntinen valtameri", "fi") == []
    assert english_left("Az elefánt tornya · Pajzsfal · Nyugati-óceán", "hu") == []


class MidGame:
    """Each game's mid-game table, made the first time a test asks for it."""

    def __init__(self, api: httpx.Client) -> None:
        self.api = api
        self.made: dict[str, tuple[str, list[str]]] = {}

    def __getitem__(self, game: str) -> tuple[str, list[str]]:
        if game not in self.made:
            table_id, tokens = open_table(self.api, game, HOSTED[game])
            play_random(self.api, table_id, tokens, MOVES[game], seed=list(MOVES).index(game) + 11)
            self.made[game] = (table_id, tokens)
        return self.made[game]


@pytest.fixture(scope="module")
def tables(api: httpx.Client) -> MidGame:
    return MidGame(api)


@pytest.fixture
def speaking(browser: Any, web: Stack) -> Iterator[Any]:
    """``speaking(language)``: a page in a browser whose first language is that one."""
    contexts: list[Any] = []

    def open_in(language: str) -> Any:
        tag = LANGUAGE_TAG[language]
        context = browser.new_context(
            base_url=web.api,
            viewport={"width": 1400, "height": 1000},
            locale=tag,
            extra_http_headers={"accept-language": f"{tag},{language};q=0.9"},
        )
        contexts.append(context)
        # A mid-game page on a shared, loaded machine: generous waits (no timing is asserted).
        context.set_default_timeout(40_000)
        opened = context.new_page()
        opened.errors = []
        opened.on("pageerror", lambda exc: opened.errors.append(str(exc)))
        return opened

    yield open_in
    for context in contexts:
        context.close()


def seat_page(page: Any, api: httpx.Client, table_id: str, tokens: list[str]) -> int:
    """The page of the seat to move, once its board, panels and log are drawn; its seat."""
    doc = view(api, table_id)
    seat = doc["actors"][0] if doc["actors"] else 0
    page.goto(f"/#/table/{table_id}/seat/{seat}?token={tokens[seat]}")
    page.locator("[data-testid=board] *").first.wait_for()
    page.locator(".log-list li").first.wait_for()
    page.get_by_test_id("feed-state").locator("xpath=self::*[contains(@class,'live')]").wait_for()
    page.wait_for_timeout(300)
    return seat


def shown(page: Any) -> str:
    """What a player reads of the table: its head, the board, the panels and the log."""
    return str(page.inner_text(".table-head")) + "\n" + str(page.inner_text(".table-grid"))


@pytest.mark.parametrize("language", ["fi", "hu"])
@pytest.mark.parametrize("game", list(MOVES))
def test_a_games_page_has_no_english_left(
    speaking: Any, api: httpx.Client, tables: MidGame, game: str, language: str
) -> None:
    table_id, tokens = tables[game]
    page = speaking(language)
    seat = seat_page(page, api, table_id, tokens)
    expect(page.locator("html")).to_have_attribute("lang", language)
    text = shown(page)
    for name in data_names(api, table_id, tokens[seat]):
        # As drawn: a map label may be upper-cased by its style, or broken over lines.
        text = re.sub(r"\s+".join(map(re.escape, name.split())), " ", text, flags=re.IGNORECASE)
    assert len(page.locator(".log-list li").all()) > 3, "the log shows the game's events"
    assert english_left(text, language) == []
    assert page.errors == []


def test_a_games_refusal_is_said_in_finnish(speaking: Any, api: httpx.Client) -> None:
    """A rule of the game refuses a move: the page says the client's Finnish sentence for
    the rule's code, not the API's English message. The seat's two actions are played
    behind the page's back (no feed), so the move it still offers is no longer its turn;
    the request goes without its expected version, so the rules answer, not the version check."""
    table_id, tokens = open_table(api, "tigris", 2)
    page = speaking("fi")
    page.route("**/feed*", lambda route: route.abort())

    def unversioned(route: Any) -> None:
        body = json.loads(route.request.post_data or "{}")
        body.pop("expected_version", None)
        route.continue_(post_data=json.dumps(body))

    page.route("**/commands", unversioned)
    seat = view(api, table_id)["actors"][0]
    page.goto(f"/#/table/{table_id}/seat/{seat}?token={tokens[seat]}")
    swap = page.locator("[data-key=swap-open]")
    swap.wait_for()
    played = 0  # the second swap is read from a view that holds the first (a loaded projector trails)
    for _ in range(2):
        mine = view(api, table_id, tokens[seat], played)
        hand = dict(zip(("red", "blue", "green", "black"), mine["view"]["hand"], strict=True))
        r = api.post(
            f"/v1/tables/{table_id}/commands",
            json={"command": {"type": "tigris.swap_tiles", **hand}, "expected_version": mine["version"]},
            headers=auth(tokens[seat]),
        )
        assert r.status_code == 200, r.text
        played = r.json()["version"]
    refused: list[Any] = []
    page.on("response", lambda r: refused.append(r) if r.url.endswith("/commands") else None)
    swap.click()
    page.locator("[data-key=swap-red-plus], [data-key=swap-blue-plus]").first.click()
    page.locator("[data-key=swap-go]").click()
    message = page.get_by_test_id("move-message")
    expect(message).to_contain_text("Ei hyväksytty:")
    body = refused[0].json()
    assert body["code"] == "not_your_turn", body
    fi = catalogue("fi")
    expect(message).to_have_text(fi["refusal.not_accepted"].replace("{reason}", fi["rule.not_your_turn"]))
    assert body["message"] not in message.inner_text()
    assert page.errors == []


def test_the_switcher_turns_a_games_page_to_another_language(
    speaking: Any, api: httpx.Client, tables: MidGame
) -> None:
    """On a game's page the shell's switcher reloads it in the language chosen: the
    board's panels and log follow, and the choice is kept for the next page."""
    table_id, tokens = tables["tigris-cards"]
    page = speaking("fi")
    seat_page(page, api, table_id, tokens)
    fi, hu = catalogue("fi"), catalogue("hu")
    expect(page.locator("[data-zt=status] h3")).to_have_text(fi["tigris.now"])
    page.get_by_test_id("language").select_option("hu")
    expect(page.locator("html")).to_have_attribute("lang", "hu")
    expect(page.locator("[data-zt=status] h3")).to_have_text(hu["tigris.now"])
    page.locator(".log-list li").first.wait_for()
    assert english_left(shown(page), "hu") == []
    page.goto("/#/")
    expect(page.locator("h1")).to_have_text(hu["lobby.title"])
    assert page.errors == []


@pytest.mark.parametrize("language", ["en", "fi", "hu"])
@pytest.mark.parametrize("game", ["tigris", "conan"])
def test_one_board_per_language_is_photographed(
    speaking: Any, api: httpx.Client, tables: MidGame, game: str, language: str, tmp_path: Path
) -> None:
    """docs/screenshots/<game>-<language>.png when ZIGGURAT_SCREENSHOTS=docs (make
    screenshots), else beside the test's temporary files, so a run leaves the tree clean:
    Tigris, and Conan, whose content pack has its own words in each language."""
    table_id, tokens = tables[game]
    page = speaking(language)
    seat_page(page, api, table_id, tokens)
    photograph(page, tmp_path, f"{game}-{language}")
