"""Catan: Cities & Knights in the browser: a whole game played from a seat link
by clicking legal moves on the board (corners, edges, hexes, knights; a knight's
move is two clicks and a confirmation) and in the side panel (roll, end turn,
improvements, progress cards, answers to offers, the card picker of a discard),
some of them with the keyboard alone, against the other seats played through
the API; and the seat page never holds a fact of another seat's hand.

And the same whole game with the keyboard alone: Tab to a corner, an edge, a
hex, a knight or a button, Enter or Space to use it; a move of several steps
moves the focus on to the next place to choose; a discard is filled and sent
from the keyboard; never a pointer press. Both games check that the standings
on the page are the gateway's result and that the audit log's commands of the
page's seat are exactly those the page sent.

The game is short: 3 seats, and 6 points to win (``points_to_win``; the game's
own is 13). Every seat opens with 3 points (a settlement and a city), so any
smaller target ends the game before much is built; 6 takes some cities,
settlements, improvements or a Defender of Catan, and a game of 30 to 60
rounds, which the page plays in well under a minute.
"""

from __future__ import annotations

import json
import random
import threading
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from shared.games.catan.cards import DECKS, DEV_DECK
from shared.kernel.legal_groups import expand
from tests.web.helpers import (
    NotReached,
    assert_every_move_through_the_page,
    assert_final_standings_shown,
    auth,
    count_pointer_presses,
    open_table,
    pointer_presses,
    record_moves,
    strings,
    tab_to,
    view,
)

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser"), pytest.mark.timeout(300)]

SEATS = 3
TARGET = 6
OPTIONS = {"points_to_win": TARGET}
#: The whole game, from opening the table to the final standings on screen
#: (by mouse or by keyboard): most games take 20 to 70 s, a long one (40 rounds
#: and more) several minutes on a loaded machine.
BUDGET_S = 540
#: A rejection in words, on the board's panel or the page's.
REJECTED = ".catan-error, [data-testid=move-message].error"
#: A rejection that only says another seat moved first (simultaneous decisions).
#: A move on an older version refused: the client's own sentence for stale_version (the API's stays English).
RACE = json.loads((Path(__file__).resolve().parents[2] / "services/web/static/locales/en.json").read_text())[
    "error.stale_version"
]

#: What the page's seat prefers, most wanted first; the second number is how
#: often it takes that move when it could also end its turn.
PREFER = [
    ("catan.build_city", 1.0),
    ("catan.build_settlement", 1.0),
    ("catan.buy_improvement", 0.9),
    ("catan.roll_dice", 1.0),
    ("catan.build_knight", 0.5),
    ("catan.promote_knight", 0.5),
    ("catan.activate_knight", 0.9),
    ("catan.build_wall", 0.4),
    ("catan.move_robber", 1.0),
    ("catan.chase_robber", 0.7),
    ("catan.choose", 1.0),
    ("catan.discard_progress", 1.0),
    ("catan.take_card", 1.0),
    ("catan.harbor_exchange", 1.0),
    ("catan.play_progress", 0.5),
    ("catan.build_road", 0.5),
    ("catan.move_knight", 0.4),
    ("catan.trade_bank", 0.15),
    ("catan.end_turn", 1.0),
]
#: Moves a turn before the seat ends it whatever else it could do.
PER_TURN = 8
#: What a city and a settlement cost, by card kind: spare cards go to the bank
#: for what one of them lacks (so games end sooner).
GOALS = ({3: 2, 4: 3}, {0: 1, 1: 1, 2: 1, 3: 1})
#: The hidden facts of a hand that a page could show by name: its cards.
CARD_NAMES = {name.replace("_", " ") for name in (*DEV_DECK, *(n for deck in DECKS for n in deck))}
#: The moves a seat makes toward points, before it trades with the bank.
BUILDS = ("catan.build_city", "catan.build_settlement")

