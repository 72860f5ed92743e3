"""Age of Conan in the browser: a live bot game watched on the map as it
moves, and a seat played for many moves against a bot by clicking legal moves
(a highlighted province, a dashed one to start a two-step move, a choice
among several, then Confirm; bids from token and card buttons; the rest from
the panel), some of them with the keyboard alone. The seat page never holds a
fact of the other seat's hand, and the spectator's holds no hand at all.

And whole games against a bot, to the final standings: one by clicking, one
with the keyboard alone (Tab, Enter, Space; never a click). The standings on
the page are the gateway's result, and the seat's moves in the audit log are
exactly the commands the page sent."""

from __future__ import annotations

import hashlib
import json
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

from shared.games.conan import PACKS
from tests.web.helpers import (
    FOCUSED,
    TABS,
    against_a_bot,
    assert_whole_game,
    clicked,
    count_pointer_presses,
    data_keys,
    give_to_bots,
    open_seat,
    open_table,
    pointer_presses,
    press,
    record_moves,
    seat_turns,
    tab_to,
    view,
    views_seen,
    wait_next_version,
)

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser"), pytest.mark.timeout(300)]

#: Commands this seat plays by clicking.
MOVES = 36
BUDGET_S = 150
#: A sentence that would tell seat 0 what the other seat holds: cards drawn
#: by name, its sealed bid, the card it committed, its secret category.
#: A command on an older version refused: the client's own sentence for stale_version.
STALE = json.loads((Path(__file__).resolve().parents[2] / "services/web/static/locales/en.json").read_text())[
    "error.stale_version"
]
FOREIGN = re.compile(r"Seat 2 (draws (?!\d)|seals a bid|commits (?!\d|no strategy)|secretly chooses)")
#: What the generic fallback writes for an event no renderer words ("Seat 1: Units changed, ...").
CHANGED = (
    "v => { const el = document.querySelector('[data-testid=version]'); return el && el.textContent !== v; }"
)
GENERIC = re.compile(r"^(Seat \d+: )?[A-Z][a-z]+( [a-z]+)*, [a-z]+ ")


def _version(page: Any) -> int:
    return int(page.get_by_test_id("version").inner_text().split()[-1])


def _log(page: Any) -> list[str]:
    return [t.strip() for t in page.locator(".log-list li").all_inner_texts()]


def test_a_bot_game_of_conan_moves_on_the_map(page: Any, api: Any) -> None:
    table_id, tokens = open_table(api, "conan", 3)
    give_to_bots(api, table_id, tokens)
    docs: list[dict[str, Any]] = []

    def seen(response: Any) -> None:
        if f"/v1/tables/{table_id}/view" in response.url and response.status == 200:
            docs.append(response.json())

    maps: list[str] = []
    page.on("response", seen)
    page.on("request", lambda r: maps.append(r.url) if "/v1/games/conan/packs/" in r.url else None)
    page.goto(f"/#/table/{table_id}")
    board = page.locator("svg.zc-board")
    board.wait_for()
    # The content pack's map: every province drawn with its name, the kingdoms' homes, Conan.
    provinces = _pack_map(api, view(api, table_id)["view"])["provinces"]
    assert board.locator("g.zc-prov").count() == len(provinces)
    assert board.locator("text.zc-name").count() >= len(provinces)
    assert board.locator(".zc-conan").count() == 1
    assert page.locator("[data-zc=legend]").is_visible()
    start = _version(page)
    status = page.locator("[data-zc=status]").inner_text()
    page.wait_for_function(
        "v => Number(document.querySelector('[data-testid=version]').textContent.split(' ').pop()) > v + 20",
        arg=start,
        timeout=60_000,
    )
    # The map follows the game: armies on the map, the pool or contest and status change.
    assert board.locator(".zc-piece").count() > 3
    assert page.locator("[data-zc=status]").inner_text() != status or _version(page) > start
    lines = _log(page)
    assert len(lines) > 20
    assert not [line for line in lines if GENERIC.match(line) or "conan." in line], lines[:40]
    # A spectator sees no hand: neither on the page nor in what it read.
    assert not page.locator("[data-zc=hand]").count()
    assert not page.locator("[data-zc=moves]").count()
    assert docs and all(d["seat"] is None and d["view"]["me"] is None for d in docs)
    # The map came once, for the whole game, not with every view.
    assert len(maps) == 1, maps
    assert all("board" not in d["view"] for d in docs)
    assert not page.errors, page.errors  # type: ignore[attr-defined]


