"""The one host of platform aggregates against a real Valkey: for every kind of
platform aggregate (player accounts, arenas, casual invitations, tournaments) a
load after thousands of events answers exactly what a fold of the whole stream
answers, while reading at most ``aggregate_snapshot_every`` events from the store;
a snapshot that cannot be trusted is ignored and replaced; concurrent writers lose
nothing; every kind's events get the one event id; a ladder rates a table once."""

from __future__ import annotations

import asyncio
import hashlib
import random
from collections.abc import Callable, Iterator
from typing import Any

import msgspec
import pytest

from services.platform.players import Ladders
from services.platform.writer import Tournaments
from shared.arenas import events as arena_events
from shared.arenas.commands import ArenaCommandUnion, Join, Leave
from shared.arenas.keys import arena_keys
from shared.arenas.rules import decide as decide_arena
from shared.arenas.state import ArenaState
from shared.arenas.store import ARENAS
from shared.casual import events as casual_events
from shared.casual.commands import CasualSeat
from shared.casual.keys import casual_keys
from shared.casual.store import INVITATIONS
from shared.eventstore import aggregates, snapshots
from shared.eventstore.aggregates import Aggregate, Busy, Loaded
from shared.eventstore.envelope import EventEnvelope
from shared.eventstore.keys import GameKeys
from shared.eventstore.store import AppendRequest, EventStore
from shared.infra.redis_client import connect
from shared.kernel.rng import Rng
from shared.ladders.events import Rated, RatedPlacing
from shared.ladders.keys import ladder_board, ladder_keys
from shared.players import events as player_events
from shared.players.keys import player_keys
from shared.players.store import ACCOUNTS
from shared.tournaments import events as tournament_events
from shared.tournaments.commands import Create, Register, Withdraw
from shared.tournaments.decide import decide as decide_tournament
from shared.tournaments.keys import tournament_keys
from shared.tournaments.store import TOURNAMENTS

pytestmark = pytest.mark.integration

PARTITIONS = 4
EVERY = 100
#: Events written to each aggregate: enough for dozens of snapshots.
MANY = 3_000


