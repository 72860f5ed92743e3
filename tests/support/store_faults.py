"""Failing nodes of a replicated store under load, and measuring what it cost.

Shared by the chaos test (tests/system/test_store_failover.py), which asserts
bounds on these figures, and the failover benchmark (bench/failover.py), which
prints them: the load (a bot per partition playing table after table of its
own partition, every move's idempotency key and acknowledged version recorded),
the faults' building blocks (pick a shard, kill its primary, wait until it is
replaced, let the cluster settle) and the measures, read from the store's own
partition feeds, whose entry ids are their appends' server times.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from redis.crc import key_slot

from shared.cli import botclient
from shared.eventstore.envelope import EventEnvelope
from shared.eventstore.keys import (
    GameKeys,
    command_stream,
    fencing_token,
    partition_feed,
    partition_of,
    reducer_lease,
    validated_stream,
)
from shared.eventstore.store import decode_envelope
from shared.infra.valkey_cluster import Shard, ValkeyCluster
from shared.infra.valkey_server import ValkeyServer
from shared.messaging.messages import client_key
from tests.support.pipeline_load import FAST_RECLAIM
from tests.support.waiting import eventually, until

#: The services' settings for riding failovers quickly: entries left pending by
#: a failure reclaimed after 1 s, replies awaited 3 s, reducer leases of 3 s.
ENV = {**FAST_RECLAIM, "ZIGGURAT_LEASE_TTL_S": "3.0"}

#: Games of 150 moves of the fixture game (about 8 s each in the chaos test).
LONG_GAME = {"deck_size": 150, "hand_size": 50}
#: Tables each bot opens before it plays, enough for every fault of a run:
#: openings land on random partitions until one is the bot's own, so a bot that
#: opened its next table during a failover of any shard would measure the
#: openings rather than its own partition's moves.
TABLES_AHEAD = 16


# ------------------------------------------------------------------ the faults


def partitions_of(shard: Shard, partitions: int) -> list[int]:
    """The partitions whose feeds (and so tables) ``shard`` serves."""
    return [p for p in range(partitions) if shard.owns(key_slot(partition_feed(p).encode()))]


def pick(
    store: ValkeyCluster, partitions: int, failed: Sequence[int], wanted: Callable[[Shard], bool]
) -> Shard:
    """A shard with a replica whose primary serves partitions, picked by ``wanted``;
    of those, the one whose partitions have failed least so far (``failed``)."""
    shards = [s for s in store.shards() if partitions_of(s, partitions) and s.replicas and wanted(s)]
    assert shards, "no shard to fail"
    return min(shards, key=lambda s: len(set(partitions_of(s, partitions)) & set(failed)))


async def kill_shard(store: ValkeyCluster, shard: Shard, partitions: int) -> tuple[list[int], int]:
    """SIGKILL the shard's primary, wait until its replica serves its slots, then
    start it again (it rejoins as that replica's replica, as an operator would
    have it: under the replicated levels a shard without a replica takes no
    writes). Its partitions, and the moment (ms) the kill took effect."""
    await asyncio.to_thread(store.kill, shard.primary)
    at_ms = now_ms()
    await asyncio.to_thread(replaced, store, shard.primary)
    await asyncio.to_thread(store.restart, shard.primary)
    return partitions_of(shard, partitions), at_ms


def replaced(store: ValkeyCluster, primary: ValkeyServer, timeout: float = 60.0) -> None:
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


def settled(store: ValkeyCluster) -> None:
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


async def play_in(
    api: httpx.AsyncClient,
    partition: int,
    partitions: int,
    played: dict[str, Played],
    stop: asyncio.Event,
    rng: random.Random,
    opened: asyncio.Event,
    pace_s: float = 0.02,
) -> None:
    """Play table after table of one partition, so a stalled partition holds up
    only its own bot: first the :data:`TABLES_AHEAD` it opens at once (``opened``
    is set then), then new ones, until ``stop`` (the game in progress is played
    to its end)."""
    ahead = [await table_in(api, partition, partitions) for _ in range(TABLES_AHEAD)]
    opened.set()
    while not stop.is_set():
        table = ahead.pop(0) if ahead else await table_in(api, partition, partitions)
        played[table.table_id] = Played(table, botclient.Stats())
        try:
            final = await botclient.play(api, table, rng, played[table.table_id].stats, pace_s=pace_s)
        except httpx.HTTPStatusError as exc:
            if exc.response.json().get("code") != "unknown_table":
                raise
            played[table.table_id].vanished = True
            continue
        assert final["over"]


async def table_in(api: httpx.AsyncClient, partition: int, partitions: int) -> botclient.Table:
    """A new table of ``partition`` (those of others are left unplayed)."""
    while True:
        table = await botclient.open_table(api, "highcard", 3, LONG_GAME)
        if partition_of(table.table_id, partitions) == partition:
            return table


def lost_moves(played: Played, envelopes: Sequence[EventEnvelope]) -> tuple[int, list[tuple[str, int]]]:
    """How many of the table's moves were acknowledged, and those acknowledged
    (key, version) that its stream (``envelopes``) does not hold at that version."""
    applied = {client_key(e.command_id): e.version for e in envelopes}
    acknowledged = [(key, version) for key, status, version in played.stats.sent if status == 200]
    lost = []
    for key, version in acknowledged:
        assert version is not None, f"{key}: acknowledged without a version"
        if applied.get(key) != version:
            lost.append((key, version))
    return len(acknowledged), lost


# ------------------------------------------------------------------ the measures


@dataclass(frozen=True)
class Cost:
    """What one fault cost the load."""

    #: Seconds from the fault to the first move accepted again, per partition of the failed node.
    delays: dict[int, float]
    #: The other partitions' moves per second over a while before the fault, and from it
    #: until the failed node's partitions all took moves again (at least 3 s).
    before_per_s: float
    during_per_s: float
    #: The longest a table of the other partitions waited between two moves meanwhile (s).
    longest_wait_s: float

    @property
    def recovery_s(self) -> float:
        return max(self.delays.values())

    @property
    def share(self) -> float:
        """The other partitions' rate during the fault as a share of theirs before."""
        return self.during_per_s / self.before_per_s if self.before_per_s else float("nan")


