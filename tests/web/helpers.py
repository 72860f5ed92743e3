"""What the browser tests do through the API directly: open tables, hand seats
to the bots, play random legal moves to reach a mid-game position."""

from __future__ import annotations

import base64
import json
import os
import random
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import msgspec
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from shared.kernel.legal_groups import expand

#: The hosted games (the fixture game ``highcard`` aside), and the seats their pages are tested with.
HOSTED = {"tigris": 2, "tigris-cards": 2, "catan": 3, "catan-ck": 3, "conan": 2}


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def open_table(
    api: httpx.Client, game: str, seats: int, options: dict[str, Any] | None = None
) -> tuple[str, list[str]]:
    r = api.post("/v1/tables", json={"game": game, "seats": seats, "options": options or {}})
    assert r.status_code == 201, r.text
    body = r.json()
    return body["table_id"], [t["token"] for t in body["tokens"]]


def give_to_bots(api: httpx.Client, table_id: str, tokens: list[str]) -> None:
    r = api.post(f"/v1/tables/{table_id}/bots", json={"tokens": tokens})
    assert r.status_code == 200, r.text


def view(api: httpx.Client, table_id: str, token: str | None = None, min_version: int = 0) -> dict[str, Any]:
    params = {"min_version": min_version} if min_version else None
    r = api.get(f"/v1/tables/{table_id}/view", headers=auth(token) if token else {}, params=params)
    assert r.status_code == 200, r.text
    return r.json()


def play_random(
    api: httpx.Client, table_id: str, tokens: list[str], moves: int, seed: int = 1
) -> dict[str, Any]:
    """Play up to ``moves`` random legal commands (fewer if the game ends first);
    the live view of seat 0 after them (a spectator's may trail behind)."""
    rng = random.Random(seed)
    doc = view(api, table_id, tokens[0])
    for _ in range(moves):
        if doc["over"]:
            break
        seat = rng.choice(doc["actors"])
        mine = view(api, table_id, tokens[seat], doc["version"])
        command = rng.choice(expand(mine["legal"]))
        r = api.post(
            f"/v1/tables/{table_id}/commands",
            json={"command": command, "expected_version": mine["version"]},
            headers={**auth(tokens[seat]), "idempotency-key": uuid.uuid4().hex},
        )
        assert r.status_code == 200, r.text
        doc = view(api, table_id, tokens[0], r.json()["version"])
    return doc


