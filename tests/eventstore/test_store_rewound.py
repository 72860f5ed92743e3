"""A store that went backwards is noticed, not trusted past, against a real Valkey.

A failover under a durability level that does not wait for replicas can
promote a replica that lacks the primary's last writes: the store comes back
as it was a moment earlier. Here that moment is taken exactly: every key is
dumped at version V, more moves are acknowledged, and every key is restored
from the dump (what the promoted replica holds). Processes that held a table
further on then meet the older store:

* the reducer, whose next append meets a lower version than its table's,
  marks the table, reads it again and goes on (the client's move, acted on a
  version the store lost, is refused ``stale_version`` with the store's version,
  and its next move is accepted), where it used to refuse every move for good;
  a move acted on the store's version is checked against the store before it
  could be refused as stale, and accepted;
* the validator, whose read finds no entry at the version it holds (or
  another command's there, once the store moved on past it), marks the table
  and judges afresh; a decision it made on a table of another history at the
  same version is never reused by the reducer;
* the projector, handed entries at versions it folded before, writes the
  table's read models again from the log, on the store's server and on a
  read-model server of their own (which did not go back).

Every loss is marked on the table (shared/eventstore/rewinds.py), and the
versions marked are exactly those the store lost.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from services.projector.handlers import GROUP as PROJECTOR
from services.projector.handlers import Projector
from services.reducer.handlers import Reducer
from services.validator.handlers import Validator
from shared.eventstore.keys import GameKeys, command_stream, partition_feed, validated_stream
from shared.eventstore.rewinds import covered, marks, noticer
from shared.eventstore.store import EventStore
from shared.eventstore.tables import TableCache
from shared.games import registry
from shared.kernel import table as tables
from shared.messaging.messages import CommandMsg, Decided, decode_command, encode
from shared.messaging.streams import Batch
from shared.observability import metrics
from shared.readmodels.rebuilder import rebuild_games
from tests.conftest import emptied, served
from tests.support.messages import move_msg, open_msg

pytestmark = pytest.mark.integration
GAME = "highcard"
TOKENS = ("seat-0", "seat-1")
KEYS = GameKeys("g", 0)


@pytest.fixture(scope="module")
def read_server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    yield from served(tmp_path_factory, "read-models", durable=False)


@pytest.fixture
async def read(read_server: Any) -> Any:
    async for client in emptied(read_server):
        yield client


class Moment:
    """Every key of the server as it was: what a promoted replica would hold."""

    def __init__(self, dumps: dict[bytes, tuple[bytes, int]]) -> None:
        self.dumps = dumps

    @classmethod
    async def taken(cls, redis: Any) -> Moment:
        dumps = {}
        for key in await redis.keys("*"):
            dumps[key] = (await redis.dump(key), max(0, await redis.pttl(key)))
        return cls(dumps)

    async def restored(self, redis: Any) -> None:
        await redis.flushall()
        for key, (raw, ttl) in self.dumps.items():
            await redis.restore(key, ttl, raw)


def rewinds(service: str) -> float:
    return float(metrics.STORE_REWINDS.labels(service)._value.get())


async def current(store: EventStore) -> tables.Table:
    table = (await TableCache(store).refresh([KEYS]))["g"]
    assert table is not None
    return table


def a_move(table: tables.Table, command_id: str, rng: random.Random) -> CommandMsg:
    game = registry.get(GAME)
    seat = rng.choice(sorted(game.actors(table.state)))
    command = rng.choice(game.legal(table.state, seat))
    return move_msg(TOKENS[seat], command, command_id, seat=seat, expected_version=table.version)


async def play(reducer: Reducer, store: EventStore, moves: int, tag: str, rng: random.Random) -> None:
    for i in range(moves):
        (outcome,) = await reducer.process([a_move(await current(store), f"{tag}{i}", rng)])
        assert outcome.status == "accepted", outcome


async def test_the_reducer_marks_a_table_the_store_lost_versions_of_and_plays_on(redis: Any) -> None:
    store = EventStore(redis)
    reducer = Reducer(store, TableCache(store, noticed=noticer(redis, "reducer")))
    rng = random.Random(1)
    await reducer.process([open_msg(GAME, TOKENS, options={"deck_size": 60, "hand_size": 20})])
    await play(reducer, store, 5, "a", rng)
    moment, lost_from = await Moment.taken(redis), (await current(store)).version
    await play(reducer, store, 4, "b", rng)  # acknowledged, then lost
    held = reducer.cache.get("g")
    assert held is not None
    before = rewinds("reducer")
    await moment.restored(redis)

    # The client acts on the last version it was answered: the store no longer has it.
    game = registry.get(GAME)
    seat = sorted(game.actors(held.state))[0]
    late = move_msg(TOKENS[seat], game.legal(held.state, seat)[0], "late", expected_version=held.version)
    (refused,) = await reducer.process([late])
    assert refused.status == "rejected" and refused.code == "stale_version", refused
    assert refused.details["current"] == lost_from, "judged against the store, not the version it lost"
    assert rewinds("reducer") == before + 1
    (mark,) = await marks(redis, KEYS)
    assert (mark.store, mark.held, mark.last_command, mark.by) == (lost_from, held.version, "b3", "reducer")
    assert all(covered([mark], v) for v in range(lost_from + 1, held.version + 1))
    assert not covered([mark], lost_from)

    # And it plays on from the store's version: the lost versions are written again, marked.
    await play(reducer, store, 6, "c", rng)
    assert (await current(store)).version > held.version
    assert rewinds("reducer") == before + 1, "noticed once"


async def test_the_reducer_checks_the_store_before_refusing_a_move_on_its_version(redis: Any) -> None:
    """A client that read the store's (older) version acts on it: the reducer, which
    holds the table further on, asks the store before refusing it as stale."""
    store = EventStore(redis)
    reducer = Reducer(store, TableCache(store, noticed=noticer(redis, "reducer")))
    rng = random.Random(5)
    await reducer.process([open_msg(GAME, TOKENS, options={"deck_size": 60, "hand_size": 20})])
    await play(reducer, store, 3, "a", rng)
    moment, lost_from = await Moment.taken(redis), (await current(store)).version
    await play(reducer, store, 3, "b", rng)
    held = reducer.cache.get("g")
    assert held is not None
    await moment.restored(redis)

    (outcome,) = await reducer.process([a_move(await current(store), "on-the-store", rng)])
    assert outcome.status == "accepted" and outcome.first == lost_from + 1, outcome
    (mark,) = await marks(redis, KEYS)
    assert (mark.held, mark.store, mark.by) == (held.version, lost_from, "reducer")


async def test_the_validator_rereads_a_table_the_store_lost_or_replaced(redis: Any) -> None:
    store = EventStore(redis)
    writer = Reducer(store, TableCache(store))
    validator = Validator(TableCache(store, noticed=noticer(redis, "validator")), redis)
    rng = random.Random(2)
    await writer.process([open_msg(GAME, TOKENS, options={"deck_size": 60, "hand_size": 20})])
    await play(writer, store, 3, "a", rng)
    moment, lost_from = await Moment.taken(redis), (await current(store)).version
    await play(writer, store, 3, "b", rng)
    await validate(redis, validator, [a_move(await current(store), "seen", rng)])  # it holds the table
    held = validator.cache.get("g")
    assert held is not None
    await moment.restored(redis)

    # Behind it: a move at the store's version passes (it used to be refused
    # against the version the store lost, forever).
    before = rewinds("validator")
    (passed,) = await validate(redis, validator, [a_move(await current(store), "next", rng)])
    assert passed.decided is not None and passed.decided.version == lost_from
    assert rewinds("validator") == before + 1
    (mark,) = await marks(redis, KEYS)
    assert (mark.held, mark.store, mark.by) == (held.version, lost_from, "validator")

    # Past it again with another history: its table at that version is another one.
    other = Reducer(store, TableCache(store))
    await play(other, store, held.version - lost_from + 2, "c", rng)
    stale = TableCache(store, noticed=noticer(redis, "validator"))
    stale.put("g", held)  # what a validator that saw the lost history still holds
    validator = Validator(stale, redis)
    table = await current(store)
    (passed,) = await validate(redis, validator, [a_move(table, "after", rng)])
    assert passed.decided is not None
    assert (passed.decided.version, passed.decided.last_command) == (table.version, table.last_command)
    assert rewinds("validator") == before + 2


async def test_a_decision_on_another_history_is_never_reused(redis: Any) -> None:
    """A decision made at version V of a table the store has since replaced at V
    (a validator that read the lost history) is decided afresh by the reducer."""
    store = EventStore(redis)
    reducer = Reducer(store, TableCache(store))
    rng = random.Random(3)
    await reducer.process([open_msg(GAME, TOKENS, options={"deck_size": 60, "hand_size": 20})])
    await play(reducer, store, 3, "a", rng)
    table = await current(store)
    move = a_move(table, "m", rng)
    (good,) = await validate(redis, Validator(TableCache(store), redis), [move])
    assert good.decided is not None and good.decided.last_command == table.last_command
    forged = Decided(
        version=table.version, last_command="a command of a lost history", command=b"", events=(b"junk",)
    )
    reused = metrics.DECISIONS_REUSED._value.get()
    (outcome,) = await reducer.process([type(good)(**{**_fields(good), "decided": forged})])
    assert outcome.status == "accepted"
    assert metrics.DECISIONS_REUSED._value.get() == reused, "decided afresh"
    assert (await current(store)).version > table.version


@pytest.mark.parametrize("apart", [False, True], ids=["on-the-store", "apart"])
async def test_the_projector_writes_again_the_models_of_a_table_the_store_lost_versions_of(
    redis: Any, read: Any, apart: bool
) -> None:
    store = EventStore(redis)
    target = read if apart else redis
    if apart:
        from shared.readmodels.server import mark_ready

        await mark_ready(read, 1)
    reducer = Reducer(store, TableCache(store))
    projector = Projector(TableCache(store, noticed=noticer(redis, PROJECTOR)), redis, target)
    await redis.xgroup_create(partition_feed(0), PROJECTOR, id="0", mkstream=True)
    rng = random.Random(4)
    await reducer.process([open_msg(GAME, TOKENS, options={"deck_size": 60, "hand_size": 20})])
    await play(reducer, store, 4, "a", rng)
    await project(redis, projector)
    moment = await Moment.taken(redis)
    await play(reducer, store, 5, "b", rng)
    await project(redis, projector)
    lost = (await current(store)).version
    await moment.restored(redis)

    # Another history from the moment on, shorter and then longer than the lost one.
    fresh = Reducer(store, TableCache(store))
    await play(fresh, store, 2, "c", rng)
    before = rewinds(PROJECTOR)
    await project(redis, projector)
    assert rewinds(PROJECTOR) == before + 1
    assert await rebuild_games(redis, [KEYS], False, read=target) == [], "the models are the log's"
    await play(fresh, store, 6, "d", rng)
    assert (await current(store)).version > lost
    await project(redis, projector)
    assert await rebuild_games(redis, [KEYS], False, read=target) == [], "and stay the log's"
    assert rewinds(PROJECTOR) == before + 1
    assert [m.by for m in await marks(redis, KEYS)] == [PROJECTOR]


async def validate(redis: Any, validator: Validator, msgs: list[CommandMsg]) -> list[CommandMsg]:
    """The validator's handler over one batch; what it passed on."""
    stream = validated_stream(0)
    last = (await redis.xrevrange(stream, count=1) or [(b"0-0", {})])[0][0]
    batch = Batch([(command_stream(0), f"1-{i}".encode(), {b"m": encode(m)}) for i, m in enumerate(msgs)])
    await validator.handle(batch)
    return [decode_command(fields[b"m"]) for _, fields in await redis.xrange(stream, min=f"({last.decode()}")]


async def project(redis: Any, projector: Projector) -> None:
    """Everything new on the partition feed, through the projector's handler."""
    feed = partition_feed(0)
    while reply := await redis.xreadgroup(PROJECTOR, "p", {feed: ">"}, count=50):
        await projector.handle(Batch([(feed, entry_id, fields) for entry_id, fields in reply[0][1]]))


def _fields(msg: CommandMsg) -> dict[str, Any]:
    return {f: getattr(msg, f) for f in msg.__struct_fields__}