#: Every clickable move the board draws (on the map and in its panel), as
#: {i, cmd, board, filter, text}; whether a card picker or a move in progress shows.
CANDIDATES = """() => {
  const root = document.querySelector('.catan-root');
  if (!root) return null;
  const out = [];
  root.querySelectorAll('[data-command]').forEach((el, i) => {
    if (el.disabled) return;
    const r = el.getBoundingClientRect();
    const folded = !!el.closest('details:not([open])');
    if (!folded && (!r.width || !r.height)) return;
    const cmd = JSON.parse(el.getAttribute('data-command'));
    const all = el.hasAttribute('data-commands') ? JSON.parse(el.getAttribute('data-commands')) : [cmd];
    out.push({ i, cmd, kinds: [...new Set(all.map((c) => c.type))], folded, key: el.getAttribute('data-key'),
               board: el.classList.contains('legal'), filter: el.getAttribute('data-filter'),
               text: el.getAttribute('aria-label') || el.textContent });
  });
  const hand = [...root.querySelectorAll('.catan-hand .catan-chip b')].map((b) => Number(b.textContent));
  // Places on the board whose box has no area: nothing that finds targets by their box can use them.
  const flat = [...root.querySelectorAll('.legal')].filter((el) => {
    const r = el.getBoundingClientRect();
    return !r.width || !r.height;
  }).map((el) => el.getAttribute('data-target'));
  return { out, hand, flat, picker: !!root.querySelector('.catan-picker'),
           building: !!root.querySelector('.catan-cancel') };
}"""


def useful_trade(hand: list[int], trades: list[tuple[Any, int, int, int]]) -> Any:
    """A bank trade (item, give, get, rate) of spare cards for one a city or a settlement lacks, if any."""
    for goal in GOALS:
        missing = {k for k, n in goal.items() if hand[k] < n}
        for item, give, get, rate in trades:
            if get in missing and hand[give] - rate >= goal.get(give, 0):
                return item
    return None


class Opponents(threading.Thread):
    """The other seats, through the API: builders that never offer trades, so
    the game moves on; they wait while the page's seat is awaited (a discard
    both must make), so the page never races them."""

    def __init__(self, base_url: str, table_id: str, tokens: list[str]) -> None:
        super().__init__(daemon=True)
        self.base_url, self.table_id, self.tokens = base_url, table_id, tokens
        self.stop = threading.Event()
        self.moves = 0
        self.failure: str | None = None
        self.rng = random.Random(3)

    def pick(self, legal: list[dict[str, Any]], hand: list[int]) -> dict[str, Any]:
        trades = [(c, c["give"], c["get"], 4) for c in legal if c["type"] == "catan.trade_bank"]
        trade = useful_trade(hand, trades)
        if trade is not None and not any(c["type"] in BUILDS for c in legal):
            return trade
        by: dict[str, list[dict[str, Any]]] = {}
        for c in legal:
            by.setdefault(c["type"], []).append(c)
        for kind in (
            "catan.build_city", "catan.build_settlement", "catan.buy_improvement", "catan.build_knight",
            "catan.activate_knight", "catan.roll_dice", "catan.select_cards", "catan.move_robber",
            "catan.discard_progress", "catan.take_card", "catan.choose", "catan.build_road", "catan.end_turn",
        ):  # fmt: skip
            if kind not in by:
                continue
            if kind == "catan.build_road" and "catan.end_turn" in by and self.rng.random() < 0.5:
                continue
            if kind == "catan.choose":  # decline offers; else the first answer
                return next((c for c in by[kind] if c["choice"] in (0, -1)), by[kind][0])
            return self.rng.choice(by[kind])
        quiet = [c for c in legal if c["type"] not in ("catan.offer_trade", "catan.trade_bank")]
        return self.rng.choice(quiet or legal)

    def run(self) -> None:
        try:
            self._play()
        except Exception as exc:  # reported by the test
            self.failure = repr(exc)

    def _play(self) -> None:
        with httpx.Client(base_url=self.base_url, timeout=30) as client:
            version = 0
            while not self.stop.is_set():
                doc = view(client, self.table_id, self.tokens[1], version + 1 if version else 0)
                if doc["over"]:
                    return
                mine = [s for s in doc["actors"] if s != 0]
                if not mine or 0 in doc["actors"]:
                    version = doc["version"]
                    continue
                seat = mine[0]
                seen = view(client, self.table_id, self.tokens[seat])
                if seen["version"] != doc["version"] or not seen["legal"]:
                    version = 0
                    continue
                command = self.pick(expand(seen["legal"]), seen["view"]["hand"])
                r = client.post(
                    f"/v1/tables/{self.table_id}/commands",
                    json={"command": command, "expected_version": seen["version"]},
                    headers={**auth(self.tokens[seat]), "idempotency-key": uuid.uuid4().hex},
                )
                assert r.status_code == 200, r.text
                self.moves += 1
                version = r.json()["version"] - 1