def _pack_map(api: Any, seen: dict[str, Any]) -> dict[str, Any]:
    """The map a view names, as the gateway serves it once per pack: immutable
    when asked for by the view's digest (a hash of exactly its bytes), else
    revalidated with its ETag."""
    where = f"/v1/games/conan/packs/{seen['pack']}/board"
    r = api.get(where, params={"digest": seen["board_digest"]})
    assert r.status_code == 200, r.text
    assert "immutable" in r.headers["cache-control"]
    assert hashlib.sha256(r.content).hexdigest()[:32] == seen["board_digest"]
    assert r.headers["etag"] == f'"{seen["board_digest"]}"'
    again = api.get(where, headers={"if-none-match": r.headers["etag"]})
    assert again.status_code == 304 and again.headers["cache-control"] == "no-cache"
    assert api.get("/v1/games/conan/packs/atlantis/board").status_code == 404
    return r.json()


def _bid(box: Any, rng: random.Random) -> bool:
    """Pick a bidding token and a strategy card, then lay the bid (confirmed next)."""
    if not box.locator("[data-zc=bid]").count():
        return False
    tokens = box.locator("button[data-bid-token]:not([disabled])")
    if tokens.count() and not clicked(tokens.nth(rng.randrange(tokens.count()))):
        return True  # redrawn: look again
    cards = box.locator("button[data-bid-card]:not([disabled])")
    if cards.count() and not clicked(cards.nth(rng.randrange(cards.count()))):
        return True
    go = box.locator("[data-key=bid-go]")
    if go.count():
        # (a new version may have redrawn the picker in between: then pick again)
        assert json.loads(go.get_attribute("data-command"))["type"] == "conan.place_bid"
        clicked(go)
    return True


def _one_move(page: Any, rng: random.Random, keyboard: bool) -> str:
    """Click until one command is sent; returns how it was chosen ("map" or
    "panel"), or "redrawn" when another seat's move took the turn's controls away
    meanwhile (bids are laid at the same time)."""
    box = page.locator("[data-zc=moves]")
    board = page.locator("svg.zc-board")
    before = page.get_by_test_id("version").inner_text()
    how = "panel"
    for _ in range(12):
        if page.get_by_test_id("version").inner_text() != before:
            return "redrawn"
        confirm = box.locator("[data-confirm]")
        if confirm.count():
            question = box.locator(".zc-confirm-q").inner_text()
            assert question.endswith("?"), question
            pending = board.locator(".legal.zc-pending")
            if keyboard and pending.count():
                # Enter on the chosen province again confirms.
                pending.first.focus()
                page.keyboard.press("Enter")
            elif not clicked(confirm):
                continue
            return how
        options = box.locator("button[data-key^='opt:']")
        if options.count():
            clicked(options.nth(rng.randrange(options.count())))
            continue
        if _bid(box, rng):
            continue
        targets = board.locator(".legal[data-command]")
        sources = board.locator(".zc-source")
        buttons = box.locator("button[data-command]")
        on_map = [targets.nth(i) for i in range(targets.count())] + [
            sources.nth(i) for i in range(sources.count())
        ]
        if on_map and (rng.random() < 0.8 or not buttons.count()):
            how = "map"
            chosen = rng.choice(on_map)
            command = chosen.get_attribute("data-command")
            if command:
                assert json.loads(command)["type"].startswith("conan.")
            assert chosen.get_attribute("tabindex") == "0"
            if keyboard:
                chosen.focus()
                page.keyboard.press(rng.choice(["Enter", "Space"]))
            else:
                clicked(chosen, force=True)
            continue
        if not buttons.count():
            # The page is between two versions of the view: look again.
            page.wait_for_timeout(250)
            continue
        panel = [buttons.nth(i) for i in range(buttons.count())]
        # Mostly the actions that lead to the map: a Military or Intrigue die.
        to_map = [b for b in panel if re.search(r"military|intrigue", b.get_attribute("data-command") or "")]
        chosen = rng.choice(to_map) if to_map and rng.random() < 0.8 else rng.choice(panel)
        if not chosen.is_visible():
            # A kind with many choices is folded away: open it first.
            clicked(chosen.locator("xpath=ancestor::details[1]/summary"))
        if not clicked(chosen):
            continue
        if not box.locator("[data-confirm]").count():
            return "panel"
        # The second step of a move begun on the map (Conan's move without a raid): confirm it.
    raise AssertionError(f"it is this seat's move, yet no command after several clicks: {box.inner_text()}")


