"""The tournament writer and process manager against a real Valkey.

The game pipeline is stood in for by a pipeline that answers every ``open``
at once, so these tests look only at what the tournament service does:
appends (idempotent by command id), read models, seat tokens and auth
hashes, and how it reacts to ``table.finished``, redelivered or not.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any

import msgspec
import pytest

from services.tournaments.manager import GROUP, Manager, game_id_for
from services.tournaments.writer import Tournaments
from shared.eventstore.envelope import EventEnvelope
from shared.eventstore.keys import GameKeys, partition_feed, partition_of
from shared.eventstore.store import encode_envelope
from shared.eventstore.tournament_keys import BOT_TABLES, TOURNAMENT_GAMES, bot_seats
from shared.kernel.auth import token_hash
from shared.kernel.contract import Result, Standing
from shared.kernel.table import TableFinished
from shared.messaging.messages import CommandMsg, Outcome
from shared.messaging.streams import Batch, StreamReader
from shared.tournaments.commands import Create, Register, Start
from shared.tournaments.state import TournamentState

pytestmark = pytest.mark.integration
PARTITIONS = 4


class FakeReplies:
    def __init__(self) -> None:
        self.waiting: dict[str, asyncio.Future[Outcome]] = {}
        self.ids = itertools.count()

    def expect(self) -> tuple[str, asyncio.Future[Outcome]]:
        request_id = f"req-{next(self.ids)}"
        future: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        self.waiting[request_id] = future
        return request_id, future

    def forget(self, request_id: str) -> None:
        self.waiting.pop(request_id, None)


class FakePipeline:
    """Answers each open: accepted the first time, ``table_exists`` after."""

    def __init__(self, replies: FakeReplies) -> None:
        self.replies = replies
        self.opened: list[CommandMsg] = []

    async def submit(self, stream: str, body: bytes) -> None:
        msg = msgspec.json.decode(body, type=CommandMsg)
        again = any(m.game_id == msg.game_id for m in self.opened)
        self.opened.append(msg)
        outcome = Outcome(
            command_id=msg.command_id,
            status="rejected" if again else "accepted",
            code="table_exists" if again else "",
        )
        self.replies.waiting[msg.request_id].set_result(outcome)


@pytest.fixture
async def service(redis: Any) -> tuple[Tournaments, Manager, FakePipeline]:
    tournaments = Tournaments(redis, PARTITIONS)
    replies = FakeReplies()
    broker = FakePipeline(replies)
    manager = Manager(tournaments, redis, broker.submit, replies, "tournaments-test")  # type: ignore[arg-type]
    feeds = tuple(partition_feed(p) for p in range(PARTITIONS))
    await StreamReader(redis, GROUP, "test", feeds, 100, 1000, start_id="$").ensure_groups()
    return tournaments, manager, broker


async def started(t: Tournaments, m: Manager, players: int = 4, rounds: int = 2) -> TournamentState:
    await t.execute(
        "cup", Create(tournament_id="cup", game="highcard", seats_per_table=2, rounds=rounds), "c"
    )
    for i in range(players):
        kind = "bot" if i % 2 else "human"
        cmd = Register(player_id=f"p{i}", name=f"P{i}", kind=kind, bot="random" if kind == "bot" else None)
        await t.execute("cup", cmd, f"r{i}")
    await t.execute("cup", Start(), "s")
    await m.advance("cup")
    _, state = await t.current("cup")
    assert state is not None
    return state


def finished_entry(game_id: str, version: int, places: list[int]) -> tuple[bytes, dict[bytes, bytes]]:
    result = Result(
        standings=tuple(Standing(seat=s, place=p, score=10 - p) for s, p in enumerate(places)), reason="done"
    )
    payload = msgspec.msgpack.encode(TableFinished(result=result, seed="00" * 32))
    env = EventEnvelope(
        game_id=game_id,
        partition=partition_of(game_id, PARTITIONS),
        version=version,
        event_id=f"{game_id}:{version}",
        command_id="last-move",
        correlation_id="",
        server_time=0,
        seat=0,
        payload=payload,
    )
    return b"0-0", {b"g": game_id.encode(), b"v": str(version).encode(), b"e": encode_envelope(env)}


async def deliver(redis: Any, m: Manager, game_id: str, places: list[int]) -> None:
    """As the feed would: add the entry, read it through the group, hand it over."""
    _, fields = finished_entry(game_id, 40, places)
    p = partition_of(game_id, PARTITIONS)
    await redis.xadd(partition_feed(p), fields)
    reply = await redis.xreadgroup(GROUP, "test", {partition_feed(p): ">"}, count=100)
    await m.handle(Batch([(partition_feed(p), entry_id, fields) for entry_id, fields in reply[0][1]]))


async def test_commands_are_idempotent_and_read_models_follow(service: Any, redis: Any) -> None:
    t, _, _ = service
    create = Create(tournament_id="cup", game="highcard", seats_per_table=2, rounds=1)
    first = await t.execute("cup", create, "c1")
    again = await t.execute("cup", create, "c1")
    assert first.status == again.status == "accepted" and again.duplicate
    assert (again.first, again.last) == (first.first, first.last) == (1, 1)
    other = await t.execute("cup", create, "c2")
    assert (other.status, other.code) == ("rejected", "already_created")
    unknown = await t.execute("nobody", Start(), "s")
    assert (unknown.status, unknown.code) == ("rejected", "unknown_tournament")
    standings = json.loads(await redis.get(t.keys("cup").view("standings")))
    assert standings["status"] == "registering" and standings["tournament_id"] == "cup"


async def test_tables_open_with_tokens_auth_and_bot_seats(service: Any, redis: Any) -> None:
    t, m, broker = service
    state = await started(t, m)
    rnd = state.rounds[-1]
    assert [table.game_id for table in rnd.tables] == [game_id_for("cup", 1, n) for n in (1, 2)]
    assert sorted(msg.game_id for msg in broker.opened) == sorted(table.game_id for table in rnd.tables)
    for table in rnd.tables:
        assert table.game_id is not None
        assert (await redis.hget(TOURNAMENT_GAMES, table.game_id)).decode() == "cup"
        auth = await redis.hgetall(GameKeys(table.game_id, partition_of(table.game_id, PARTITIONS)).auth)
        tokens = [
            (await redis.hget(t.keys("cup").seat_tokens, f"{table.game_id}:{s}")).decode()
            for s in range(len(table.players))
        ]
        assert {token_hash(tok).encode(): str(s).encode() for s, tok in enumerate(tokens)} == auth
        opened = next(msg for msg in broker.opened if msg.game_id == table.game_id)
        assert opened.open is not None and opened.open.token_hashes == tuple(token_hash(x) for x in tokens)
        bots = {int(k): v.decode() for k, v in (await redis.hgetall(bot_seats(table.game_id))).items()}
        kinds = {p.player_id: p.kind for p in state.players}
        assert bots == {s: tokens[s] for s, pid in enumerate(table.players) if kinds[pid] == "bot"}
        assert await redis.sismember(BOT_TABLES, table.game_id) == bool(bots)


async def test_results_pair_the_next_round_and_redelivery_changes_nothing(service: Any, redis: Any) -> None:
    t, m, broker = service
    state = await started(t, m)
    g1, g2 = (table.game_id for table in state.rounds[-1].tables)
    await deliver(redis, m, g1, [1, 2])
    version, _ = await t.current("cup")
    await deliver(redis, m, g1, [1, 2])  # the same game over, again
    assert (await t.current("cup"))[0] == version
    await deliver(redis, m, g2, [2, 1])
    version, state = await t.current("cup")
    assert len(state.rounds) == 2 and state.rounds[0].complete
    assert all(table.game_id for table in state.rounds[1].tables)
    opened = len(broker.opened)
    await deliver(redis, m, g2, [2, 1])  # redelivered after the next round began
    await m.advance("cup", recover=True)  # as after a restart: re-opens are refused, nothing appended
    assert (await t.current("cup"))[0] == version
    assert len(broker.opened) == opened + 2 and all(b.open for b in broker.opened)
    for table in state.rounds[1].tables:
        await deliver(redis, m, table.game_id, [1, 2])
    _, state = await t.current("cup")
    assert state.status == "finished" and len(state.ranking) == 4
    pending = await redis.xpending(partition_feed(partition_of(g1, PARTITIONS)), GROUP)
    assert pending["pending"] == 0


async def test_a_fresh_writer_folds_the_same_state(service: Any, redis: Any) -> None:
    t, m, _ = service
    state = await started(t, m)
    for table in state.rounds[-1].tables:
        await deliver(redis, m, table.game_id, [1, 2])
    fresh = Tournaments(redis, PARTITIONS)
    assert await fresh.current("cup") == await t.current("cup")