def _choose(
    found: dict[str, Any], rng: random.Random, this_turn: int, wanted: str | None
) -> tuple[dict[str, Any] | None, str | None]:
    """What to click, and the kind of move it is meant to become (a place may lead to several)."""
    # Bank trades sit in a folded "Trade with the bank"; the rate is in their words.
    trades = [
        (o, o["cmd"]["give"], o["cmd"]["get"], int(o["text"].split()[1]))
        for o in found["out"]
        if o["cmd"]["type"] == "catan.trade_bank"
    ]
    trade = useful_trade(found["hand"], trades) if found["hand"] and not found["building"] else None
    if trade is not None and not any(set(o["kinds"]) & set(BUILDS) for o in found["out"]):
        return trade, "catan.trade_bank"
    options = [o for o in found["out"] if not o["folded"]]
    if found["building"]:
        # A move in progress: a highlighted place, or the move it has become.
        onward = [o for o in options if o["board"] or not o["filter"]]
        meant = [o for o in onward if wanted in o["kinds"]]
        return (rng.choice(meant or onward), wanted) if onward else (None, None)
    by: dict[str, list[dict[str, Any]]] = {}
    for o in options:
        for kind in o["kinds"]:
            by.setdefault(kind, []).append(o)
    can_end = "catan.end_turn" in by
    if can_end and this_turn >= PER_TURN:
        return by["catan.end_turn"][0], "catan.end_turn"
    for kind, often in PREFER:
        if kind in by and (not can_end or rng.random() < often):
            return rng.choice(by[kind]), kind
    rest = [o for o in options if o["cmd"]["type"] != "catan.offer_trade"]
    return (rng.choice(rest), None) if rest else (None, None)


def _pick_cards(page: Any) -> None:
    """The discard picker: + on the kinds held until the count is reached, then send."""
    picker = page.locator("[data-testid=board] .catan-picker")
    send = page.locator("[data-testid=board] .catan-decision button.primary[data-command]")
    plus = picker.locator("button:has-text('+')")
    for _ in range(40):
        if not send.is_disabled():
            break
        enabled = [plus.nth(i) for i in range(plus.count()) if not plus.nth(i).is_disabled()]
        assert enabled, "the picker offers no card, yet more are needed"
        enabled[0].click()
    command = json.loads(send.get_attribute("data-command"))
    assert command["type"] == "catan.select_cards"
    send.click()


def _activate(page: Any, option: dict[str, Any], rng: random.Random) -> None:
    if option["folded"]:
        page.locator(".catan-root details.catan-compose > summary", has_text="Trade with the bank").click()
    target = page.locator(".catan-root [data-command]").nth(option["i"])
    if option["board"] and rng.random() < 0.3:
        target.focus()
        page.keyboard.press(rng.choice(["Enter", " "]))
    else:
        target.click()


def _pick_cards_by_keys(page: Any, rng: random.Random) -> None:
    """The discard picker from the keyboard: "Fill for me", then send."""
    tab_to(page, "pick:fill")
    page.keyboard.press(rng.choice(["Enter", " "]))
    send = page.locator("[data-testid=board] [data-key='pick:send']")
    assert not send.is_disabled()
    assert json.loads(send.get_attribute("data-command"))["type"] == "catan.select_cards"
    tab_to(page, "pick:send")
    page.keyboard.press(rng.choice(["Enter", " "]))


