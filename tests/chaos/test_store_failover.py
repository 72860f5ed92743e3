"""Losing a node of the store under load: nothing acknowledged is lost (under the
replicated durability levels), nobody stops, and a store that went back is noticed.

A store of three primaries with a replica each, on loopback; two reducers;
a bot per partition playing table after table of its own partition, every
move's idempotency key and acknowledged version recorded. In turn, while
every partition is taking moves:

* ``kill``: SIGKILL a primary (not the one named in the store's URL);
* ``kill-url``: SIGKILL the node named in the URL, where every service first
  learnt the cluster's shape;
* ``lag``: cut a replica's link for a few seconds (it falls behind), then
  SIGKILL its primary, so the stale replica is promoted;
* ``pause``: SIGSTOP a primary longer than the failover timeout, then SIGCONT:
  it comes back believing it is still the primary.

A killed node is started again once its replica has taken over (it rejoins as
that replica's replica), as an operator would. For each fault the test reads
from the store's own partition feeds (each entry's id is its append's server
time) when moves were accepted again on the partitions of the node that failed,
and how many moves the other partitions took meanwhile against before.

Afterwards, from the store itself: every acknowledged move is there exactly
once, at the version it was acknowledged with; no table has two events at one
version (its stream, every partition feed); every table passes the end-to-end
checks (projections equal a rebuild, feeds, fairness); nothing is pending.
Under ``replicated`` and ``replicated-fsync`` nothing acknowledged may be lost.
Under ``local`` the loss is printed, and every lost move must lie in a version
range its table is marked with (shared/eventstore/rewinds.py): the store's
going back was noticed, not trusted past.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from redis.crc import key_slot

from shared.cli import botclient
from shared.eventstore.keys import GameKeys, partition_feed, partition_of
from shared.eventstore.rewinds import covered, marks
from shared.eventstore.store import EventStore
from shared.eventstore.tables import fold_all
from shared.infra.durability import Level, replicated
from shared.infra.launcher import Stack
from shared.infra.redis_client import connect
from shared.infra.valkey_cluster import Shard, ValkeyCluster
from shared.infra.valkey_server import ValkeyServer
from shared.messaging.messages import client_key
from shared.readmodels.rebuilder import rebuild_games
from tests.chaos.test_kill_restart import FAST_RECLAIM, _pending
from tests.e2e.checks import check_finished_table
from tests.waiting import eventually, until

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(900)]
PARTITIONS = 8
#: ``cluster-node-timeout``: a silent primary is failed over about one and a half of these later.
NODE_TIMEOUT_MS = 2000
TTL_S = 3.0
ENV = {**FAST_RECLAIM, "ZIGGURAT_LEASE_TTL_S": str(TTL_S)}
#: How long a replica's link stays cut before its primary is killed.
LAG_S = 3.0
#: Moves are accepted again on a failed node's partitions within this many seconds
#: of the fault (measured: 4-8 s; the failover's own share is about 1.5 node
#: timeouts, the rest the clients' retries and, under the replicated levels, the
#: killed node's restart as a replica, without which its shard has none).
RECOVERY_BOUND_S = 30.0
#: Meanwhile the other partitions take at least this share of the moves they took
#: in as long a while before the fault (measured: 0.7-3; a stall of every
#: partition, as before these changes, takes none for seconds).
KEEP_SHARE = 0.4
#: The while before a fault their rate is measured over.
BEFORE_S = 6.0
#: Games of 150 moves (about 8 s each here).
LONG_GAME = {"deck_size": 150, "hand_size": 50}
#: Tables each bot opens before the first fault: a table is opened on whichever
#: shard holds the games index (and its own partition's), so a bot that opened
#: its next one during a failover of those would measure the opening.
TABLES_AHEAD = 8

Fault = Callable[["Run"], Awaitable[tuple[list[int], int]]]


@dataclass
class Run:
    stack: Stack
    redis: Any  # the test's own cluster client
    level: Level
    #: The partitions of each node failed so far: the next fault picks another shard if it can.
    failed: list[int] = field(default_factory=list)

    @property
    def store(self) -> ValkeyCluster:
        assert self.stack.store is not None
        return self.stack.store


SCENARIOS: dict[Level, list[str]] = {
    "replicated": ["kill", "kill-url", "lag", "pause"],
    "local": ["kill", "kill-url", "lag", "pause"],
    "replicated-fsync": ["lag", "pause"],
}


@pytest.mark.parametrize("level", list(SCENARIOS))
async def test_losing_a_node_of_the_store_under_load(tmp_path: Path, level: Level) -> None:
    stack = Stack(
        tmp_path,
        partitions=PARTITIONS,
        cluster=True,
        replicas=1,
        reducers=2,
        durability=level,
        node_timeout_ms=NODE_TIMEOUT_MS,
        env=ENV,
    ).start(timeout=120)
    redis = connect(stack.redis_url or "", cluster=True)
    run = Run(stack, redis, level)
    try:
        owners = {p: run.store.shard_of(partition_feed(p)).primary.port for p in range(PARTITIONS)}
        assert len(set(owners.values())) == 3, f"every primary serves partitions: {owners}"
        async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
            played: dict[str, Played] = {}
            stop = asyncio.Event()
            opened = [asyncio.Event() for _ in range(PARTITIONS)]
            load = asyncio.gather(
                *(_play_in(api, p, played, stop, random.Random(p), opened[p]) for p in range(PARTITIONS))
            )
            await asyncio.wait_for(asyncio.gather(*(e.wait() for e in opened)), 120)
            await _every_partition_busy(redis)
            await asyncio.sleep(BEFORE_S)  # the rate before the first fault is the steady one
            for name in SCENARIOS[level]:
                await _endure(run, name, FAULTS[name])
                assert not load.done(), "the load stopped early"
            stop.set()  # every game in progress plays to its end
            await load
            await _check_the_store(run, api, played)
    finally:
        await redis.aclose()
        stack.stop()


async def _endure(run: Run, name: str, fault: Fault) -> None:
    """One fault under load, and what it cost: when its partitions took moves again,
    and the share of moves the others kept taking."""
    await _every_partition_busy(run.redis)
    victims, at_ms = await fault(run)
    run.failed += victims
    others = [p for p in range(PARTITIONS) if p not in victims]
    delays = {p: await _moves_again_after(run.redis, p, at_ms) for p in victims}
    window_ms = max(3000, round(1000 * max(delays.values())))
    before_ms = round(1000 * BEFORE_S)
    moves = await _moves(run.redis, others, at_ms - before_ms, at_ms + window_ms)
    before = sum(1 for ms, _ in moves if ms < at_ms) / before_ms
    during = sum(1 for ms, _ in moves if ms >= at_ms) / window_ms
    share = during / before
    print(
        f"{run.level}, {name}: moves again on {victims} after {_seconds(delays)}; the other "
        f"partitions took {1000 * during:.0f} moves/s against {1000 * before:.0f} before ({share:.2f}), "
        f"a table of theirs waited {_longest_wait(moves, at_ms, window_ms) / 1000:.1f} s at most"
    )
    assert max(delays.values()) <= RECOVERY_BOUND_S, f"{name}: not within {RECOVERY_BOUND_S:g} s: {delays}"
    assert share >= KEEP_SHARE, f"{name}: the other partitions took {share:.2f} of their moves before"
    await asyncio.to_thread(_settled, run.store)


# ------------------------------------------------------------------ the faults


async def _kill(run: Run) -> tuple[list[int], int]:
    """SIGKILL a primary that serves partitions, not the URL's; start it again once replaced."""
    shard = _pick(run, lambda s: s.primary.port != run.store.nodes[0].port)
    return await _kill_shard(run, shard)


