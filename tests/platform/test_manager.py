"""The tournament writer and process manager against a real Valkey.

The game pipeline is stood in for by a pipeline that answers every ``open``
at once, so these tests look only at what the platform process does:
appends (idempotent by command id), read models, seat tokens and auth
hashes, how it reacts to ``table.finished``, redelivered or not, and how it
finishes by itself every step that Redis or a lost reply interrupted.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any

import msgspec
import pytest
import redis as sync_redis
from redis.exceptions import ConnectionError as RedisConnectionError

from services.platform import manager as manager_module
from services.platform.manager import GROUP, Manager, game_id_for
from services.platform.writer import Tournaments
from shared.eventstore import game_index
from shared.eventstore.envelope import EventEnvelope
from shared.eventstore.keys import GameKeys, partition_feed, partition_of
from shared.eventstore.store import EventStore, encode_envelope
from shared.infra.durability import Confirmation, Unconfirmed
from shared.infra.redis_client import connect
from shared.infra.valkey_cluster import ValkeyCluster
from shared.kernel.auth import token_hash
from shared.kernel.contract import Result, Standing
from shared.kernel.table import TableFinished
from shared.messaging.messages import AcceptedOutcome, CommandMsg, Outcome, RejectedOutcome
from shared.messaging.streams import Batch, StreamReader
from shared.tournaments.commands import Create, Register, Start
from shared.tournaments.keys import BOT_TABLES, TOURNAMENT_GAMES, bot_seats
from shared.tournaments.state import TournamentState
from tests.support.waiting import until

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
    """Answers each open: accepted the first time, ``table_exists`` after.

    ``fail[game]``: that many submits of the game's open raise as if Redis
    were down. ``silent``: opens create the game (its meta version) but their
    reply is lost, as when the reply listener is reconnecting."""

    def __init__(self, replies: FakeReplies, redis: Any) -> None:
        self.replies = replies
        self.redis = redis
        self.opened: list[CommandMsg] = []
        self.fail: dict[str, int] = {}
        self.silent = False

    async def submit(self, stream: str, body: bytes) -> None:
        msg = msgspec.json.decode(body, type=CommandMsg)
        if self.fail.get(msg.game_id, 0) > 0:
            self.fail[msg.game_id] -= 1
            raise RedisConnectionError("Connection closed by server.")
        again = any(m.game_id == msg.game_id for m in self.opened)
        self.opened.append(msg)
        if self.silent:
            await self.redis.hset(GameKeys(msg.game_id, msg.partition).meta, "version", 1)
            return
        outcome: Outcome = (
            RejectedOutcome(command_id=msg.command_id, code="table_exists", message="")
            if again
            else AcceptedOutcome(command_id=msg.command_id, first=1, last=1)
        )
        self.replies.waiting[msg.request_id].set_result(outcome)

    def games(self) -> set[str]:
        return {m.game_id for m in self.opened}


@pytest.fixture
async def service(redis: Any) -> tuple[Tournaments, Manager, FakePipeline]:
    tournaments = Tournaments(EventStore(redis), PARTITIONS)
    replies = FakeReplies()
    broker = FakePipeline(replies, redis)
    manager = fresh_manager(tournaments, redis, broker)
    feeds = tuple(partition_feed(p) for p in range(PARTITIONS))
    await StreamReader(redis, GROUP, "test", feeds, 100, 1000, start_id="$").ensure_groups()
    return tournaments, manager, broker


def fresh_manager(t: Tournaments, redis: Any, broker: FakePipeline) -> Manager:
    """A process manager as a new process has it: nothing seen yet."""
    return Manager(t, redis, broker.submit, broker.replies, "tournaments-test")  # type: ignore[arg-type]


async def started(
    t: Tournaments, m: Manager, players: int = 4, rounds: int = 2, tid: str = "cup"
) -> TournamentState:
    await t.execute(tid, Create(tournament_id=tid, game="highcard", seats_per_table=2, rounds=rounds), "c")
    for i in range(players):
        kind = "bot" if i % 2 else "human"
        cmd = Register(player_id=f"p{i}", name=f"P{i}", kind=kind, bot="random" if kind == "bot" else None)
        await t.execute(tid, cmd, f"r{i}")
    await t.execute(tid, Start(), "s")
    await m.advance(tid)
    _, state = await t.current(tid)
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


async def deliver(redis: Any, m: Manager, game_id: str, places: list[int], logged: bool = True) -> None:
    """As the feed would: add the entry (with the event in the game's log, as an
    append writes both, unless not ``logged``), read it through the group,
    hand it over."""
    _, fields = finished_entry(game_id, 40, places)
    p = partition_of(game_id, PARTITIONS)
    events = GameKeys(game_id, p).events
    if logged and not await redis.xrange(events, "0-40", "0-40"):
        await redis.xadd(events, {b"e": fields[b"e"]}, id="0-40")
    await redis.xadd(partition_feed(p), fields)
    reply = await redis.xreadgroup(GROUP, "test", {partition_feed(p): ">"}, count=100)
    await m.handle(Batch([(partition_feed(p), entry_id, fields) for entry_id, fields in reply[0][1]]))
    await m.idle()  # the tournament moves on in the background


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
    assert await m.advance("cup", recover=True)  # tables seen open are not opened again
    assert len(broker.opened) == opened
    # As after a restart: the running round's tables are opened again, which
    # the pipeline refuses (table_exists), and nothing is appended.
    assert await fresh_manager(t, redis, broker).advance("cup", recover=True)
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
    fresh = Tournaments(EventStore(redis), PARTITIONS)
    assert await fresh.current("cup") == await t.current("cup")


async def reconcile_until(m: Manager, done: Any, within: float = 5.0) -> None:
    """Run the reconciler (fast) until ``done()`` holds."""
    stopping = asyncio.Event()
    task = asyncio.create_task(m.run(stopping))
    try:
        assert await until(done, within, every_s=0.02), f"not done within {within}s"
    finally:
        stopping.set()
        await task


async def fully_open(redis: Any, state: TournamentState, game_id: str) -> bool:
    """The game was submitted, indexed, and its bot seats handed to the bots."""
    keys = GameKeys(game_id, partition_of(game_id, PARTITIONS))
    table = next(t for r in state.rounds for t in r.tables if t.game_id == game_id)
    kinds = {p.player_id: p.kind for p in state.players}
    has_bots = any(kinds[p] == "bot" for p in table.players)
    (opened,) = await game_index.opened_at(redis, [keys])
    indexed = opened is not None
    return indexed and (await redis.sismember(BOT_TABLES, game_id)) == has_bots


@pytest.fixture
def fast(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(manager_module, "RECONCILE_S", 0.05)
    monkeypatch.setattr(manager_module, "OPEN_POLL_S", 0.05)


async def test_a_table_whose_open_failed_is_opened_by_the_reconciler(
    service: Any, redis: Any, fast: None
) -> None:
    t, m, broker = service
    second = game_id_for("cup", 1, 2)
    broker.fail[second] = 1  # Redis drops the connection as the second table opens
    state = await started(t, m)
    # The tournament recorded both tables; only the first game was opened.
    assert [table.game_id for table in state.rounds[0].tables] == [game_id_for("cup", 1, 1), second]
    assert broker.games() == {game_id_for("cup", 1, 1)}
    assert not await fully_open(redis, state, second)

    async def both_open() -> bool:
        return all([await fully_open(redis, state, g) for g in (game_id_for("cup", 1, 1), second)])

    await reconcile_until(m, both_open)
    assert broker.games() == {game_id_for("cup", 1, 1), second}
    assert [msg.game_id for msg in broker.opened].count(second) == 1
    assert (await t.current("cup"))[1] == state  # nothing appended for it


async def test_the_next_advance_retries_an_open_whatever_the_tournament_recorded(
    service: Any, redis: Any
) -> None:
    t, m, broker = service
    second = game_id_for("cup", 1, 2)
    broker.fail[second] = 2
    state = await started(t, m)
    assert not await m.advance("cup")  # still failing
    assert second not in broker.games()
    assert await m.advance("cup")
    assert second in broker.games() and await fully_open(redis, state, second)
    opened = len(broker.opened)
    assert await m.advance("cup")  # seen open: never submitted again
    assert len(broker.opened) == opened


async def test_one_tournament_failing_does_not_hold_up_another(service: Any, redis: Any, fast: None) -> None:
    t, m, broker = service
    stuck = [game_id_for("stuck", 1, n) for n in (1, 2)]
    broker.fail.update(dict.fromkeys(stuck, 10_000))  # never opens
    await started(t, m, tid="stuck")
    second = game_id_for("cup", 1, 2)
    broker.fail[second] = 1
    state = await started(t, m)

    async def cup_open() -> bool:
        return await fully_open(redis, state, second)

    await reconcile_until(m, cup_open)
    assert not set(stuck) & broker.games()


async def test_a_lost_reply_is_answered_by_the_game_itself(service: Any, redis: Any, fast: None) -> None:
    t, m, broker = service
    broker.silent = True  # every game opens, no reply ever arrives
    state = await started(t, m)
    for table in state.rounds[0].tables:
        assert table.game_id is not None and await fully_open(redis, state, table.game_id)
    assert len(broker.opened) == 2


async def test_a_result_that_never_came_through_the_feed_is_recovered(service: Any, redis: Any) -> None:
    t, m, _ = service
    state = await started(t, m)
    g1, g2 = (table.game_id for table in state.rounds[0].tables)
    await deliver(redis, m, g1, [1, 2])
    # g2 ends, but its feed entry is lost (say, parked as a dead letter).
    _, fields = finished_entry(g2, 40, [2, 1])
    await redis.xadd(GameKeys(g2, partition_of(g2, PARTITIONS)).events, {b"e": fields[b"e"]}, id="0-40")
    assert await m.advance("cup")
    assert len((await t.current("cup"))[1].rounds) == 1  # a plain advance does not look
    assert await m.advance("cup", recover=True)
    _, state = await t.current("cup")
    assert state.rounds[0].tables[1].placings is not None and len(state.rounds) == 2
    assert not await redis.sismember(BOT_TABLES, g2)


async def test_a_result_that_failed_to_record_leaves_its_entry_pending(
    service: Any, redis: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    t, m, _ = service
    state = await started(t, m)
    g1 = state.rounds[0].tables[0].game_id
    execute = t.execute
    failures = iter([True])

    async def flaky(*args: Any, **kwargs: Any) -> Outcome:
        if next(failures, False):
            raise RedisConnectionError("Connection closed by server.")
        return await execute(*args, **kwargs)

    monkeypatch.setattr(t, "execute", flaky)
    feed = partition_feed(partition_of(g1, PARTITIONS))
    with pytest.raises(RedisConnectionError):
        await deliver(redis, m, g1, [1, 2])
    assert (await redis.xpending(feed, GROUP))["pending"] == 1
    # As the reader does after a failure: its own pending entries again.
    reply = await redis.xreadgroup(GROUP, "test", {feed: "0"}, count=100)
    await m.handle(Batch([(feed, entry_id, fields) for entry_id, fields in reply[0][1]]))
    await m.idle()
    assert (await redis.xpending(feed, GROUP))["pending"] == 0
    _, state = await t.current("cup")
    assert state.rounds[0].tables[0].placings is not None


async def test_read_models_left_behind_are_rewritten(service: Any, redis: Any) -> None:
    t, m, broker = service
    await started(t, m)
    keys = t.keys("cup")
    version = int(await redis.get(keys.checkpoint))
    # As if Redis went away between an append and its read models.
    await redis.set(keys.checkpoint, version - 1)
    await redis.delete(keys.view("standings"))
    fresh = Tournaments(EventStore(redis), PARTITIONS)
    assert await fresh_manager(fresh, redis, broker).advance("cup")
    assert int(await redis.get(keys.checkpoint)) == version
    assert json.loads(await redis.get(keys.view("standings")))["status"] == "running"


async def test_an_end_the_log_does_not_hold_is_not_recorded(service: Any, redis: Any) -> None:
    """The feed showed an end its primary then lost (read before a replica had
    it, then a failover): the log holds another history, and the game's real
    end comes later. The tournament must not stand on the lost one."""
    t, m, _ = service
    state = await started(t, m)
    g1 = state.rounds[0].tables[0].game_id
    feed = partition_feed(partition_of(g1, PARTITIONS))
    await deliver(redis, m, g1, [1, 2], logged=False)
    assert (await redis.xpending(feed, GROUP))["pending"] == 0, "read, and let go"
    _, state = await t.current("cup")
    assert state.rounds[0].tables[0].placings is None
    # The end the log holds, when it comes, is recorded.
    await redis.delete(feed)
    await redis.xgroup_create(feed, GROUP, id="0", mkstream=True)
    await deliver(redis, m, g1, [2, 1])
    _, state = await t.current("cup")
    assert state.rounds[0].tables[0].placings is not None


async def test_under_a_replicated_level_an_end_is_recorded_once_a_replica_holds_it(
    one_shard: ValkeyCluster,
) -> None:
    """The feed shows an append before its replicas hold it. While none does,
    the end is not recorded and its entry stays pending (read again); once one
    does, it is."""
    (shard,) = one_shard.shards()
    replica = shard.replicas[0]
    client = connect(one_shard.url, cluster=True)
    try:
        t = Tournaments(
            EventStore(client, durable=Confirmation(level="replicated", replicas=1, timeout_ms=300)),
            PARTITIONS,
        )
        broker = FakePipeline(FakeReplies(), client)
        m = fresh_manager(t, client, broker)
        feeds = tuple(partition_feed(p) for p in range(PARTITIONS))
        await StreamReader(client, GROUP, "test", feeds, 100, 1000, start_id="$").ensure_groups()
        state = await started(t, m)
        g1 = state.rounds[0].tables[0].game_id
        feed = partition_feed(partition_of(g1, PARTITIONS))
        one_shard.cut_link(replica)
        sync_redis.Redis(port=shard.primary.port).config_set("min-replicas-to-write", 0)
        with pytest.raises(Unconfirmed):
            await deliver(client, m, g1, [1, 2])
        assert (await client.xpending(feed, GROUP))["pending"] == 1
        assert (await t.current("cup"))[1].rounds[0].tables[0].placings is None
        one_shard.heal_link(replica)
        t.store.durable = Confirmation(level="replicated", replicas=1, timeout_ms=30_000)
        reply = await client.xreadgroup(GROUP, "test", {feed: "0"}, count=100)
        await m.handle(Batch([(feed, entry_id, fields) for entry_id, fields in reply[0][1]]))
        await m.idle()
        assert (await client.xpending(feed, GROUP))["pending"] == 0
        assert (await t.current("cup"))[1].rounds[0].tables[0].placings is not None
    finally:
        await client.aclose()