def _activate_by_keys(page: Any, option: dict[str, Any], rng: random.Random) -> None:
    """Tab to the chosen place or button (opening "Trade with the bank" first if
    it is folded away) and press Enter or Space."""
    assert option["key"], option
    if option["folded"]:
        tab_to(page, "bank-open")
        page.keyboard.press("Enter")
    tab_to(page, option["key"])
    page.keyboard.press(rng.choice(["Enter", " "]))


def _feed(client: httpx.Client, table_id: str, token: str) -> list[Any]:
    events = []
    try:
        with client.stream(
            "GET", f"/v1/tables/{table_id}/feed", headers=auth(token), timeout=httpx.Timeout(5, read=1.0)
        ) as r:
            for line in r.iter_lines():
                if line.startswith("data: "):
                    events.append(json.loads(line[6:]))
    except httpx.ReadTimeout:
        pass
    return events


def _names(node: Any) -> set[str]:
    """The card names a document holds, as a page may write them."""
    return {s.replace("_", " ").lower() for s in strings(node)} & CARD_NAMES


def _no_foreign_hand(page: Any, api: httpx.Client, table_id: str, tokens: list[str], docs: list[Any]) -> None:
    """The page reads only seat 0's documents; it shows one hand, seat 0's, as
    its view has it; and no card name another seat alone knows is in it."""
    for doc in docs:
        assert doc.get("seat") == 0 and doc["view"]["seat"] == 0, "the seat page read another audience's view"
    hands = page.locator("[data-testid=board] [data-hand]")
    assert hands.count() <= 1
    content = page.content().lower()
    version = page.get_by_test_id("version").inner_text().split()[-1]
    if hands.count():
        assert hands.get_attribute("data-hand") == "0"
        own = view(api, table_id, tokens[0])
        if str(own["version"]) == version:
            shown = [int(c.inner_text()) for c in hands.locator(".catan-chip b").all()]
            assert shown == [own["view"]["hand"][k] for k in range(8)]
    # Names (progress cards) that some other seat knows and seat 0 does not.
    mine = _names(view(api, table_id, tokens[0])) | _names(_feed(api, table_id, tokens[0]))
    for seat in range(1, len(tokens)):
        theirs = _names(view(api, table_id, tokens[seat])) | _names(_feed(api, table_id, tokens[seat]))
        for secret in theirs - mine:
            where = f"seat {seat}'s {secret!r} is on seat 0's page"
            for quoted in (f'"{secret}"', f"&quot;{secret}&quot;"):
                assert quoted not in content.replace("_", " "), where
            if " " in secret:
                assert secret not in content, where