async def _kill_url_node(run: Run) -> tuple[list[int], int]:
    """SIGKILL the node every service's URL names (a primary serving partitions)."""
    shard = _pick(run, lambda s: s.primary.port == run.store.nodes[0].port)
    return await _kill_shard(run, shard)


async def _lag_then_kill(run: Run) -> tuple[list[int], int]:
    """Cut a replica's link for :data:`LAG_S` under load, then SIGKILL its primary:
    the replica promoted lacks the primary's last writes."""
    shard = _pick(run, lambda s: True)
    (replica,) = shard.replicas
    await asyncio.to_thread(run.store.cut_link, replica)
    try:
        await asyncio.sleep(LAG_S)
        return await _kill_shard(run, shard)
    finally:
        await asyncio.to_thread(run.store.heal_link, replica)


async def _pause(run: Run) -> tuple[list[int], int]:
    """SIGSTOP a primary until its replica has replaced it, then SIGCONT: a stale
    primary for a moment, which then follows its successor."""
    shard = _pick(run, lambda s: True)
    await asyncio.to_thread(run.store.pause, shard.primary)
    at_ms = _now_ms()
    try:
        await asyncio.to_thread(_replaced, run.store, shard.primary)
    finally:
        await asyncio.to_thread(run.store.resume, shard.primary)
    return _partitions_of(shard), at_ms


