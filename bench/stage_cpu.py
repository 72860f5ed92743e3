"""The validator's and the projector's pure work per command, in one process.

The pipeline bench measures whole services on a machine shared with other
work; this replays recorded Tigris games through exactly the pure calls the two
stages make per command, timed with ``process_time`` (the CPU of this process
alone), so a change to the rules or the read models can be judged before and
after under any load:

* validator: its checks (the dry run of ``decide``, the events packed for the
  reducer), then the same events read back from the log into its table cache;
* projector: the events decoded and folded, then ``build`` (every audience's
  view document, the awaited seat's legal commands, the feeds).

``python -m bench.stage_cpu [--games 16] [--rounds 5]``; prints the median of
the rounds in microseconds per command, and the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from typing import Any, cast

import msgspec

from services.validator.checks import judge
from shared.eventstore.envelope import EventEnvelope
from shared.eventstore.tables import Foreseen, TableCache, fold_envelope
from shared.games import registry
from shared.kernel import table as tables
from shared.kernel.codec import codec_for
from shared.kernel.rng import Rng
from shared.kernel.table import Table
from shared.messaging.messages import MoveMsg
from shared.readmodels.build import build

Step = tuple[Table, int, Any, list[tuple[int, bytes]]]  # table before, seat, command, packed events


def record(game_key: str, games: int, seats: int) -> list[Step]:
    """Every command of ``games`` random games, as the reducer decided them."""
    game = registry.get(game_key)
    codec = codec_for(game)
    steps: list[Step] = []
    for g in range(games):
        seed = g.to_bytes(32, "big")
        table = tables.fold(
            game, tables.open_table(game, seats, {}, seed, tuple(f"t{s}" for s in range(seats)), 0)
        )
        while not table.over:
            seat = min(game.actors(table.state))
            command = game.bots["random"](table.state, seat, Rng(bytes(32), table.version))
            events = tables.decide(game, table, seat, command)
            packed = [(table.version + 1 + i, codec.pack(e)) for i, e in enumerate(events)]
            steps.append((table, seat, command, packed))
            table = _fold_packed(table, packed, f"c{len(steps)}")
    return steps


def _envelopes(packed: list[tuple[int, bytes]], command_id: str) -> list[EventEnvelope]:
    return [
        EventEnvelope(
            game_id="g",
            partition=0,
            version=version,
            event_id="",
            command_id=command_id,
            correlation_id="",
            server_time=version,
            seat=None,
            payload=raw,
        )
        for version, raw in packed
    ]


def _fold_packed(table: Table, packed: list[tuple[int, bytes]], command_id: str) -> Table:
    for env in _envelopes(packed, command_id):
        table = fold_envelope(table, env)
    return table


def validator(steps: list[Step]) -> None:
    codec = codec_for(registry.get(steps[0][0].game))
    # Only the cache's in-memory side is used: tables put, decisions foreseen, tails applied.
    cache = TableCache(cast(Any, None))
    for n, (table, seat, command, packed) in enumerate(steps):
        msg = MoveMsg(
            command_id=f"c{n}",
            game_id="g",
            partition=0,
            correlation_id="",
            reply_to="r",
            received_ns=0,
            token_hash=f"t{seat}",
            command=msgspec.Raw(codec.json(command)),
        )
        cache.put("g", table)
        verdict, after = judge(msg, table, False)
        assert isinstance(verdict, MoveMsg) and verdict.decided is not None and after is not None, verdict
        cache.foresee("g", Foreseen(table, msg.command_id, verdict.decided.events, after))
        cache.apply("g", _envelopes(packed, msg.command_id))


def projector(steps: list[Step]) -> None:
    for n, (table, _, _, packed) in enumerate(steps):
        after = _fold_packed(table, packed, f"c{n}")
        codec = codec_for(registry.get(table.game))
        build("g", after, [(v, v, codec.event(raw)) for v, raw in packed])


def timed(work: Callable[[list[Step]], None], steps: list[Step], rounds: int) -> tuple[float, float]:
    """Median and least CPU microseconds per command over ``rounds`` runs (the least
    is the run the other processes on the machine disturbed least)."""
    per = []
    for _ in range(rounds):
        start = time.process_time()
        work(steps)
        per.append((time.process_time() - start) / len(steps) * 1e6)
    return statistics.median(per), min(per)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="tigris")
    ap.add_argument("--games", type=int, default=16)
    ap.add_argument("--seats", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--only", choices=("validator", "projector"), default=None)
    args = ap.parse_args()
    steps = record(args.game, args.games, args.seats)
    print(f"{args.game}: {args.games} games, {len(steps)} commands; load {os.getloadavg()[0]:.1f}")
    for name, work in (("validator", validator), ("projector", projector)):
        # --rounds 0 only records: an instruction count (callgrind) of it is the
        # baseline to subtract from one of --rounds 1.
        if args.only in (None, name) and args.rounds:
            median, least = timed(work, steps, args.rounds)
            print(f"{name:>10}: {median:7.1f} us/command (median of {args.rounds}; least {least:.1f})")
    print(f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