@pytest.mark.timeout(BUDGET_S + 60)
@pytest.mark.parametrize("keyboard", [False, True], ids=["mouse", "keyboard"])
def test_a_whole_game_of_cities_and_knights_against_bots(
    page: Any, api: httpx.Client, keyboard: bool
) -> None:
    start = time.monotonic()
    table_id, tokens = open_table(api, "catan-ck", SEATS, OPTIONS)
    answers = record_moves(page, table_id)
    if keyboard:
        count_pointer_presses(page)
    opponents = Opponents(str(api.base_url), table_id, tokens)
    docs: list[Any] = []
    sent: list[tuple[str, str | None]] = []

    def seen(response: Any) -> None:
        if f"/v1/tables/{table_id}/view" in response.url and response.status == 200:
            docs.append(response.json())

    page.on("response", seen)
    page.on("request", lambda r: sent.append((r.url, r.headers.get("authorization"))))
    page.goto(f"/#/table/{table_id}/seat/0?token={quote(tokens[0])}")
    page.locator(".catan-root svg.catan-board").wait_for()
    opponents.start()
    rng = random.Random(19)
    done: dict[str, int] = {}
    this_turn, moves, checks, wanted = 0, 0, 0, None
    try:
        while True:
            took = time.monotonic() - start
            assert took < BUDGET_S, f"the game took longer than {BUDGET_S}s ({moves} moves)"
            assert opponents.failure is None, opponents.failure
            page.locator(
                "[data-testid=board] .catan-actions, [data-testid=board] .catan-picker, [data-testid=result]"
            ).first.wait_for(timeout=60_000)
            if page.locator("[data-testid=result]").count():
                break
            before = page.get_by_test_id("version").inner_text()
            found = page.evaluate(CANDIDATES)
            if found is None:
                continue
            assert not found["flat"], f"board places with no area (upright edges?): {found['flat']}"
            if found["picker"]:
                _pick_cards_by_keys(page, rng) if keyboard else _pick_cards(page)
                kind = "catan.select_cards"
            else:
                option, wanted = _choose(found, rng, this_turn, wanted if found["building"] else None)
                if option is None:
                    page.wait_for_timeout(100)
                    continue
                kind = option["cmd"]["type"]
                try:
                    _activate_by_keys(page, option, rng) if keyboard else _activate(page, option, rng)
                except (PlaywrightTimeoutError, NotReached):
                    # A bot's move redrew the board between the choice and the click (the
                    # place chosen by its index is gone or another now, or the card the
                    # keyboard was going to: the bots play at any time): choose again.
                    if page.get_by_test_id("version").inner_text() == before:
                        raise
                    continue
            # Until the page shows the next version, the next step of a move, or a rejection.
            page.wait_for_function(
                """([v, rejected]) => { const el = document.querySelector('[data-testid=version]');
                     return (el && el.textContent !== v) || document.querySelector(rejected) !== null
                       || document.querySelector('[data-testid=board] .catan-cancel') !== null; }""",
                arg=[before, REJECTED],
            )
            rejected = page.locator(REJECTED)
            if rejected.count():
                assert RACE in rejected.first.inner_text(), rejected.first.inner_text()
                continue
            if page.get_by_test_id("version").inner_text() == before:
                continue  # a step of a move: its next click comes
            done[kind] = done.get(kind, 0) + 1
            moves += 1
            this_turn = 0 if kind == "catan.end_turn" else this_turn + 1
            if moves % 40 == 0 and checks < 2:
                checks += 1
                _no_foreign_hand(page, api, table_id, tokens, docs)
    finally:
        opponents.stop.set()

    opponents.join(timeout=10)
    final = view(api, table_id)
    assert final["over"] and final["result"]["standings"]
    winner = final["result"]["standings"][0]
    assert winner["score"] >= TARGET
    assert "Game over" in page.get_by_test_id("status").inner_text()
    board = page.locator(".catan-root")
    assert f"wins with {winner['score']} points" in board.locator(".catan-decision h3").inner_text()
    assert page.locator("[data-testid=board] .legal").count() == 0
    _no_foreign_hand(page, api, table_id, tokens, docs)
    assert_final_standings_shown(page, final["result"])
    assert_every_move_through_the_page(api, table_id, 0, answers.accepted)
    assert not answers.refusals, answers.refused()
    for url, authorization in sent:
        assert authorization in (None, f"Bearer {tokens[0]}"), url
        assert not any(t in url for t in tokens[1:]), url
    # The seat built on the board and played from the panel, by mouse and keyboard.
    assert done.get("catan.roll_dice", 0) >= 3 and done.get("catan.end_turn", 0) >= 3, done
    assert sum(done.get(k, 0) for k in ("catan.build_road", *BUILDS)) >= 2, done
    took = time.monotonic() - start
    how = "with the keyboard" if keyboard else "by clicking"
    print(f"{moves} moves {how}, {opponents.moves} by the other seats, {took:.1f}s: {done}")
    if keyboard:
        assert pointer_presses(page) == 0, "the keyboard game used the mouse"
    assert not page.errors, page.errors  # type: ignore[attr-defined]
