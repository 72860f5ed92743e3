"""Partitions taken over: a reducer killed and left dead, and one paused past its lease.

Two reducers share four partitions through leases while bots play many
tables. The one holding the most partitions is killed with SIGKILL and left
dead: the other takes its partitions over, and moves on each of them are
accepted again within a stated bound (measured in the store: the lease's
token is the server's clock when it was taken, and the partition's feed
stamps every append). It is then started again (the partitions are shared out
anew, with no configuration), and the one holding the most is paused with
SIGSTOP past its lease, its partitions taken over meanwhile, and resumed with
SIGCONT: the store refuses its appends (the fencing token; its own metric
says so). One that resumes between two batches finds its leases lost before
it writes anything, so there is nothing to refuse: it is paused again, a few
times at most, until one resumes with a batch in hand. Afterwards, from the
store itself: every acknowledged move is there once, with the version it was
acknowledged with; no table has two events at one version, in its stream or
in any partition feed; every table passes the end-to-end checks (projections,
feeds, fairness); nothing is left pending.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest

from shared.cli import botclient
from shared.eventstore.keys import GameKeys, fencing_token, partition_feed, partition_of, reducer_lease
from shared.eventstore.store import EventStore
from shared.infra.launcher import Stack
from shared.infra.redis_client import connect
from shared.messaging.messages import client_key
from tests.support.checks import check_finished_table
from tests.support.pipeline_load import FAST_RECLAIM, keep_playing, pending_entries
from tests.support.waiting import eventually, until

pytestmark = [pytest.mark.e2e, pytest.mark.chaos, pytest.mark.timeout(900)]
PARTITIONS = 4
WORKERS = 8
TTL_S = 3.0
RECLAIM_S = int(FAST_RECLAIM["ZIGGURAT_RECLAIM_IDLE_MS"]) / 1000
#: The design's bound is about 5/3 of the TTL plus a second (docs/architecture.md,
#: "Partition leases"); this one is generous, for a loaded machine.
BOUND_S = 3 * TTL_S + RECLAIM_S
ENV = {**FAST_RECLAIM, "ZIGGURAT_LEASE_TTL_S": str(TTL_S)}
#: A reducer resumed between two batches sees its leases lost before it writes
#: anything (about one pause in four here): it is paused again, up to this often.
PAUSES = 8


async def test_a_dead_reducers_partitions_move_on_and_a_paused_one_is_fenced(tmp_path: Path) -> None:
    stack = Stack(tmp_path, partitions=PARTITIONS, reducers=2, fsync="always", env=ENV).start()
    redis = connect(stack.redis_url or "")
    try:
        async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
            tables: list[botclient.Table] = []
            stats = botclient.Stats()
            stop = asyncio.Event()
            load = asyncio.gather(*(keep_playing(api, tables, stats, stop, w) for w in range(WORKERS)))

            # ---- SIGKILL the reducer holding the most partitions, and leave it dead
            holders = await _shared_and_busy(redis)
            victim, survivor = _most_and_other(holders)
            theirs = sorted(p for p, node in holders.items() if node == victim)
            killed_ms = await _server_ms(redis)
            stack.procs[victim].kill()
            delays = {p: await _moves_again_after(redis, p, survivor, killed_ms) for p in theirs}
            print(f"moves accepted again after the kill of {victim}, by partition (s): {delays}")
            assert max(delays.values()) <= BOUND_S, f"not within {BOUND_S:g} s: {delays}"
            assert not load.done(), "the load stopped early"

            # ---- It comes back (the partitions are shared out again); pause the busier one
            await asyncio.to_thread(stack.procs[victim].start)
            await asyncio.to_thread(stack.wait_healthy, 60.0, [victim])
            refused = 0.0
            for pause in range(1, PAUSES + 1):
                refused = await _pause_past_the_lease(stack, redis)
                if refused:
                    print(f"pause {pause}: the resumed reducer's {refused:g} appends were fenced")
                    break
                # It resumed between two batches and saw its leases lost before writing.
                print(f"pause {pause}: resumed with no batch in hand; again")
            assert refused, f"in {PAUSES} pauses, the store never refused a resumed reducer's append"
            assert not load.done(), "the load stopped early"

            stop.set()  # every game in progress plays to its end
            await load
            await _check_the_store(stack, api, redis, tables, stats)
    finally:
        await redis.aclose()
        stack.stop()


async def _pause_past_the_lease(stack: Stack, redis: Any) -> float:
    """SIGSTOP the reducer holding the most partitions until the other has
    taken them over and moves are accepted there, then SIGCONT: how many of
    its appends the store refused as it resumed."""
    holders = await _shared_and_busy(redis)
    paused, other = _most_and_other(holders)
    theirs = sorted(p for p, node in holders.items() if node == paused)
    before = _metric(stack, paused, "ziggurat_fenced_appends_total")
    pid = stack.procs[paused].pid
    assert pid is not None
    since = await _server_ms(redis)
    os.kill(pid, signal.SIGSTOP)
    try:
        for p in theirs:  # entries keep reaching it meanwhile: its reads were waiting
            await _moves_again_after(redis, p, other, since)
        await asyncio.sleep(RECLAIM_S)
    finally:
        os.kill(pid, signal.SIGCONT)

    async def fenced() -> float | None:
        found = await asyncio.to_thread(_metric, stack, paused, "ziggurat_fenced_appends_total")
        return found - before if found > before else None

    return await eventually(fenced, 10) or 0.0


async def _shared_and_busy(redis: Any) -> dict[int, str]:
    """Once both reducers hold leases and every partition has moves being
    appended, who holds each partition."""

    async def ready() -> dict[int, str] | None:
        holders = {}
        for p in range(PARTITIONS):
            raw = await redis.get(reducer_lease(p))
            if raw is None:
                return None
            holders[p] = raw.decode().rpartition(":")[0]
        now = await _server_ms(redis)
        for p in range(PARTITIONS):
            last = await redis.xrevrange(partition_feed(p), count=1)
            if not last or now - _entry_ms(last[0][0]) > 1000:
                return None
        return holders if len(set(holders.values())) == 2 else None

    found = await eventually(ready, 60)
    assert found is not None, "the two reducers never shared the partitions under load"
    return found


def _most_and_other(holders: dict[int, str]) -> tuple[str, str]:
    (most, _), (other, _) = Counter(holders.values()).most_common(2)
    return most, other


async def _moves_again_after(redis: Any, partition: int, taker: str, since_ms: int) -> float:
    """Seconds from ``since_ms`` (server time) to the first move appended to the
    partition after ``taker`` took its lease: a taking's token is the server's
    clock at that moment (shared/messaging/leases.py), a feed entry's id its
    append's."""

    async def appended() -> float | None:
        token = await redis.hgetall(fencing_token(partition))
        if token.get(b"node", b"").decode() != taker or int(token[b"token"]) <= since_ms:
            return None
        after = await redis.xrange(partition_feed(partition), min=f"{int(token[b'token'])}-0", count=1)
        return (_entry_ms(after[0][0]) - since_ms) / 1000 if after else None

    delay = await eventually(appended, 4 * BOUND_S, every_s=0.05)
    assert delay is not None, f"partition {partition}: no move accepted within {4 * BOUND_S:g} s"
    return delay


