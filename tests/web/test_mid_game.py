"""Every hosted game in a mid-game position (random legal moves through the
API), seen in the browser:

* a spectator's page holds no fact of any seat's hand, and a seat's page none
  of another seat's. The facts are the strings a seat's own view and feed
  carry that the other audience's view and feed do not (card and token
  names: numbers such as tile counts would match any page); they must not be
  in the page's document, neither as data (quoted) nor, for names of several
  words, in words. The decisive part: the page asks for nothing but its own
  audience's documents (no request carries another seat's token, none
  carries a token in its URL), so it cannot hold what it was never sent;
* a screenshot of each game's table, from the seat to move, is taken on every
  run; it is saved under docs/screenshots/<game>.png (the README shows them)
  when ``ZIGGURAT_SCREENSHOTS=docs`` (``make screenshots``), else next to the
  test's temporary files, so a test run leaves the tree clean.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from shared.games.conan.loader import load_packs
from tests.web.helpers import HOSTED, auth, names, open_table, photograph, play_random, view

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser"), pytest.mark.timeout(240)]

#: Random moves to a position with something on the board and in every hand.
MOVES = {"tigris": 40, "tigris-cards": 30, "catan": 70, "catan-ck": 70, "conan": 40}


class MidGame:
    """Each game's mid-game table, made the first time a test asks for it (so a
    game that cannot be set up fails its own tests only)."""

    def __init__(self, api: httpx.Client) -> None:
        self.api = api
        self.made: dict[str, tuple[str, list[str]]] = {}
        #: The table's version after the moves: every audience is read as of it,
        #: so no snapshot trails the projection (a fact made public by a later
        #: event would otherwise look like one seat's secret).
        self.version: dict[str, int] = {}

    def __getitem__(self, game: str) -> tuple[str, list[str]]:
        if game not in self.made:
            table_id, tokens = open_table(self.api, game, HOSTED[game])
            last = play_random(self.api, table_id, tokens, MOVES[game], seed=list(HOSTED).index(game) + 7)
            self.made[game] = (table_id, tokens)
            self.version[game] = last["version"]
        return self.made[game]


@pytest.fixture(scope="module")
def tables(api: httpx.Client) -> MidGame:
    return MidGame(api)


def feed(api: httpx.Client, table_id: str, token: str | None, upto: int) -> list[Any]:
    """The audience's feed up to version ``upto`` (or until it goes quiet, when the
    last events are not this audience's). Quiet means two connections in a row,
    the second resuming from the last id, that bring nothing for 3 s: a single
    quiet spell, on a loaded machine, could be a stall mid-replay, and a feed cut
    short makes a fact made public later look like one seat's secret."""
    events: list[Any] = []
    headers = auth(token) if token else {}
    deadline = time.monotonic() + 90
    quiet = 0
    while quiet < 2:
        assert time.monotonic() < deadline, f"the feed of {token or 'the spectator'} never went quiet"
        sent = {**headers, **({"last-event-id": str(events[-1]["version"])} if events else {})}
        kind = ""
        got = len(events)
        try:
            with api.stream(
                "GET", f"/v1/tables/{table_id}/feed", headers=sent, timeout=httpx.Timeout(10, read=3.0)
            ) as r:
                for line in r.iter_lines():
                    if line.startswith("event: "):
                        kind = line[7:]
                    elif line.startswith("data: ") and kind == "game-event":
                        events.append(json.loads(line[6:]))
                        if events[-1]["version"] >= upto:
                            return events
                    elif line.startswith("data: ") and kind == "end":
                        return events
        except httpx.ReadTimeout:
            pass
        # A cut-off subscriber (event: reconnect) or a quiet one resumes where it was.
        quiet = quiet + 1 if len(events) == got else 0
    return events


def spoken(text: str) -> str:
    """A name as a page may write it: ``bribed_guards`` and ``Bribed Guards`` are one fact."""
    return text.replace("_", " ").replace("-", " ").lower()


class Known:
    """What each audience's documents say, and which name each id stands for."""

    def __init__(self) -> None:
        #: An id and the name some document gives it are one fact: a seat whose feed
        #: says it drew ``whispers`` knows the card its page calls "Whispers at Court",
        #: though no document of its own (the card left its hand) writes the name.
        #: Conan's views name cards by id only: their names are the pack's words.
        self.named: dict[str, str] = pack_names()

    def of(self, api: httpx.Client, table_id: str, token: str | None, version: int = 0) -> set[str]:
        doc = view(api, table_id, token, version)
        documents = [doc, feed(api, table_id, token, doc["version"])]
        for document in documents:
            self.named.update(pairs(document))
        return {spoken(s) for s in set().union(*(names(d) for d in documents))}

    def widened(self, facts: set[str]) -> set[str]:
        return facts | {self.named[f] for f in facts if f in self.named}


