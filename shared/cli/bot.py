"""``ziggurat bot --key ... --strategy easy|medium|hard|random|greedy``: one of our bots.

It holds one stream (``GET /v1/bot/stream``) for every table its player sits
at, answers each ``turn`` with a move (through the normal command route,
with the player key), accepts every invitation to a casual table, and
reconnects with ``Last-Event-ID`` whenever the stream drops, so it resumes
where it was.

The levels (shared/kernel/levels.py) are the game's own bots, the ones the
platform's bot runner plays: ``easy`` (random moves), ``medium`` (the game's
one-move greedy bot), ``hard`` (a search over the states its seat could be
in, about 200 ms of CPU a move). They play the game's engine, so they need
the table as a state: this bot folds it from the store (found as
``ziggurat rebuild`` finds it: ``--redis``, ``$ZIGGURAT_REDIS_URL``, the
running stack) and hands the level's bot only its seat's view of it
(:func:`shared.kernel.levels.choose`). Run them beside the deployment.

Two strategies need nothing but the API, for a bot that runs anywhere; they
see only the seat's view and its legal moves:

* ``random``: any legal move;
* ``greedy``: never a move that gives up the turn (pass, end, skip, ...)
  when it has another, and among the rest the one with the largest numbers
  in it (the highest card, the biggest bid); ties at random.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import msgspec

from shared.eventstore.keys import GameKeys, partition_of
from shared.eventstore.store import EventStore
from shared.eventstore.tables import TableCache
from shared.games import registry
from shared.infra.redis_client import connect
from shared.kernel import levels
from shared.kernel.legal_groups import expand
from shared.kernel.rng import SEED_BYTES, Rng

#: The levels first (they need the store), then the strategies that need only the API.
STRATEGIES = (*levels.LEVELS, "random", "greedy")
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


class Engine:
    """The levels' bots for this bot: its tables folded from the store (only their
    tails read again), each move chosen from its seat's view of the table."""

    def __init__(self, redis_url: str, cluster: bool, partitions: int) -> None:
        self.loop = asyncio.new_event_loop()
        self.redis = connect(redis_url, cluster)
        self.tables = TableCache(EventStore(self.redis), capacity=256)
        self.partitions = partitions

    def choose(self, table_id: str, seat: int, level: str, version: int, rng: random.Random) -> Any | None:
        """The move (as JSON), or None if the store holds another version than the turn's."""
        keys = GameKeys(table_id, partition_of(table_id, self.partitions))
        table = self.loop.run_until_complete(self.tables.refresh([keys]))[table_id]
        if table is None or table.version != version:
            return None
        bot_rng = Rng(rng.getrandbits(8 * SEED_BYTES).to_bytes(SEED_BYTES, "big"), version)
        command = levels.choose(registry.get(table.game), table.state, seat, level, bot_rng)
        return msgspec.to_builtins(command)

    def close(self) -> None:
        self.loop.run_until_complete(self.redis.aclose())
        self.loop.close()


class Bot:
    def __init__(
        self,
        api: str,
        key: str,
        strategy: str = "random",
        seed: int | None = None,
        say: Callable[[str], None] = print,
        engine: Engine | None = None,
    ) -> None:
        self.api = api.rstrip("/")
        self.key = key
        self.strategy = strategy
        if strategy in levels.LEVELS and engine is None:
            raise ValueError(f"the {strategy} level plays on the store: give it an Engine")
        self.engine = engine
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
        if self.engine is not None and self.strategy in levels.LEVELS:
            move = self.engine.choose(table, seat, self.strategy, version, self.rng)
            if move is None:  # the table moved on already: the stream brings the next turn
                return
        else:
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


def bot_command(
    api: str, key: str, strategy: str, games: int, seed: int | None, store: tuple[str, bool, int] | None
) -> int:
    """Play; ``store`` (URL, cluster, partitions) is where the levels read their tables."""
    engine = Engine(*store) if store is not None and strategy in levels.LEVELS else None
    say = lambda line: print(line, file=sys.stderr, flush=True)  # noqa: E731
    try:
        return Bot(api, key, strategy, seed, say=say, engine=engine).run(games)
    finally:
        if engine is not None:
            engine.close()