FAULTS: dict[str, Fault] = {"kill": _kill, "kill-url": _kill_url_node, "lag": _lag_then_kill, "pause": _pause}


async def _kill_shard(run: Run, shard: Shard) -> tuple[list[int], int]:
    await asyncio.to_thread(run.store.kill, shard.primary)
    at_ms = _now_ms()
    await asyncio.to_thread(_replaced, run.store, shard.primary)
    await asyncio.to_thread(run.store.restart, shard.primary)
    return _partitions_of(shard), at_ms


def _pick(run: Run, wanted: Callable[[Shard], bool]) -> Shard:
    """A shard whose primary serves partitions, picked by ``wanted``."""
    shards = [s for s in run.store.shards() if _partitions_of(s) and s.replicas and wanted(s)]
    assert shards, "no shard to fail"
    return min(shards, key=lambda s: len(set(_partitions_of(s)) & set(run.failed)))


def _partitions_of(shard: Shard) -> list[int]:
    return [p for p in range(PARTITIONS) if shard.owns(key_slot(partition_feed(p).encode()))]


def _replaced(store: ValkeyCluster, primary: ValkeyServer, timeout: float = 60.0) -> None:
    """Until another node serves the slots ``primary`` served."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if primary.port not in {p.port for p in store.primaries()}:
                return
        except RuntimeError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"{primary.port} was not replaced within {timeout:g} s")


def _settled(store: ValkeyCluster) -> None:
    """Every node back, every slot served, every replica in sync."""
    store.wait_ok(120)
    store.wait_synced(120)


# ------------------------------------------------------------------ the load


@dataclass
class Played:
    """A table played, and every command sent to it (key, final status, version)."""

    table: botclient.Table
    stats: botclient.Stats
    #: Its opening was acknowledged and then lost (a failover under ``local``): 404 since.
    vanished: bool = False


async def _play_in(
    api: httpx.AsyncClient,
    partition: int,
    played: dict[str, Played],
    stop: asyncio.Event,
    rng: random.Random,
    opened: asyncio.Event,
) -> None:
    """Play table after table of one partition, so a stalled partition holds up
    only its own bot: first the :data:`TABLES_AHEAD` it opens at once (``opened``
    is set then), then new ones."""
    ahead = [await _table_in(api, partition) for _ in range(TABLES_AHEAD)]
    opened.set()
    while not stop.is_set():
        table = ahead.pop(0) if ahead else await _table_in(api, partition)
        played[table.table_id] = Played(table, botclient.Stats())
        try:
            final = await botclient.play(api, table, rng, played[table.table_id].stats, pace_s=0.02)
        except httpx.HTTPStatusError as exc:
            if exc.response.json().get("code") != "unknown_table":
                raise
            played[table.table_id].vanished = True
            continue
        assert final["over"]


async def _table_in(api: httpx.AsyncClient, partition: int) -> botclient.Table:
    """A new table of ``partition`` (those of others are left unplayed)."""
    while True:
        table = await botclient.open_table(api, "highcard", 3, LONG_GAME)
        if partition_of(table.table_id, PARTITIONS) == partition:
            return table


async def _every_partition_busy(redis: Any) -> None:
    async def busy() -> bool:
        now = await _server_ms(redis)
        for p in range(PARTITIONS):
            last = await redis.xrevrange(partition_feed(p), count=1)
            if not last or now - _entry_ms(last[0][0]) > 1000:
                return False
        return True

    assert await until(busy, 90), "not every partition was taking moves"


async def _moves_again_after(redis: Any, partition: int, since_ms: int) -> float:
    """Seconds from ``since_ms`` (server time) to the first move appended to the
    partition after it (the feed's ids are append times)."""

    async def appended() -> float | None:
        after = await redis.xrange(partition_feed(partition), min=f"{since_ms + 1}-0", count=1)
        return (_entry_ms(after[0][0]) - since_ms) / 1000 if after else None

    delay = await eventually(appended, 3 * RECOVERY_BOUND_S, every_s=0.1)
    assert delay is not None, f"partition {partition}: no move accepted within {3 * RECOVERY_BOUND_S:g} s"
    return delay


async def _moves(redis: Any, partitions: list[int], from_ms: int, to_ms: int) -> list[tuple[int, bytes]]:
    """The events appended to the partitions in [from_ms, to_ms): (server ms, game id)."""
    found = []
    for p in partitions:
        rows = await redis.xrange(partition_feed(p), min=f"{from_ms}-0", max=f"({to_ms}-0", count=10**6)
        found += [(_entry_ms(entry_id), fields[b"g"]) for entry_id, fields in rows]
    return found


async def _server_ms(redis: Any) -> int:
    seconds, micros = await redis.time()
    return int(seconds) * 1000 + int(micros) // 1000


def _now_ms() -> int:
    """The moment a fault took effect, on the clock of the nodes (they run on this
    machine): asking one of them might ask the one just paused."""
    return time.time_ns() // 1_000_000


def _entry_ms(entry_id: bytes) -> int:
    return int(entry_id.split(b"-")[0])


def _longest_wait(moves: list[tuple[int, bytes]], at_ms: int, window_ms: int) -> int:
    """The longest a table waited (ms) between two moves, the first in the window."""
    by_table: dict[bytes, list[int]] = {}
    for ms, game in sorted(moves):
        by_table.setdefault(game, []).append(ms)
    waits = [b - a for times in by_table.values() for a, b in itertools.pairwise(times) if a >= at_ms]
    return max(waits, default=0)


def _seconds(delays: dict[int, float]) -> str:
    return ", ".join(f"{d:.1f}" for d in delays.values()) + " s"


# ---------------------------------------------------------------- the checks


async def _check_the_store(run: Run, api: httpx.AsyncClient, played: dict[str, Played]) -> None:
    sent = [entry for p in played.values() for entry in p.stats.sent]
    server_errors = Counter(status for _, status, _ in sent if status >= 500)
    assert not server_errors, f"answers a client cannot retry: {server_errors}"
    store = EventStore(run.redis)
    acknowledged = lost = marked = 0
    vanished = [table_id for table_id, p in played.items() if p.vanished]
    assert not (vanished and replicated(run.level)), f"tables lost under {run.level}: {vanished}"
    reopened: list[str] = []  # played to their end, which the store lost
    for table_id, p in played.items():
        keys = GameKeys(table_id, partition_of(table_id, PARTITIONS))
        envelopes = await store.read(keys)
        table = fold_all(envelopes)
        table_marks = await marks(run.redis, keys)
        if table is not None and table.over:
            await check_finished_table(api, run.redis, table_id, PARTITIONS)
        elif not p.vanished:
            reopened.append(table_id)
            assert not replicated(run.level), (
                f"{table_id}: its end was acknowledged under {run.level} and lost"
            )
            assert table_marks, f"{table_id}: its end was lost, and the table is not marked"
            assert await rebuild_games(run.redis, [keys], False) == [], (
                f"{table_id}: models differ from the log"
            )
        applied = {client_key(e.command_id): e.version for e in envelopes}
        marked += bool(table_marks)
        for key, status, version in p.stats.sent:
            if status != 200:
                continue
            acknowledged += 1
            if applied.get(key) == version:
                continue
            lost += 1
            assert version is not None
            assert not replicated(run.level), (
                f"{table_id}: move {key} acknowledged under {run.level} and lost"
            )
            # A move acknowledged and lost: only in a range its table is marked with.
            assert covered(table_marks, version), (
                f"{table_id}: move {key} acknowledged at {version} is not in the store "
                f"(it has {applied.get(key)}) and no mark covers it: {table_marks}"
            )
    assert acknowledged, "no move was accepted"
    for p in range(PARTITIONS):  # every append is in its partition's feed: none twice
        seen = Counter(
            (fields[b"g"], fields[b"v"])
            for _, fields in await run.redis.xrange(partition_feed(p), count=10**7)
        )
        twice = [gv for gv, n in seen.items() if n > 1]
        assert not twice, f"partition {p}: two events at one version: {twice[:5]}"

    async def drained() -> bool:
        return await _pending(run.redis, PARTITIONS) == 0

    assert await until(drained, 60), f"{await _pending(run.redis, PARTITIONS)} entries still pending"
    print(
        f"{run.level}: {len(played)} tables ({len(vanished)} lost whole, {len(reopened)} lost their end), "
        f"{acknowledged} acknowledged moves, {lost} lost ({marked} tables marked as having lost versions)"
    )