async def cost(
    redis: Any, partitions: int, victims: list[int], at_ms: int, before_s: float, timeout_s: float
) -> Cost:
    """Measure a fault that took effect at ``at_ms`` on ``victims``' node from the
    partition feeds: each victim partition's first move after it (waiting up to
    ``timeout_s`` for it), and the other partitions' moves before and during."""
    delays = {p: await moves_again_after(redis, p, at_ms, timeout_s) for p in victims}
    window_ms = max(3000, round(1000 * max(delays.values())))
    before_ms = round(1000 * before_s)
    others = [p for p in range(partitions) if p not in victims]
    found = await moves(redis, others, at_ms - before_ms, at_ms + window_ms)
    before = sum(1 for ms, _ in found if ms < at_ms) / before_ms
    during = sum(1 for ms, _ in found if ms >= at_ms) / window_ms
    return Cost(delays, 1000 * before, 1000 * during, longest_wait(found, at_ms) / 1000)


async def every_partition_busy(redis: Any, partitions: int, timeout_s: float = 90) -> None:
    """Until every partition took a move within the last second."""

    idle: list[int] = []

    async def busy() -> bool:
        now = await server_ms(redis)
        idle.clear()
        for p in range(partitions):
            last = await redis.xrevrange(partition_feed(p), count=1)
            if not last or now - entry_ms(last[0][0]) > 1000:
                idle.append(p)
        return not idle

    if not await until(busy, timeout_s):
        raise Stalled(idle[0], f"partitions {idle} took no move in the last second for {timeout_s:g} s")


async def moves_again_after(redis: Any, partition: int, since_ms: int, timeout_s: float) -> float:
    """Seconds from ``since_ms`` (server time) to the first move appended to the
    partition after it (the feed's ids are append times)."""

    async def appended() -> float | None:
        after = await redis.xrange(partition_feed(partition), min=f"{since_ms + 1}-0", count=1)
        return (entry_ms(after[0][0]) - since_ms) / 1000 if after else None

    delay = await eventually(appended, timeout_s, every_s=0.1)
    if delay is None:
        raise Stalled(partition, f"partition {partition}: no move accepted within {timeout_s:g} s")
    return delay


class Stalled(AssertionError):
    """A partition took no move for as long as a fault's measure waits."""

    def __init__(self, partition: int, message: str) -> None:
        super().__init__(message)
        self.partition = partition


async def moves(redis: Any, partitions: list[int], from_ms: int, to_ms: int) -> list[tuple[int, bytes]]:
    """The events appended to the partitions in [from_ms, to_ms): (server ms, game id)."""
    found = []
    for p in partitions:
        rows = await redis.xrange(partition_feed(p), min=f"{from_ms}-0", max=f"({to_ms}-0", count=10**6)
        found += [(entry_ms(entry_id), fields[b"g"]) for entry_id, fields in rows]
    return found


async def server_ms(redis: Any) -> int:
    seconds, micros = await redis.time()
    return int(seconds) * 1000 + int(micros) // 1000