def _no_foreign_hand(page: Any, docs: list[dict[str, Any]], api: Any, table_id: str, other: str) -> None:
    text = page.locator("body").inner_text()
    found = FOREIGN.search(text)
    assert not found, found.group(0)
    assert page.locator("[data-zc=hand]").count() == 1
    for doc in docs:
        assert doc["seat"] == 0, "the seat page read another audience's view"
        assert doc["view"]["me"] is not None
    # The hand on the page is this seat's own, as its last view says.
    mine = docs[-1]["view"]["me"]
    hand = page.locator("[data-zc=hand]").inner_text()
    # Views name cards by id; their names are the pack's words (the page is English).
    words = PACKS[docs[-1]["view"]["pack"]].words["en"]
    names = {**words.strategy_cards, **{k: c.name for k, c in words.kingdom_cards.items()}}
    shown = {c["id"] for c in docs[-1]["view"]["cards"]}
    for card in {*mine["strategy_hand"], *mine["kingdom_hand"]}:
        assert names[card] in hand
    # Cards only the other seat holds are never named in this seat's hand panel.
    theirs = view(api, table_id, other)["view"]
    for card in {*theirs["me"]["strategy_hand"], *theirs["me"]["kingdom_hand"]} - shown:
        assert names[card] not in hand, card


def test_playing_a_seat_of_conan_by_clicking_legal_moves(page: Any, api: Any) -> None:
    start = time.monotonic()
    table_id, tokens = against_a_bot(api, "conan")
    docs = views_seen(page, table_id)
    open_seat(page, table_id, tokens[0], "svg.zc-board")
    rng = random.Random(16)
    counts = {"map": 0, "panel": 0, "redrawn": 0}
    stale = 0
    for n in range(MOVES):
        assert time.monotonic() - start < BUDGET_S, f"{n} moves took longer than {BUDGET_S}s"
        page.locator("[data-zc=moves], [data-testid=result]").first.wait_for(timeout=60_000)
        if page.locator("[data-testid=result]").count():
            break
        before = page.get_by_test_id("version").inner_text()
        counts[_one_move(page, rng, keyboard=n % 3 == 2)] += 1
        page.wait_for_function(CHANGED, arg=before)
        rejected = page.locator(".zc-msg, [data-testid=move-message].error")
        if rejected.count():
            # Bids are laid at the same time: the bot may lay its own first, and a
            # command on the older version is refused as stale. Anything else is a bug.
            text = rejected.first.inner_text()
            assert STALE in text, text
            stale += 1
        if n % 6 == 5:
            _no_foreign_hand(page, docs, api, table_id, tokens[1])
    _no_foreign_hand(page, docs, api, table_id, tokens[1])
    assert counts["map"] >= 5, counts
    assert counts["map"] + counts["panel"] >= 15, counts
    assert stale <= 3, f"{stale} commands refused as stale"
    assert not page.errors, page.errors  # type: ignore[attr-defined]


