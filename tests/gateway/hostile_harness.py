"""The referee of the hostile-input suite: sends each request, judges its answer,
and keeps watching that nothing behind the gateway broke.

Every answer is judged the same way: never a 5xx; a refusal is a JSON body
with a stable ``code`` and a human ``message`` (and the status that code is
documented with); a refused command leaves its table's version in the store
where it was; no dead letter appears (a stage crashed on some input) and no
stage counts a failed message. Every few seconds it also asks the gateway's
``/ready`` (stalled stages, waiting dead letters), and :func:`every_game_plays`
checks that a fresh table of every game still takes a legal move in seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import threading
import time
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass, field
from typing import Any, NoReturn, TypeVar

import httpx
import msgspec
from prometheus_client.parser import text_string_to_metric_families
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from services.gateway.errors import status_of
from shared.eventstore import game_index
from shared.eventstore.keys import GameKeys, partition_of
from shared.eventstore.store import EventStore
from shared.games import registry
from shared.infra.launcher import Stack
from shared.infra.redis_client import connect
from shared.kernel.legal_groups import expand
from shared.messaging import deadletters
from shared.tournaments.keys import TOURNAMENTS_INDEX, tournament_keys
from tests.gateway.hostile_strategies import short

T = TypeVar("T")

GAMES = registry.available()
#: A fresh table must take its first legal move within this many seconds.
PLAYS_WITHIN_S = 10.0
#: How often the referee asks ``/ready`` and the services' counters.
READY_EVERY_S = 5.0
#: ``ziggurat_errors_total`` kinds that mean a stage or the gateway failed on
#: a message or request (rather than, say, losing the store for a moment).
FAILURE_KINDS = {"message", "batch", "unexpected"}
_CODE = re.compile(r"^[a-z][a-z0-9_]{1,63}$")


def _frame(message: bytes) -> str | bytes:
    """A text frame when the bytes are UTF-8 (as a browser sends), else a binary one."""
    try:
        return message.decode()
    except UnicodeDecodeError:
        return message


def auth(token: str | bytes) -> dict[str, str | bytes]:
    return {"authorization": (b"Bearer " + token) if isinstance(token, bytes) else f"Bearer {token}"}


class Store:
    """The event store and the dead letters as the suite reads them.

    Hypothesis drives sync tests, and the store's client is async: it runs on
    an event loop of its own, in a thread.
    """

    def __init__(self, url: str, partitions: int) -> None:
        self.partitions = partitions
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self.redis: Any = self._run(self._connect(url))
        self.store = EventStore(self.redis)

    @staticmethod
    async def _connect(url: str) -> Any:
        return connect(url)

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout=30)

    def version(self, table_id: str) -> int:
        return self._run(self.store.version(GameKeys(table_id, partition_of(table_id, self.partitions))))

    def tournament_version(self, tournament_id: str) -> int:
        return self._run(self.store.version(tournament_keys(tournament_id, self.partitions)))

    def games_opened(self) -> int:
        return self._run(game_index.count(self.redis, self.partitions))

    def tournaments_created(self) -> int:
        return int(self._run(self.redis.zcard(TOURNAMENTS_INDEX)))

    def dead_letter_count(self) -> int:
        return self._run(deadletters.count(self.redis))

    def dead_letters(self) -> list[deadletters.DeadLetter]:
        return self._run(deadletters.listing(self.redis))

    def drop_dead_letter(self, letter_id: str) -> None:
        self._run(deadletters.drop(self.redis, letter_id))

    def close(self) -> None:
        self._run(self.redis.aclose())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)


def describe(letters: list[deadletters.DeadLetter]) -> str:
    """Dead letters as a failure shows them: the stage, its error, the message it failed on."""
    lines = []
    for letter in letters:
        error = letter.error.strip().splitlines()
        lines.append(
            f"- {letter.service} on {letter.stream}: {error[-1] if error else '?'}\n"
            f"  message: {short(letter.fields.get(b'm', b''), 1_500)}"
        )
    return "\n".join(lines)


def _problem_key(problem: str) -> str:
    """A readiness problem without its numbers ("... for 29 s" stays the same problem)."""
    return re.sub(r"[0-9]+", "#", problem)


def failure_counters(stack: Stack) -> dict[str, float]:
    """Dead letters and failed messages each service has counted."""
    out: dict[str, float] = {}
    for name, url in stack.metrics_urls().items():
        for family in text_string_to_metric_families(httpx.get(url, timeout=10).text):
            for s in family.samples:
                if s.name == "ziggurat_dead_letters_total":
                    key = f"{name}: dead letters"
                elif s.name == "ziggurat_errors_total" and s.labels.get("kind") in FAILURE_KINDS:
                    key = f"{name}: errors of kind {s.labels['kind']}"
                else:
                    continue
                out[key] = out.get(key, 0.0) + s.value
    return out


@dataclass
class Table:
    game: str
    table_id: str
    tokens: list[str]
    #: The store version as the suite last saw it: nothing else moves these tables.
    version: int
    _views: dict[int | None, tuple[int, dict[str, Any]]] = field(default_factory=dict)

    @property
    def commands(self) -> str:
        return f"/v1/tables/{self.table_id}/commands"

    @property
    def view_url(self) -> str:
        return f"/v1/tables/{self.table_id}/view"


@dataclass
class Tournament:
    tournament_id: str
    organiser_token: str
    version: int

    @property
    def game(self) -> str:
        return "tournament"

    @property
    def table_id(self) -> str:
        return self.tournament_id


Tracked = Table | Tournament


class Referee:
    def __init__(self, stack: Stack, client: httpx.Client, store: Store) -> None:
        self.stack = stack
        self.client = client
        self.store = store
        self.dead_letters = store.dead_letter_count()
        self.counters = failure_counters(stack)
        self._ready_at = 0.0
        self._letters_later = False
        #: Readiness problems already reported (stalls), as :func:`_problem_key` spells them.
        self.reported: set[str] = set()
        self.sent = 0

    # -- sending and judging ----------------------------------------------------

    def send(
        self,
        method: str,
        url: str,
        what: str,
        *,
        table: Tracked | None = None,
        stream: bool = False,
        **kwargs: Any,
    ) -> httpx.Response:
        """One request, judged; ``table``: the table (or tournament) whose version a refusal must not move."""
        if table is not None:
            before = self.version_of(table)
            assert before == table.version, (
                f"{table.game} table {table.table_id} moved from version {table.version} to {before} "
                f"while nothing was accepted: a refused command was applied later (last sent: {what})"
            )
        self.sent += 1
        if stream:
            # A live feed never ends: its status and headers are the answer.
            with self.client.stream(method, url, **kwargs) as r:
                if not r.is_success:
                    r.read()
        else:
            r = self.client.request(method, url, **kwargs)
        self.judge(r, what)
        if table is not None:
            after = self.version_of(table)
            if r.is_success:
                table.version = after
            else:
                assert after == table.version, (
                    f"refused with {r.status_code} {r.json().get('code')}, yet {table.game} table "
                    f"{table.table_id} moved from version {table.version} to {after}: {what}"
                )
        self.watch(what)
        return r

    def play(self, table: Table, seat: int, hello: bytes, messages: list[bytes], what: str) -> list[Any]:
        """A play connection to ``table``: ``hello`` first (the seat's token, or
        not), then ``messages``, each as a text frame when it is UTF-8 and a binary
        one otherwise; every frame back judged. Never a 5xx, in a frame or a close
        code; refusals as the HTTP ones; every view is ``seat``'s own, of this
        table; the table moves only if a command was accepted. Returns the frames."""
        before = self.version_of(table)
        assert before == table.version, f"{table.table_id} moved while nothing was accepted ({what})"
        self.sent += 1
        frames: list[Any] = []
        url = self.stack.api.replace("http://", "ws://") + f"/v1/tables/{table.table_id}/play"
        accepted = False
        with ws_connect(url, open_timeout=10, close_timeout=2, max_size=None) as ws:
            try:
                for message in [hello, *messages]:
                    ws.send(_frame(message))
                replies = 0
                while replies < len(messages):
                    frame = msgspec.json.decode(ws.recv(timeout=10))
                    frames.append(frame)
                    kind = frame.get("type")
                    if kind in ("ready", "view"):
                        view = frame["view"]
                        assert view["seat"] == seat and view["game_id"] == table.table_id, (
                            f"seat {seat} of {table.table_id} was sent {view['game_id']} "
                            f"seat {view['seat']}: {what}"
                        )
                        continue
                    assert kind in ("reply", "error"), f"unknown frame {frame!r} for {what}"
                    status, answer = frame["http_status"], frame["answer"]
                    assert status < 500, f"{status} in a frame for {what}: {frame!r}"[:1_500]
                    if status >= 300:
                        self.judge_refusal(status, answer, what)
                    else:
                        accepted = accepted or answer.get("status") == "accepted"
                    if kind == "error":
                        break
                    replies += 1
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd is not None else None
                assert code is None or code < 4000 or code - 4000 < 500, f"closed {code} for {what}"
        after = self.version_of(table)
        if accepted:
            table.version = after
        else:
            assert after == table.version, (
                f"{table.game} table {table.table_id} moved from {table.version} to {after}, "
                f"nothing accepted: {what}"
            )
        self.watch(what)
        return frames

    def version_of(self, tracked: Tracked) -> int:
        if isinstance(tracked, Tournament):
            return self.store.tournament_version(tracked.tournament_id)
        return self.store.version(tracked.table_id)

    def judge(self, r: httpx.Response, what: str) -> None:
        assert r.status_code < 500, f"{r.status_code} for {what}:\n{r.text[:1_500]}"
        if r.is_success:
            return
        try:
            body = r.json()
        except ValueError:
            raise AssertionError(
                f"{r.status_code} without a JSON body for {what}: {r.text[:500]!r}"
            ) from None
        self.judge_refusal(r.status_code, body, what)
        assert r.headers.get("content-type", "").startswith("application/json"), what

    def judge_refusal(self, status: int, body: Any, what: str) -> None:
        """A refusal's body, whichever channel carried it (a response, a play connection's frame)."""
        assert isinstance(body, dict), f"{status} {body!r} for {what}"
        code, message = body.get("code"), body.get("message")
        assert isinstance(code, str) and _CODE.match(code), f"no stable code in {body!r} for {what}"
        assert isinstance(message, str) and len(message) >= 10, f"no message in {body!r} for {what}"
        assert body.get("status") == "rejected", f"{body!r} for {what}"
        if code == "dead_lettered":
            self.finding(f"a stage crashed on {what}: {body}\n{describe(self.store.dead_letters())}")
        assert status == status_of(code), f"{code} answered with {status} for {what}"

    def watch(self, what: str) -> None:
        """After every request: no new dead letter. Every few seconds: ready, counters unmoved."""
        count = self.store.dead_letter_count()
        if count > self.dead_letters and not self._letters_later:
            self.finding(
                f"{count - self.dead_letters} new dead letter(s), last request sent: {what}\n"
                f"{describe(self.store.dead_letters()[self.dead_letters :])}"
            )
        if time.monotonic() - self._ready_at > READY_EVERY_S and not self._letters_later:
            self.check_ready(what)

    @contextlib.contextmanager
    def dead_letters_later(self) -> Iterator[None]:
        """Judge answers as usual, but leave dead letters (and readiness) to the
        caller: for inputs whose harm shows in the background, long after them."""
        self._letters_later = True
        try:
            yield
        finally:
            self._letters_later = False

    def wait_ready(self, within_s: float = 20.0) -> httpx.Response:
        """``/ready``, given the gateway's watch (which measures once a second) time
        to see a change; a problem already reported counts as ready."""
        deadline = time.monotonic() + within_s
        while self.new_problems(r := self.client.get("/ready")) and time.monotonic() < deadline:
            time.sleep(0.2)
        return r

    def new_problems(self, r: httpx.Response) -> list[str]:
        if r.status_code == 200:
            return []
        problems = r.json().get("problems", [r.text]) if r.status_code == 503 else [r.text]
        return [p for p in problems if _problem_key(p) not in self.reported]

    def check_ready(self, what: str = "-") -> None:
        self._ready_at = time.monotonic()
        r = self.wait_ready(3.0)
        if self.new_problems(r):
            self.finding(
                f"/ready answers {r.status_code} {r.text} (last request sent: {what})\n"
                f"{describe(self.store.dead_letters())}"
            )
        now = failure_counters(self.stack)
        moved = {k: (self.counters.get(k, 0.0), v) for k, v in now.items() if v != self.counters.get(k, 0.0)}
        if moved:
            self.finding(
                f"failure counters moved {moved} (last request sent: {what}); see the services' logs"
            )

    def finding(self, message: str) -> NoReturn:
        """Fail with ``message``, leaving the stack fit to judge the next input.

        The dead letters are dropped (as an operator would) and the counters
        re-read, so one crash fails the example that caused it and not every
        one after. A stalled stage cannot be put right from outside: its
        problem is remembered as reported, and only new ones fail later tests.
        """
        for letter in self.store.dead_letters():
            self.store.drop_dead_letter(letter.id)
        self.dead_letters = self.store.dead_letter_count()
        self.counters = failure_counters(self.stack)
        r = self.wait_ready(3.0)
        self.reported |= {_problem_key(p) for p in self.new_problems(r) if "dead letter" not in p}
        raise AssertionError(message)

    # -- tables ---------------------------------------------------------------------

    def open(self, game: str, seats: int | None = None, options: dict[str, Any] | None = None) -> Table:
        body = {"game": game, "seats": seats or registry.get(game).min_seats, "options": options or {}}
        r = self.client.post("/v1/tables", json=body)
        assert r.status_code == 201, f"cannot open {body}: {r.status_code} {r.text}"
        doc = r.json()
        return Table(game, doc["table_id"], [t["token"] for t in doc["tokens"]], doc["version"])

    def view(self, table: Table, seat: int | None) -> dict[str, Any]:
        """The seat's (or the spectator's) view at the table's current version, cached."""
        cached = table._views.get(seat)
        if cached is not None and cached[0] == table.version:
            return cached[1]
        r = self.client.get(
            table.view_url,
            params={"min_version": table.version},
            headers=auth(table.tokens[seat]) if seat is not None else {},
        )
        assert r.status_code == 200, f"view of {table.table_id} for seat {seat}: {r.status_code} {r.text}"
        doc = r.json()
        table._views[seat] = (table.version, doc)
        return doc

    def play_legal(self, table: Table) -> httpx.Response:
        """An awaited seat plays its first legal move."""
        seat = self.view(table, None)["actors"][0]
        mine = self.view(table, seat)
        return self.client.post(
            table.commands,
            content=msgspec.json.encode(
                {"command": expand(mine["legal"])[0], "expected_version": mine["version"]}
            ),
            headers={**auth(table.tokens[seat]), "content-type": "application/json"},
        )

    def every_game_plays(self, when: str) -> dict[str, float]:
        """A fresh table of every game opens and takes a legal move within seconds."""
        took = {}
        for game in GAMES:
            started = time.monotonic()
            table = self.open(game)
            r = self.play_legal(table)
            took[game] = round(time.monotonic() - started, 2)
            assert r.status_code == 200, f"{when}: a fresh {game} table refused a legal move: {r.text}"
            assert took[game] < PLAYS_WITHIN_S, f"{when}: a fresh {game} table took {took[game]} s to move"
        self.check_ready(when)
        return took


class Targets:
    """One open table per game, the targets of the commands; reopened when a game ends."""

    def __init__(self, referee: Referee) -> None:
        self.referee = referee
        self.tables: dict[str, Table] = {}

    def live(self, game: str) -> Table:
        table = self.tables.get(game)
        if table is None or self.referee.view(table, None)["over"]:
            table = self.tables[game] = self.referee.open(game)
        return table

    def seats(self, table: Table) -> tuple[list[int], list[int]]:
        """The seats awaited now and the others."""
        actors = sorted(self.referee.view(table, None)["actors"])
        return actors, [s for s in range(len(table.tokens)) if s not in actors]