def _every(monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    """Snapshots every ``n`` events in this process (the setting ``aggregate_snapshot_every``)."""
    monkeypatch.setattr(aggregates, "snapshot_every", lambda: n)


@pytest.fixture(autouse=True)
def _snapshot_every(monkeypatch: pytest.MonkeyPatch) -> None:
    _every(monkeypatch, EVERY)


def test_the_setting_names_how_far_a_snapshot_may_fall_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.undo()
    monkeypatch.setenv("ZIGGURAT_AGGREGATE_SNAPSHOT_EVERY", "37")
    aggregates.snapshot_every.cache_clear()
    try:
        assert aggregates.snapshot_every() == 37
    finally:
        aggregates.snapshot_every.cache_clear()


def _key_hash(i: int) -> str:
    return hashlib.sha256(str(i).encode()).hexdigest()


def _player_events() -> Iterator[Any]:
    yield player_events.Registered(player_id="pa", name="Ann", key_hash=_key_hash(0))
    for i in range(1, MANY):
        yield player_events.KeyRotated(key_hash=_key_hash(i), at_ms=i)


def _arena_events() -> Iterator[Any]:
    yield arena_events.Created(
        arena_id="blitz", game="highcard", game_options={}, seats=2, starts_at_ms=0, ends_at_ms=10**12
    )
    for i in range(1, MANY):
        player = f"p{i % 40}"
        yield arena_events.Joined(player_id=player, at_ms=i) if i % 2 else arena_events.Left(player_id=player)


def _casual_events() -> Iterator[Any]:
    seats = (CasualSeat(player_id="host"), CasualSeat(player_id="guest"))
    yield casual_events.Invited(
        invitation_id="inv", host="host", game="highcard", game_options={}, seats=seats, rated=True
    )
    # Not a stream the rules would write (an invitation has a handful of events),
    # but one its fold takes: each event moves the state.
    for i in range(1, MANY):
        if i % 3 == 0:
            yield casual_events.Declined(player_id="guest", at_ms=i)
        elif i % 3 == 1:
            yield casual_events.Opened(table_id=f"t{i}", at_ms=i)
        else:
            yield casual_events.Accepted(player_id="guest", at_ms=i)


def _tournament_events() -> Iterator[Any]:
    create = Create(tournament_id="cup", game="highcard", seats_per_table=2, rounds=3)
    yield from decide_tournament(None, create, Rng(bytes(32), 0))
    for i in range(1, 41):
        yield tournament_events.Registered(player_id=f"p{i}", name=f"P{i}", kind="human", seed=i)
    for i in range(41, MANY):
        yield tournament_events.Withdrew(player_id=f"p{i % 40 + 1}")


KINDS: list[tuple[Aggregate[Any, Any], Callable[[str, int], GameKeys], str, Callable[[], Iterator[Any]]]] = [
    (ACCOUNTS, player_keys, "pa", _player_events),
    (ARENAS, arena_keys, "blitz", _arena_events),
    (INVITATIONS, casual_keys, "inv", _casual_events),
    (TOURNAMENTS, tournament_keys, "cup", _tournament_events),
]
IDS = [aggregate.prefix for aggregate, *_ in KINDS]


def _envelopes(keys: GameKeys, after: int, events: list[Any]) -> list[EventEnvelope]:
    return [
        EventEnvelope(
            game_id=keys.game_id,
            partition=keys.partition,
            version=after + i,
            event_id=f"{keys.game_id}:{after + i}",
            command_id=f"c{after + 1}",
            correlation_id="",
            server_time=0,
            seat=None,
            payload=msgspec.msgpack.encode(event),
        )
        for i, event in enumerate(events, 1)
    ]


async def _append(store: EventStore, keys: GameKeys, after: int, events: list[Any]) -> list[EventEnvelope]:
    envelopes = _envelopes(keys, after, events)
    outcome = await store.append(
        AppendRequest(
            keys=keys, expected=after, command_id=f"c{after + 1}", command=None, envelopes=envelopes
        )
    )
    assert outcome.status == "appended", outcome
    return envelopes


async def _write(
    aggregate: Aggregate[Any, Any], store: EventStore, keys: GameKeys, events: list[Any], held: Loaded[Any]
) -> Loaded[Any]:
    """Append ``events`` after ``held`` in one request and keep the snapshot, as a writer does."""
    envelopes = await _append(store, keys, held.version, events)
    return await aggregate.appended(store, keys, held, events, envelopes)


async def _append_raw(store: EventStore, keys: GameKeys, events: list[Any], after: int = 0) -> None:
    """Append without keeping any snapshot: a stream written before snapshots existed."""
    for start in range(0, len(events), 500):
        await _append(store, keys, after + start, events[start : start + 500])


async def _stored_snapshot(store: EventStore, aggregate: Aggregate[Any, Any], keys: GameKeys) -> int | None:
    """The version of the stored snapshot, if it is one this code trusts."""
    found = await store.load_snapshot(keys)
    if found is None:
        return None
    snap = snapshots.decode_aggregate(found[1], aggregate.prefix, aggregate.fingerprint)
    assert snap is not None and snap.version == found[0]
    return snap.version


@pytest.mark.parametrize(("aggregate", "keys_of", "aggregate_id", "events_of"), KINDS, ids=IDS)
async def test_a_load_after_thousands_of_events_folds_at_most_a_snapshots_worth(
    redis: Any,
    aggregate: Aggregate[Any, Any],
    keys_of: Callable[[str, int], GameKeys],
    aggregate_id: str,
    events_of: Callable[[], Iterator[Any]],
) -> None:
    store = EventStore(redis)
    keys = keys_of(aggregate_id, PARTITIONS)
    events = list(events_of())
    rng = random.Random(7)
    held = Loaded[Any](0, None)
    written = 0
    checked = 0
    while written < len(events):
        # Appends of one to a dozen events: the boundaries fall inside them too.
        size = rng.randint(1, 12)
        held = await _write(aggregate, store, keys, events[written : written + size], held)
        written = held.version
        if written - checked >= 250 or written == len(events):
            checked = written
            loaded = await aggregate.current(store, keys)
            assert loaded.version == written
            assert loaded.state == aggregate.fold(events[:written], None), f"at {written}"
            assert loaded.read <= EVERY, f"{loaded.read} events read at version {written}"
    assert len(events) >= MANY
    # The snapshot a load started from is the one its writers kept, and a process
    # that holds the state reads only what is new.
    snapshot = await _stored_snapshot(store, aggregate, keys)
    assert snapshot is not None and written - EVERY < snapshot <= written
    again = await aggregate.current(store, keys, held)
    assert (again.version, again.read, again.state) == (written, 0, held.state)


@pytest.mark.parametrize(("aggregate", "keys_of", "aggregate_id", "events_of"), KINDS, ids=IDS)
async def test_a_stream_without_a_snapshot_is_folded_once_then_read_from_its_snapshot(
    redis: Any,
    aggregate: Aggregate[Any, Any],
    keys_of: Callable[[str, int], GameKeys],
    aggregate_id: str,
    events_of: Callable[[], Iterator[Any]],
) -> None:
    store = EventStore(redis)
    keys = keys_of(aggregate_id, PARTITIONS)
    events = list(events_of())
    await _append_raw(store, keys, events)
    full = aggregate.fold(events, None)
    first = await aggregate.current(store, keys)
    assert (first.version, first.read, first.state) == (len(events), len(events), full)
    assert await _stored_snapshot(store, aggregate, keys) == len(events)
    second = await aggregate.current(store, keys)
    assert (second.version, second.read, second.state) == (len(events), 1, full)


def _spoilers(good: bytes, twin: bytes) -> dict[str, dict[str, Any]]:
    """Snapshot hashes no load may trust, by what is wrong with them. Each holds the
    twin's state (a wrong answer), and all is right with it but the one thing named."""
    ours = msgspec.msgpack.decode(good, type=snapshots.AggregateSnapshot)
    theirs = msgspec.msgpack.decode(twin, type=snapshots.AggregateSnapshot)
    assert theirs.version == ours.version and theirs.state != ours.state
    wrong = msgspec.structs.replace(theirs, anchor=ours.anchor)

    def held(snap: snapshots.AggregateSnapshot) -> bytes:
        return msgspec.msgpack.encode(snap)

    return {
        "another stream": {"version": ours.version, "state": twin},
        "older rules": {
            "version": ours.version,
            "state": held(msgspec.structs.replace(wrong, fingerprint=b"old")),
        },
        "another kind": {
            "version": ours.version,
            "state": held(msgspec.structs.replace(wrong, kind="ladder")),
        },
        "state of another type": {
            "version": ours.version,
            "state": held(msgspec.structs.replace(ours, state=msgspec.msgpack.encode({"not": "a state"}))),
        },
        "past the end": {
            "version": ours.version + 50,
            "state": held(msgspec.structs.replace(ours, version=ours.version + 50)),
        },
        "garbage": {"version": ours.version, "state": b"\x93garbage"},
        "version not a number": {"version": "twelve", "state": good},
        "no state": {"version": ours.version},
        "state without a version": {"state": held(wrong)},
    }


@pytest.mark.parametrize(("aggregate", "keys_of", "aggregate_id", "events_of"), KINDS, ids=IDS)
async def test_a_snapshot_it_cannot_trust_is_ignored_and_replaced(
    redis: Any,
    aggregate: Aggregate[Any, Any],
    keys_of: Callable[[str, int], GameKeys],
    aggregate_id: str,
    events_of: Callable[[], Iterator[Any]],
) -> None:
    store = EventStore(redis)
    events = list(events_of())[: EVERY * 3 + 17]
    keys = keys_of(aggregate_id, PARTITIONS)
    # Another aggregate of the same kind and length, whose state differs.
    twin = keys_of(f"{aggregate_id}-twin", PARTITIONS)
    twin_events = events[:1] + events[:0:-1]
    await _append_raw(store, keys, events)
    await _append_raw(store, twin, twin_events)
    full = aggregate.fold(events, None)
    assert aggregate.fold(twin_events, None) != full
    await aggregate.current(store, keys)
    await aggregate.current(store, twin)
    good = await store.load_snapshot(keys)
    other = await store.load_snapshot(twin)
    assert good is not None and other is not None
    for what, spoiled in _spoilers(good[1], other[1]).items():
        await redis.delete(keys.snapshot)
        await redis.hset(keys.snapshot, mapping=spoiled)
        loaded = await aggregate.current(store, keys)
        assert (loaded.version, loaded.state) == (len(events), full), what
        assert await _stored_snapshot(store, aggregate, keys) == len(events), f"{what}: not replaced"
        again = await aggregate.current(store, keys)
        assert (again.read, again.state) == (1, full), what


async def test_a_short_streams_untrusted_snapshot_is_replaced_too(redis: Any) -> None:
    store = EventStore(redis)
    keys = player_keys("pa", PARTITIONS)
    events = list(_player_events())[:5]
    await _append_raw(store, keys, events)
    assert (await ACCOUNTS.current(store, keys)).read == 5
    assert await store.load_snapshot(keys) is None, "a short stream needs no snapshot"
    await redis.hset(keys.snapshot, mapping={"version": 3, "state": b"junk"})
    loaded = await ACCOUNTS.current(store, keys)
    assert loaded.state == ACCOUNTS.fold(events, None)
    assert await _stored_snapshot(store, ACCOUNTS, keys) == 5


async def test_a_late_writer_never_moves_the_snapshot_back(
    redis: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    _every(monkeypatch, 10)
    store = EventStore(redis)
    keys = player_keys("pa", PARTITIONS)
    events = list(_player_events())[:40]
    await _append_raw(store, keys, events[:29])
    late = await _append(store, keys, 29, events[29:30])  # its writer stalls before keeping a snapshot
    await _append_raw(store, keys, events[30:], after=30)
    await ACCOUNTS.current(store, keys)
    assert await _stored_snapshot(store, ACCOUNTS, keys) == 40
    before = Loaded(29, ACCOUNTS.fold(events[:29], None))
    after = await ACCOUNTS.appended(store, keys, before, events[29:30], late)
    assert after.state == ACCOUNTS.fold(events[:30], None)
    assert await _stored_snapshot(store, ACCOUNTS, keys) == 40


async def test_concurrent_writers_lose_no_event(
    redis: Any, valkey: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four processes' worth of clients join and leave one arena at once, each
    keeping snapshots every 7 events: every command lands exactly once, and the
    load equals the fold of what is stored."""
    _every(monkeypatch, 7)
    clients = [connect(valkey.url) for _ in range(4)]
    stores = [EventStore(c) for c in clients]
    keys = arena_keys("rush", PARTITIONS)
    created = msgspec.structs.replace(next(_arena_events()), arena_id="rush")
    await _append(stores[0], keys, 0, [created])

    async def player(n: int) -> None:
        store = stores[n % len(stores)]
        for i in range(30):
            command: ArenaCommandUnion = (
                Join(player_id=f"p{n}", at_ms=i) if i % 2 == 0 else Leave(player_id=f"p{n}", at_ms=i)
            )

            def rules(state: ArenaState | None, command: ArenaCommandUnion = command) -> list[Any]:
                return decide_arena(state, command)

            while True:
                try:
                    await ARENAS.execute(store, keys, rules, f"p{n}:{i}", i)
                    break
                except Busy:
                    await asyncio.sleep(0)  # the same command id again: it lands once

    try:
        await asyncio.gather(*(player(n) for n in range(12)))
        stored = await stores[0].read(keys)
        assert [e.version for e in stored] == list(range(1, 1 + 1 + 12 * 30))
        landed = sorted(e.command_id for e in stored[1:])
        assert landed == sorted(f"p{n}:{i}" for n in range(12) for i in range(30))
        loaded = await ARENAS.current(stores[1], keys)
        assert loaded.state == ARENAS.fold((ARENAS.decode(e.payload) for e in stored), None)
        assert loaded.state is not None and loaded.state.waiting == ()
        assert loaded.read <= 7
    finally:
        for c in clients:
            await c.aclose()


async def test_the_tournament_writer_keeps_snapshots_and_a_restart_starts_from_one(
    redis: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    every = 20
    _every(monkeypatch, every)
    writer = Tournaments(EventStore(redis), PARTITIONS)
    tid = "open"
    outcome = await writer.execute(
        tid, Create(tournament_id=tid, game="highcard", seats_per_table=2, rounds=3), "c"
    )
    assert outcome.status == "accepted", outcome
    for i in range(120):
        assert (
            await writer.execute(tid, Register(player_id=f"p{i}", name=f"P{i}"), f"r{i}")
        ).status == "accepted"
    for i in range(0, 120, 2):
        assert (await writer.execute(tid, Withdraw(player_id=f"p{i}"), f"w{i}")).status == "accepted"
    version, state = await writer.current(tid)
    assert version == 181
    keys = tournament_keys(tid, PARTITIONS)
    snapshot = await _stored_snapshot(writer.store, TOURNAMENTS, keys)
    assert snapshot is not None and version - every < snapshot <= version
    store = writer.store
    stored = await store.read(keys)
    assert state == TOURNAMENTS.fold((TOURNAMENTS.decode(e.payload) for e in stored), None)
    restarted = Tournaments(EventStore(redis), PARTITIONS)
    assert await restarted.current(tid) == (version, state)
    assert (await TOURNAMENTS.current(store, keys)).read <= every


@pytest.mark.parametrize(("aggregate", "keys_of", "name", "events_of"), KINDS, ids=IDS)
async def test_every_kind_appends_with_the_one_event_id_and_reads_the_old_one(
    redis: Any,
    aggregate: Aggregate[Any, Any],
    keys_of: Callable[[str, int], GameKeys],
    name: str,
    events_of: Callable[[], Iterator[Any]],
) -> None:
    """Through the one host every kind's events are ``<namespace>:<id>:<version>``; a
    stream whose first events carry the format stored before (``<id>:<version>``)
    loads as it did; a repeated command id answers the versions of its first append."""
    store = EventStore(redis)
    keys = keys_of(name, PARTITIONS)
    events = events_of()
    await _append(store, keys, 0, [next(events)])  # the old format
    following = [next(events), next(events)]
    done = await aggregate.transact(
        store, keys, lambda _: following, "next", 5, correlation_id="why", command=None
    )
    assert (done.first, done.last, done.version, done.duplicate) == (2, 3, 3, False)
    stored = await store.read(keys)
    assert [e.event_id for e in stored] == [
        f"{name}:1",
        f"{keys.namespace}:{name}:2",
        f"{keys.namespace}:{name}:3",
    ]
    assert {e.correlation_id for e in stored[1:]} == {"why"}
    assert done.state == aggregate.fold((aggregate.decode(e.payload) for e in stored), None)
    assert (await aggregate.current(store, keys)).state == done.state

    def never(_: Any) -> list[Any]:
        raise AssertionError("a repeat is not decided again")

    again = await aggregate.transact(store, keys, never, "next", 6)
    assert (again.first, again.last, again.duplicate, again.events) == (2, 3, True, [])
    assert len(await store.read(keys)) == 3


async def test_a_ladder_rates_a_table_once_through_the_host_and_a_redelivery_repairs_its_board(
    redis: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    _every(monkeypatch, 1)
    ladders = Ladders(EventStore(redis), PARTITIONS)
    rated = Rated(
        table_id="t1",
        source="casual",
        placings=(RatedPlacing(player_id="ann", place=1), RatedPlacing(player_id="bob", place=2)),
    )
    await ladders.record("highcard", rated)
    keys = ladder_keys("highcard", PARTITIONS)
    [stored] = await ladders.store.read(keys)
    assert (stored.event_id, stored.command_id, stored.correlation_id) == (
        "ladder:highcard:1",
        "table:t1",
        "casual",
    )
    board = await redis.get(ladder_board("highcard"))
    await redis.delete(ladder_board("highcard"))  # a crash after the append lost it
    await Ladders(EventStore(redis), PARTITIONS).record("highcard", rated)  # another process, redelivered
    assert len(await ladders.store.read(keys)) == 1
    assert await redis.get(ladder_board("highcard")) == board
    version, state = await Ladders(EventStore(redis), PARTITIONS).current("highcard")
    assert version == 1 and state.tables == ("t1",) and set(state.entries) == {"ann", "bob"}
    assert not await redis.exists(keys.snapshot)  # ladders keep none
