"""``ziggurat bot --key ... --strategy random|greedy``: one of our bots, through the bot API only.

It holds one stream (``GET /v1/bot/stream``) for every table its player sits
at, answers each ``turn`` with one of the legal moves the seat's view lists
(through the normal command route, with the player key), accepts every
invitation to a casual table, and reconnects with ``Last-Event-ID`` whenever
the stream drops, so it resumes where it was.

Strategies see only the seat's view and its legal moves:

* ``random``: any legal move;
* ``greedy``: never a move that gives up the turn (pass, end, skip, ...)
  when it has another, and among the rest the one with the largest numbers
  in it (the highest card, the biggest bid); ties at random.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx

from shared.kernel.legal_groups import expand

STRATEGIES = ("random", "greedy")
#: Command types that give up the turn, for the greedy strategy.
_PASSIVE = ("pass", "end", "skip", "done", "decline", "resign", "concede")
RETRY_PAUSE_S = 0.25


@dataclass
class Event:
    kind: str
    id: str | None
    data: str


def events(lines: Iterator[str]) -> Iterator[Event]:
    """Server-sent events from the lines of a response (comments skipped)."""
    kind, last_id = "message", None
    data: list[str] = []
    for line in lines:
        if not line:
            if data or last_id is not None:
                yield Event(kind, last_id, "\n".join(data))
            kind, last_id, data = "message", None, []
            continue
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "event":
            kind = value
        elif name == "id":
            last_id = value
        elif name == "data":
            data.append(value)


def _numbers(value: Any) -> float:
    if isinstance(value, bool):
        return 0.0
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, list):
        return sum(_numbers(v) for v in value)
    if isinstance(value, dict):
        return sum(_numbers(v) for k, v in value.items() if k != "type")
    return 0.0


def _passive(move: dict[str, Any]) -> bool:
    kind = str(move.get("type", "")).rsplit(".", 1)[-1]
    return any(word in kind for word in _PASSIVE)


def choose(strategy: str, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    if strategy == "greedy":
        active = [m for m in legal if not _passive(m)] or legal
        best = max(_numbers(m) for m in active)
        return rng.choice([m for m in active if _numbers(m) == best])
    return rng.choice(legal)


class Bot:
    def __init__(
        self,
        api: str,
        key: str,
        strategy: str = "random",
        seed: int | None = None,
        say: Callable[[str], None] = print,
    ) -> None:
        self.api = api.rstrip("/")
        self.key = key
        self.strategy = strategy
        self.rng = random.Random(seed)
        self.say = say
        self.last_id: str | None = None
        #: (table, seat) -> the newest version this bot answered (a turn may come twice).
        self.answered: dict[tuple[str, int], int] = {}
        self.finished: set[str] = set()
        #: Accept every invitation to a casual table (a bot account exists to play).
        self.accept_invitations = True

    def run(self, games: int = 0) -> int:
        """Play until ``games`` tables are over (0: forever); 2 if the key is refused."""
        with httpx.Client(base_url=self.api, timeout=httpx.Timeout(30.0, read=60.0)) as client:
            while not games or len(self.finished) < games:
                try:
                    if not self._listen(client, games):
                        return 2
                except (httpx.TransportError, httpx.HTTPStatusError) as exc:
                    self.say(f"stream lost ({type(exc).__name__}); reconnecting after {self.last_id}")
                    time.sleep(RETRY_PAUSE_S)
        return 0

    def _listen(self, client: httpx.Client, games: int) -> bool:
        headers = {"authorization": f"Bearer {self.key}"}
        if self.last_id is not None:
            headers["last-event-id"] = self.last_id
        with client.stream("GET", "/v1/bot/stream", headers=headers) as response:
            if response.status_code in (401, 403):
                response.read()
                self.say(f"the key was refused: {response.json().get('message')}")
                return False
            response.raise_for_status()
            for event in events(response.iter_lines()):
                if event.id is not None:
                    self.last_id = event.id
                if event.kind == "turn":
                    self._turn(client, json.loads(event.data))
                elif event.kind == "over":
                    table = json.loads(event.data)["table_id"]
                    if table not in self.finished:
                        self.finished.add(table)
                        self.say(f"{table}: over ({len(self.finished)} finished)")
                    if games and len(self.finished) >= games:
                        return True
                elif event.kind == "invitation" and self.accept_invitations:
                    invitation = json.loads(event.data)["invitation_id"]
                    r = client.post(
                        f"/v1/casual/{invitation}/accept", headers={"authorization": f"Bearer {self.key}"}
                    )
                    self.say(f"invitation {invitation}: {r.json().get('status', r.json().get('code'))}")
                elif event.kind == "reconnect":
                    return True
        return True

    def _turn(self, client: httpx.Client, turn: dict[str, Any]) -> None:
        table, seat, version = turn["table_id"], turn["seat"], turn["version"]
        legal = expand(turn["view"].get("legal") or [])
        if not legal or self.answered.get((table, seat), -1) >= version:
            return
        move = choose(self.strategy, legal, self.rng)
        headers = {"authorization": f"Bearer {self.key}", "idempotency-key": f"{table}:{seat}:{version}"}
        body = {"command": move, "expected_version": version}
        for _ in range(40):
            try:
                r = client.post(f"/v1/tables/{table}/commands", json=body, headers=headers)
            except httpx.TransportError:
                time.sleep(RETRY_PAUSE_S)
                continue
            if r.status_code in (429, 503, 504):  # busy or outcome unknown: the same key again
                time.sleep(float(r.headers.get("retry-after", RETRY_PAUSE_S)))
                continue
            break
        self.answered[(table, seat)] = version
        if r.status_code != 200:  # stale or refused: the stream brings the next turn
            self.say(f"{table}: {r.json().get('code')} at version {version}")


def bot_command(api: str, key: str, strategy: str, games: int, seed: int | None) -> int:
    bot = Bot(api, key, strategy, seed, say=lambda line: print(line, file=sys.stderr, flush=True))
    return bot.run(games)