def wait_over(api: httpx.Client, table_id: str, within_s: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + within_s
    doc = view(api, table_id)
    while not doc["over"]:
        assert time.monotonic() < deadline, f"{table_id} not over in {within_s}s"
        doc = view(api, table_id, None, doc["version"] + 1)
    return doc


def strings(node: Any) -> set[str]:
    """Every string value in a JSON document."""
    if isinstance(node, str):
        return {node}
    if isinstance(node, dict):
        return set().union(*(strings(v) for v in node.values())) if node else set()
    if isinstance(node, list):
        return set().union(*(strings(v) for v in node)) if node else set()
    return set()


def names(node: Any) -> set[str]:
    """Every string in a JSON document, its objects' keys too: a colour that a
    seat's own commands name as a key (a swap of ``{"blue": 0, ...}``) is no
    secret to that seat, though no value of its documents says it."""
    if isinstance(node, dict):
        return set(node) | set().union(*(names(v) for v in node.values())) if node else set()
    if isinstance(node, list):
        return set().union(*(names(v) for v in node)) if node else set()
    return strings(node)


def ordinal(n: int) -> str:
    """As the page writes a place (ui.js ``ordinal``)."""
    if n % 100 in (11, 12, 13):
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


@dataclass
class Answers:
    """What the gateway answered to the commands the page sent, as read off the wire:
    the commands accepted, in order, and the error codes of those refused."""

    accepted: list[dict[str, Any]] = field(default_factory=list)
    #: The refusing responses; their bodies are read after the game, never inside
    #: Playwright's event handler.
    refusals: list[Any] = field(default_factory=list)

    def refused(self) -> list[str]:
        """The error code of every refusal, in order."""
        return [r.json()["code"] for r in self.refusals]


def record_moves(page: Any, table_id: str) -> Answers:
    """Every command the page sends to the table, accepted or refused (filled in as
    the page plays). Counted from the responses, never from the keys and clicks: a
    press that lands while the page redraws sends nothing, as it would for a person."""
    answers = Answers()

    def answered(response: Any) -> None:
        request = response.request
        sent = request.method == "POST" and response.url.endswith(f"/v1/tables/{table_id}/commands")
        if not sent:
            return
        if response.status == 200:
            answers.accepted.append(json.loads(request.post_data)["command"])
        else:
            answers.refusals.append(response)

    page.on("response", answered)
    return answers


def assert_every_move_through_the_page(
    api: httpx.Client, table_id: str, seat: int, accepted: list[dict[str, Any]]
) -> None:
    """The seat's moves in the finished game's audit log are exactly those the page sent."""
    r = api.get(f"/v1/tables/{table_id}/audit")
    assert r.status_code == 200, r.text
    played = [
        msgspec.msgpack.decode(base64.b64decode(c["payload"]))
        for c in r.json()["commands"]
        if c["seat"] == seat and c["kind"] == "move"
    ]
    assert played, "the seat made no move"
    assert played == accepted, (len(played), len(accepted))


def assert_final_standings_shown(page: Any, result: dict[str, Any]) -> None:
    """The page's players list shows each seat's place and score as the gateway's result has them."""
    page.get_by_test_id("result").wait_for()
    for standing in result["standings"]:
        place = page.locator(f"li.player[data-seat='{standing['seat']}'] .place")
        assert place.inner_text() == f"{ordinal(standing['place'])} · {standing['score']}", standing


#: Most Tab presses from anywhere on a page to any control on it.
TABS = 400
#: The ``data-key`` of the control that has the keyboard focus.
FOCUSED = "() => document.activeElement && document.activeElement.getAttribute('data-key')"


class NotReached(AssertionError):
    """Tab went round the page and never focused the control."""


def tab_to(page: Any, key: str) -> None:
    """Press Tab until the control with this ``data-key`` has the focus."""
    for _ in range(TABS):
        if page.evaluate(FOCUSED) == key:
            return
        page.keyboard.press("Tab")
    shown = page.locator(f"[data-key={json.dumps(key)}]").count()
    raise NotReached(f"Tab never reached {key} ({shown} such controls on the page)")


def data_keys(page: Any, selector: str) -> list[str]:
    """The ``data-key`` of every element the selector finds, in page order."""
    return page.locator(selector).evaluate_all("els => els.map(e => e.getAttribute('data-key'))")


def count_pointer_presses(page: Any) -> None:
    """From the next page load on, count every mouse or touch press on the page
    (a keyboard's Enter or Space on a button clicks it, but presses no pointer)."""
    page.add_init_script(
        "window.pointerPresses = 0;"
        " addEventListener('pointerdown', () => { window.pointerPresses += 1; }, true);"
    )


def pointer_presses(page: Any) -> int:
    return int(page.evaluate("window.pointerPresses"))


#: Where ``make screenshots`` (``ZIGGURAT_SCREENSHOTS=docs``) puts the pictures.
DOCS_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def photograph(page: Any, tmp_path: Path, name: str) -> Path:
    """The page, whole, as ``<name>.png``: in docs/screenshots under ``make
    screenshots``, else beside the test's temporary files (a run leaves the
    tree clean). It must show something, and the page must have met no error."""
    folder = DOCS_SCREENSHOTS if os.environ.get("ZIGGURAT_SCREENSHOTS") == "docs" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    shot = folder / f"{name}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000, "the table drew nothing worth a picture"
    assert page.errors == []
    return shot


def move_behind_its_back(api: httpx.Client, table_id: str, token: str) -> None:
    """Play the seat's first legal move through the API, past a page that keeps
    offering it (its feed cut): the page's own press of it is then refused."""
    mine = view(api, table_id, token)
    r = api.post(
        f"/v1/tables/{table_id}/commands",
        json={"command": expand(mine["legal"])[0], "expected_version": mine["version"]},
        headers=auth(token),
    )
    assert r.status_code == 200, r.text


def clicked(target: Any, **options: Any) -> bool:
    """Click ``target``, or False once it has stayed away for 10 s: a move of
    another seat redrew the panel (a bot's bid laid at the same time as ours)
    and took it away. The caller looks at the page again."""
    try:
        target.click(timeout=10_000, **options)
    except PlaywrightTimeoutError:
        return False
    return True


def press(page: Any, rng: random.Random, key: str) -> None:
    """Tab to the control with this ``data-key`` and press Enter or Space."""
    tab_to(page, key)
    page.keyboard.press(rng.choice(["Enter", " "]))


def against_a_bot(
    api: httpx.Client, game: str, options: dict[str, Any] | None = None
) -> tuple[str, list[str]]:
    """A two-seat table of ``game`` whose seat 1 a bot plays: (table id, tokens)."""
    table_id, tokens = open_table(api, game, 2, options)
    give_to_bots(api, table_id, [tokens[1]])
    return table_id, tokens


def open_seat(page: Any, table_id: str, token: str, board: str, seat: int = 0) -> None:
    """The seat's page on the table, once its board (the selector ``board``) is drawn."""
    page.goto(f"/#/table/{table_id}/seat/{seat}?token={quote(token)}")
    page.locator(board).wait_for()


def views_seen(page: Any, table_id: str) -> list[dict[str, Any]]:
    """Every view of the table the page fetches, in order (filled in as the page runs)."""
    docs: list[dict[str, Any]] = []

    def seen(response: Any) -> None:
        if f"/v1/tables/{table_id}/view" in response.url and response.status == 200:
            docs.append(response.json())

    page.on("response", seen)
    return docs


def seat_turns(
    page: Any, moves: str, start: float, budget_s: float, timeout_ms: int = 30_000
) -> Iterator[str]:
    """Each time the seat has a move to make (its panel ``moves`` shows), the version on the
    page then; ends once the result is shown. The game ends within ``budget_s`` of ``start``
    (``time.monotonic()``)."""
    turns = 0
    while True:
        assert time.monotonic() - start < budget_s, f"the game took longer than {budget_s}s ({turns} moves)"
        page.locator(f"{moves}, [data-testid=result]").first.wait_for(timeout=timeout_ms)
        if page.locator("[data-testid=result]").count():
            return
        yield page.get_by_test_id("version").inner_text()
        turns += 1


#: True once the page shows a version other than ``v``, or a rejection in words
#: (in the elements ``rejected`` selects).
_NEXT_VERSION = """([v, rejected]) => { const el = document.querySelector('[data-testid=version]');
    return (el && el.textContent !== v) || document.querySelector(rejected) !== null; }"""


def wait_next_version(page: Any, before: str, rejected: str) -> Any:
    """Until the page shows the version after ``before`` or a rejection; the rejections shown."""
    page.wait_for_function(_NEXT_VERSION, arg=[before, rejected])
    return page.locator(rejected)


def assert_accepted(page: Any, before: str, rejected: str) -> None:
    """The move just made went through: the page moved past ``before`` with no rejection."""
    shown = wait_next_version(page, before, rejected)
    assert not shown.count(), shown.first.inner_text()


def assert_whole_game(
    page: Any, api: httpx.Client, table_id: str, answers: Answers, may_refuse: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """The game is over, the page shows its standings, seat 0 played every move
    through the page (``answers``: :func:`record_moves`), and the gateway refused
    none of its commands but for a code in ``may_refuse``; the final view."""
    final = view(api, table_id)
    assert final["over"] and final["result"]["standings"]
    assert_final_standings_shown(page, final["result"])
    assert_every_move_through_the_page(api, table_id, 0, answers.accepted)
    refused = answers.refused()
    assert set(refused) <= may_refuse, refused
    return final