def pack_names() -> dict[str, str]:
    """Every id of Conan's bundled packs with its English name (as the page names it), spoken."""
    found: dict[str, str] = {}
    for pack in load_packs().values():
        for section in msgspec.to_builtins(pack.words["en"]).values():
            for key, said in section.items():
                found[spoken(key)] = spoken(said if isinstance(said, str) else said["name"])
    return found


def pairs(node: Any) -> dict[str, str]:
    """The ``{"id": ..., "name": ...}`` objects of a document, spoken."""
    found: dict[str, str] = {}
    if isinstance(node, dict):
        if isinstance(node.get("id"), str) and isinstance(node.get("name"), str):
            found[spoken(node["id"])] = spoken(node["name"])
        for v in node.values():
            found.update(pairs(v))
    elif isinstance(node, list):
        for v in node:
            found.update(pairs(v))
    return found


def unknown(facts: set[str], known_to: set[str]) -> set[str]:
    """The facts an audience cannot know: not in its documents, not even inside
    another of its strings (a card named "Marching Orders" is no secret to
    someone shown ``aq_marching_orders``)."""
    return {f for f in facts - known_to if not any(f in k for k in known_to)}


def leaks(content: str, facts: set[str]) -> list[str]:
    """The facts (spoken) the document shows, quoted as data or (names of several words)
    in words, each with the text around it. In words, a name counts as whole words:
    the card "Victory Point" is not named by a label "victory points on the table"."""
    lower = content.lower()
    data = spoken(content)
    found = []
    for fact in facts:
        if len(fact) < 3 or fact.replace(" ", "").isdigit():
            continue
        named = re.search(rf"(?<!\w){re.escape(fact)}(?!\w)", lower) if " " in fact else None
        at = data.find(f'"{fact}"')
        at = at if at >= 0 else data.find(f"&quot;{fact}&quot;")
        at = at if at >= 0 else (named.start() if named else -1)
        if at >= 0:
            # Where it is, so a failure says which part of the page shows it.
            found.append(f"{fact!r} in …{content[max(0, at - 120) : at + len(fact) + 50]}…")
    return found


def requests_of(page: Any) -> list[tuple[str, str | None]]:
    seen: list[tuple[str, str | None]] = []
    page.on("request", lambda r: seen.append((r.url, r.headers.get("authorization"))))
    return seen


def settle(page: Any) -> None:
    page.locator("[data-testid=board] *").first.wait_for()
    page.get_by_test_id("feed-state").get_by_text("live").wait_for()
    page.wait_for_timeout(300)


@pytest.mark.parametrize("game", list(HOSTED))
def test_no_page_holds_another_audiences_hidden_facts(
    page: Any, api: httpx.Client, tables: MidGame, game: str
) -> None:
    table_id, tokens = tables[game]
    known = Known()
    public = known.of(api, table_id, None, tables.version[game])
    seats = [known.of(api, table_id, t, tables.version[game]) for t in tokens]
    public, seats = known.widened(public), [known.widened(s) for s in seats]
    secret = [unknown(mine, public) for mine in seats]
    assert any(secret), f"{game}: the seats' views hold nothing the spectator's does not"

    sent = requests_of(page)
    page.goto(f"/#/table/{table_id}")
    settle(page)
    assert leaks(page.content(), set().union(*secret)) == []
    for url, authorization in sent:
        assert authorization is None, url
        assert not any(t in url for t in tokens), url

    for seat, token in enumerate(tokens):
        page.goto("/#/")
        sent.clear()
        page.goto(f"/#/table/{table_id}/seat/{seat}?token={token}")
        settle(page)
        others = set().union(*(unknown(s, seats[seat]) for i, s in enumerate(secret) if i != seat))
        assert leaks(page.content(), others) == [], f"seat {seat}"
        for url, authorization in sent:
            assert authorization in (None, f"Bearer {token}"), url
            assert not any(t in url for t in tokens), url
    assert page.errors == []


@pytest.mark.parametrize("game", list(HOSTED))
def test_a_mid_game_screenshot_of_every_game(
    page: Any, api: httpx.Client, tables: MidGame, game: str, tmp_path: Path
) -> None:
    table_id, tokens = tables[game]
    doc = view(api, table_id)
    seat = doc["actors"][0] if doc["actors"] else 0
    page.goto(f"/#/table/{table_id}/seat/{seat}?token={tokens[seat]}")
    settle(page)
    photograph(page, tmp_path, game)