def now_ms() -> int:
    """The moment a fault took effect, on the clock of the nodes (they run on this
    machine): asking one of them might ask the one just paused."""
    return time.time_ns() // 1_000_000


def entry_ms(entry_id: bytes) -> int:
    return int(entry_id.split(b"-")[0])


def longest_wait(found: list[tuple[int, bytes]], at_ms: int) -> int:
    """The longest a table waited (ms) between two moves, the first at or after ``at_ms``."""
    by_table: dict[bytes, list[int]] = {}
    for ms, game in sorted(found):
        by_table.setdefault(game, []).append(ms)
    waits = [b - a for times in by_table.values() for a, b in itertools.pairwise(times) if a >= at_ms]
    return max(waits, default=0)


# ------------------------------------------------------------ when one stalls


async def stall_report(
    redis: Any,
    api: httpx.AsyncClient,
    partition: int,
    partitions: int,
    played: dict[str, Played],
    logs: Path,
) -> str:
    """What a partition that took no moves was doing: its lease, its streams'
    consumer groups, its bot's table and views, and the services' warnings
    about it, so a stall in CI says where it is."""
    lines = [f"partition {partition}:"]
    try:
        lease = await redis.get(reducer_lease(partition))
        token = await redis.hgetall(fencing_token(partition))
        lines.append(f"  lease {lease!r}, fencing {token!r}")
        for stream in (command_stream(partition), validated_stream(partition), partition_feed(partition)):
            last = await redis.xrevrange(stream, count=1)
            groups = await redis.xinfo_groups(stream)
            lines.append(f"  {stream}: last {last[0][0] if last else None!r}")
            lines += [f"    group {g}" for g in groups]
    except Exception as exc:  # the report must not hide the failure it explains
        lines.append(f"  store unreadable: {exc!r}")
    mine = [p for p in played.values() if partition_of(p.table.table_id, partitions) == partition]
    if mine:
        table, stats = mine[-1].table, mine[-1].stats
        lines.append(
            f"  bot: {table.table_id}, {stats.accepted} accepted, {stats.waits} waits, "
            f"rejected {stats.rejected}, last sent {stats.sent[-3:]}, last refusal {stats.refusal}"
        )
        try:
            keys = GameKeys(table.table_id, partition)
            tail = await redis.xrevrange(keys.events, count=3)
            stored = [
                (envelope.version, envelope.command_id)
                for _, f in tail
                if (envelope := decode_envelope(f[b"e"]))
            ]
            lines.append(
                f"    stored: version {await redis.hget(keys.meta, 'version')!r}, last events {stored}"
            )
        except Exception as exc:
            lines.append(f"    stored: {exc!r}")
        for seat in (None, *range(len(table.tokens))):
            try:
                doc = await botclient.view(api, table, seat)
                lines.append(
                    f"    view {seat}: version {doc['version']}, actors {doc['actors']}, "
                    f"legal {bool(doc.get('legal'))}, over {doc['over']}"
                )
            except Exception as exc:
                lines.append(f"    view {seat}: {exc!r}")
    lines += await asyncio.to_thread(_warnings_about, logs, partition)
    return "\n".join(lines)


def _warnings_about(logs: Path, partition: int) -> list[str]:
    """The services' last warnings and errors naming the partition or its streams."""
    lines = []
    for log in sorted(logs.glob("*.log")):
        noted = [
            f"  {log.stem}: {row.get('timestamp')} {row.get('event')} "
            f"{ {k: v for k, v in row.items() if k in ('partition', 'streams', 'why', 'error')} } "
            f"{str(row.get('exception', '')).strip().splitlines()[-1:]}"
            for row in _rows(log)
            if row.get("level") in ("warning", "error")
            and (row.get("partition") == partition or f"{{p{partition}}}" in str(row.get("streams")))
        ]
        lines += noted[-12:]
    return lines


def unexpected_errors(logs: Path) -> list[str]:
    """The gateways' answers of 500 (``unexpected_error``) with the last lines of
    their tracebacks, so a 5xx in CI names the exception that escaped."""
    return [
        f"{log.stem}: {row.get('timestamp')} {row.get('method')} {row.get('path')}: "
        + " | ".join(str(row.get("exception", "")).strip().splitlines()[-6:])
        for log in sorted(logs.glob("*.log"))
        for row in _rows(log)
        if row.get("event") == "unexpected_error"
    ]


def _rows(log: Path) -> list[dict[str, Any]]:
    rows = []
    for line in log.read_text(errors="replace").splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict):
            rows.append(row)
    return rows