async def _server_ms(redis: Any) -> int:
    seconds, micros = await redis.time()
    return int(seconds) * 1000 + int(micros) // 1000


def _entry_ms(entry_id: bytes) -> int:
    return int(entry_id.split(b"-")[0])


def _metric(stack: Stack, proc: str, name: str) -> float:
    with urllib.request.urlopen(stack.metrics_urls()[proc], timeout=5) as response:
        text = response.read().decode()
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.M)
    assert found, f"{proc} does not export {name}"
    return float(found.group(1))


async def _check_the_store(
    stack: Stack, api: httpx.AsyncClient, redis: Any, tables: list[botclient.Table], stats: botclient.Stats
) -> None:
    acknowledged = {key: version for key, status, version in stats.sent if status == 200}
    assert acknowledged, "no move was accepted"
    applied: dict[str, int] = {}  # idempotency key -> the table's version after it
    store = EventStore(redis)
    for table in tables:
        await check_finished_table(api, redis, table.table_id, stack.partitions)
        keys = GameKeys(table.table_id, partition_of(table.table_id, stack.partitions))
        for envelope in await store.read(keys):
            key = client_key(envelope.command_id)
            applied[key] = max(applied.get(key, 0), envelope.version)
    lost = acknowledged.keys() - applied.keys()
    assert not lost, f"acknowledged but lost: {sorted(lost)[:5]}"
    wrong = {k: (v, applied[k]) for k, v in acknowledged.items() if applied[k] != v}
    assert not wrong, f"acknowledged with another version than the store's: {list(wrong.items())[:5]}"
    for p in range(stack.partitions):  # every append is in its partition's feed: none twice
        seen = Counter(
            (fields[b"g"], fields[b"v"]) for _, fields in await redis.xrange(partition_feed(p), count=10**7)
        )
        twice = [gv for gv, n in seen.items() if n > 1]
        assert not twice, f"partition {p}: two events at one version: {twice[:5]}"

    async def drained() -> bool:
        return await pending_entries(redis, stack.partitions) == 0

    assert await until(drained, 30), f"{await pending_entries(redis, stack.partitions)} entries still pending"
    print(f"{len(tables)} tables, {len(acknowledged)} acknowledged moves, all in the store once")