def _one_move_by_keys(page: Any, rng: random.Random) -> str:
    """Tab to a province or a button and press Enter or Space, until one command
    is sent; returns how it was chosen ("map" or "panel")."""
    box = page.locator("[data-zc=moves]")
    how = "panel"
    for _ in range(16):
        if box.locator("[data-confirm]").count():
            # Enter on the chosen province again confirms (the focus stays on it);
            # a move chosen in the panel leaves the focus on Confirm.
            if page.evaluate(FOCUSED) not in [*data_keys(page, "svg.zc-board .legal.zc-pending"), "confirm"]:
                tab_to(page, "confirm")
            page.keyboard.press("Enter")
            return how
        options = data_keys(page, "[data-zc=moves] button[data-key^='opt:']")
        if options:
            press(page, rng, rng.choice(options))
            continue
        if box.locator("[data-zc=bid]").count():
            for kind in ("token", "card"):
                choices = data_keys(page, f"[data-zc=bid] button[data-bid-{kind}]:not([disabled])")
                if choices:
                    press(page, rng, rng.choice(choices))
            if box.locator("[data-key=bid-go]").count():
                press(page, rng, "bid-go")
            continue
        on_map = data_keys(page, "svg.zc-board .legal[data-key], svg.zc-board .zc-source[data-key]")
        buttons = box.locator("button[data-command]:not([disabled])").evaluate_all(
            "els => els.map(e => [e.getAttribute('data-key'), e.getAttribute('data-command')])"
        )
        if on_map and (rng.random() < 0.8 or not buttons):
            how = "map"
            press(page, rng, rng.choice(on_map))
            continue
        if not buttons:
            # The page is between two versions of the view: look again.
            page.wait_for_timeout(250)
            continue
        # Mostly the actions that lead to the map: a Military or Intrigue die.
        to_map = [key for key, command in buttons if re.search(r"military|intrigue", command)]
        key = rng.choice(to_map) if to_map and rng.random() < 0.8 else rng.choice(buttons)[0]
        chosen = box.locator(f"[data-key={json.dumps(key)}]")
        if not chosen.is_visible():
            # A kind with many choices is folded away: open it from the keyboard first.
            summary = chosen.locator("xpath=ancestor::details[1]/summary")
            for _ in range(TABS):
                if summary.evaluate("el => el === document.activeElement"):
                    break
                page.keyboard.press("Tab")
            page.keyboard.press("Enter")
        press(page, rng, key)
        if not box.locator("[data-confirm]").count():
            return "panel"
    raise AssertionError(f"it is this seat's move, yet no command after several keys: {box.inner_text()}")


#: A whole game: three ages of four adventures each (the game has no shorter
#: variant), about 170 commands of the seat.
WHOLE_GAME_S = 480
#: A rejection in words, on the board's panel or the page's.
REJECTED = ".zc-msg, [data-testid=move-message].error"


@pytest.mark.timeout(WHOLE_GAME_S + 60)
@pytest.mark.parametrize("keyboard", [False, True], ids=["mouse", "keyboard"])
def test_a_whole_game_of_conan_against_a_bot(page: Any, api: Any, keyboard: bool) -> None:
    start = time.monotonic()
    table_id, tokens = against_a_bot(api, "conan")
    answers = record_moves(page, table_id)
    if keyboard:
        count_pointer_presses(page)
    open_seat(page, table_id, tokens[0], "svg.zc-board")
    rng = random.Random(7)
    counts = {"map": 0, "panel": 0, "redrawn": 0}
    for before in seat_turns(page, "[data-zc=moves]", start, WHOLE_GAME_S, timeout_ms=60_000):
        counts[_one_move_by_keys(page, rng) if keyboard else _one_move(page, rng, keyboard=False)] += 1
        rejected = wait_next_version(page, before, REJECTED)
        if rejected.count():
            # Bids are laid at the same time: the bot may lay its own first, and a
            # command on the older version is refused as stale. Anything else is a bug.
            text = rejected.first.inner_text()
            assert STALE in text, text
            # The page reads the newer version by itself.
            page.wait_for_function(CHANGED, arg=before)

    # Counted from the gateway's answers: a press that lands as the bot's bid
    # redraws the page sends nothing, and a refusal may come after the redraw.
    assert_whole_game(page, api, table_id, answers, may_refuse=frozenset({"stale_version"}))
    sent, stale = len(answers.accepted) + len(answers.refusals), len(answers.refusals)
    assert counts["map"] >= 20, counts
    assert stale <= sent // 10, f"{stale} of {sent} commands refused as stale"
    how = "with the keyboard" if keyboard else "by clicking"
    print(f"{sent} moves {how} ({counts}, {stale} stale) in {time.monotonic() - start:.1f}s")
    if keyboard:
        assert pointer_presses(page) == 0, "the keyboard game used the mouse"
    assert not page.errors, page.errors  # type: ignore[attr-defined]
