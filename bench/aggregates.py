"""Aggregate loads: what reading one player account, arena, invitation or
tournament costs at 10, 1,000 and 100,000 events, from its whole stream and
from its snapshot.

For each kind and size it writes one stream of that many events to a fresh
Valkey (appends of 1,000 events through the store's own append script; the
events keep the state small, as key rotations and an arena's joins and leaves
do). The snapshot is then taken ``aggregate_snapshot_every - 1`` events before
the stream's end: the most a writer ever leaves after it. Each load is timed
alternately, ``--repeat`` times each, and the median is printed (with the
fastest and slowest):

* **whole stream**: every event read and folded, which is what a load did
  before snapshots (``store.read`` and the aggregate's fold);
* **snapshot**: :meth:`shared.eventstore.aggregates.Aggregate.current`, the
  snapshot and the events after it in one round trip;
* **held state**: the same with a state the process already holds (the
  tournament writer's cache): one read of the (empty) tail.

The machine's load average is printed before and after: on a shared machine
read every figure with it.

    python -m bench.aggregates
    python -m bench.aggregates --sizes 10,1000,100000 --repeat 7 --kinds player,arena
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import msgspec
from rich.table import Table

from bench.common import OUT_DIR, ensure_extra_games, fmt, machine, make_console, write_json

console = make_console()
PARTITIONS = 4
BATCH = 1_000


def _player(n: int) -> Iterator[Any]:
    from shared.players import events

    def key(i: int) -> str:
        return hashlib.sha256(str(i).encode()).hexdigest()

    yield events.Registered(player_id="bench", name="Bench", key_hash=key(0))
    for i in range(1, n):
        yield events.KeyRotated(key_hash=key(i), at_ms=i)


def _arena(n: int) -> Iterator[Any]:
    from shared.arenas import events

    yield events.Created(
        arena_id="bench", game="highcard", game_options={}, seats=2, starts_at_ms=0, ends_at_ms=10**13
    )
    for i in range(1, n):
        player = f"p{i // 2 % 50}"
        yield events.Joined(player_id=player, at_ms=i) if i % 2 else events.Left(player_id=player, at_ms=i)


def _casual(n: int) -> Iterator[Any]:
    from shared.casual import events
    from shared.casual.commands import CasualSeat

    seats = (CasualSeat(player_id="host"), CasualSeat(player_id="guest"))
    yield events.Invited(
        invitation_id="bench", host="host", game="highcard", game_options={}, seats=seats, rated=True
    )
    for i in range(1, n):
        yield (
            events.Opened(table_id=f"t{i}", at_ms=i) if i % 2 else events.Declined(player_id="guest", at_ms=i)
        )


def _tournament(n: int) -> Iterator[Any]:
    from shared.kernel.rng import Rng
    from shared.tournaments import events
    from shared.tournaments.commands import Create
    from shared.tournaments.decide import decide

    create = Create(tournament_id="bench", game="highcard", seats_per_table=2, rounds=3)
    yield from decide(None, create, Rng(bytes(32), 0))
    players = min(50, n - 1)
    for i in range(1, players + 1):
        yield events.Registered(player_id=f"p{i}", name=f"P{i}", kind="human", seed=i)
    for i in range(players + 1, n):
        yield events.Withdrew(player_id=f"p{i % players + 1}")


def _kinds() -> dict[str, tuple[Any, Callable[[str, int], Any], Callable[[int], Iterator[Any]]]]:
    from shared.arenas.keys import arena_keys
    from shared.arenas.store import ARENAS
    from shared.casual.keys import casual_keys
    from shared.casual.store import INVITATIONS
    from shared.players.keys import player_keys
    from shared.players.store import ACCOUNTS
    from shared.tournaments.keys import tournament_keys
    from shared.tournaments.store import TOURNAMENTS

    return {
        "player": (ACCOUNTS, player_keys, _player),
        "arena": (ARENAS, arena_keys, _arena),
        "casual": (INVITATIONS, casual_keys, _casual),
        "tournament": (TOURNAMENTS, tournament_keys, _tournament),
    }


async def _fill(store: Any, aggregate: Any, keys: Any, events: list[Any], every: int) -> None:
    """Append ``events``; the snapshot kept ``every - 1`` events before the end."""
    from shared.eventstore.envelope import EventEnvelope
    from shared.eventstore.store import AppendRequest

    snapshot_at = len(events) - (every - 1)
    if snapshot_at < every:  # too short for one: a load reads it whole
        snapshot_at = 0
    version = 0
    while version < len(events):
        end = min(len(events), version + BATCH, snapshot_at if version < snapshot_at else len(events))
        envelopes = [
            EventEnvelope(
                game_id=keys.game_id,
                partition=keys.partition,
                version=v,
                event_id=f"{aggregate.prefix}:{keys.game_id}:{v}",
                command_id=f"fill{version}",
                correlation_id="",
                server_time=0,
                seat=None,
                payload=msgspec.msgpack.encode(events[v - 1]),
            )
            for v in range(version + 1, end + 1)
        ]
        req = AppendRequest(
            keys=keys, expected=version, command_id=f"fill{version}", command=None, envelopes=envelopes
        )
        outcome = await store.append(req)
        assert outcome.status == "appended", outcome
        version = end
        if version == snapshot_at:
            loaded = await aggregate.current(store, keys)  # a stream this long past none: it keeps one
            assert loaded.snapshot == snapshot_at, loaded.snapshot


async def _timed(load: Callable[[], Awaitable[Any]]) -> float:
    started = time.perf_counter()
    await load()
    return time.perf_counter() - started


async def run(args: argparse.Namespace) -> dict[str, Any]:
    from shared.eventstore import aggregates
    from shared.eventstore.store import EventStore
    from shared.infra.redis_client import connect
    from shared.infra.valkey_server import ValkeyServer, free_port

    every = aggregates.snapshot_every()
    kinds = _kinds()
    wanted = [k for k in args.kinds.split(",") if k] or list(kinds)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    root = tempfile.mkdtemp(prefix="aggregates-", dir=OUT_DIR)
    server = ValkeyServer(Path(root), port=free_port(), fsync="everysec")
    server.start()
    redis = connect(server.url)
    rows: list[dict[str, Any]] = []
    load_before = os.getloadavg()
    console.print(
        f"load average {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f} "
        f"on {os.cpu_count()} cpus; snapshot every {every} events, {args.repeat} loads of each way"
    )
    try:
        store = EventStore(redis)
        for kind in wanted:
            aggregate, keys_of, events_of = kinds[kind]
            for size in sizes:
                keys = keys_of(f"bench-{size}", PARTITIONS)
                events = list(events_of(size))
                await _fill(store, aggregate, keys, events, every)

                async def whole(keys: Any = keys, aggregate: Any = aggregate) -> Any:
                    envelopes = await store.read(keys)
                    return aggregate.fold((aggregate.decode(e.payload) for e in envelopes), None)

                snapshot = await aggregate.current(store, keys)
                assert snapshot.state == await whole(), f"{kind} at {size}: the snapshot's answer differs"
                times: dict[str, list[float]] = {"whole": [], "snapshot": [], "held": []}
                for _ in range(args.repeat):
                    times["whole"].append(await _timed(whole))
                    times["snapshot"].append(await _timed(partial(aggregate.current, store, keys)))
                    times["held"].append(await _timed(partial(aggregate.current, store, keys, snapshot)))
                row = {
                    "kind": kind,
                    "events": size,
                    "read": {"whole": size, "snapshot": snapshot.read, "held": 0},
                    **{
                        way: {
                            "median_ms": statistics.median(t) * 1e3,
                            "min_ms": min(t) * 1e3,
                            "max_ms": max(t) * 1e3,
                        }
                        for way, t in times.items()
                    },
                }
                rows.append(row)
                console.print(
                    f"{kind:>10} {size:>8,} events: whole stream {fmt(row['whole']['median_ms'], 2)} ms, "
                    f"snapshot {fmt(row['snapshot']['median_ms'], 2)} ms ({snapshot.read} events read), "
                    f"held {fmt(row['held']['median_ms'], 2)} ms"
                )
    finally:
        await redis.aclose()
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
    return {
        "snapshot_every": every,
        "repeat": args.repeat,
        "load_average": {"before": load_before, "after": os.getloadavg()},
        "loads": rows,
    }


def report(result: dict[str, Any]) -> None:
    table = Table(
        title=f"one aggregate load, median of {result['repeat']} (fastest-slowest), ms; "
        f"snapshot every {result['snapshot_every']} events, at most that many behind"
    )
    for col in (
        "kind",
        "events",
        "whole stream",
        "snapshot",
        "held state",
        "whole / snapshot",
        "events read",
    ):
        table.add_column(col, justify="left" if col == "kind" else "right")
    for row in result["loads"]:

        def cell(way: str, row: dict[str, Any] = row) -> str:
            r = row[way]
            return f"{fmt(r['median_ms'], 2)} ({fmt(r['min_ms'], 2)}-{fmt(r['max_ms'], 2)})"

        table.add_row(
            row["kind"],
            f"{row['events']:,}",
            cell("whole"),
            cell("snapshot"),
            cell("held"),
            f"{row['whole']['median_ms'] / row['snapshot']['median_ms']:.1f}x",
            f"{row['read']['whole']:,} / {row['read']['snapshot']:,} / {row['read']['held']:,}",
        )
    console.print(table)
    before, after = result["load_average"]["before"], result["load_average"]["after"]
    console.print(
        f"load average (1, 5, 15 min): before {before[0]:.2f} {before[1]:.2f} {before[2]:.2f}, "
        f"after {after[0]:.2f} {after[1]:.2f} {after[2]:.2f}"
    )


def main(argv: list[str] | None = None) -> int:
    ensure_extra_games()
    ap = argparse.ArgumentParser(prog="python -m bench.aggregates", description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="10,1000,100000", help="events per stream, comma-separated")
    ap.add_argument("--kinds", default="", help="player,arena,casual,tournament (default: all)")
    ap.add_argument(
        "--repeat", type=int, default=5, help="loads of each way per stream (the median is shown)"
    )
    ap.add_argument("--name", default="aggregates", help="result file var/bench/<name>.json")
    args = ap.parse_args(argv)
    result = asyncio.run(run(args))
    report(result)
    path = write_json(args.name, {"machine": machine(), **result})
    console.print(f"figures written to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
