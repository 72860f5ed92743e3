"""The reference: the Redis work of one command, done by a bare redis-py loop.

No services, no HTTP, no FastStream, no rules: one process with the
synchronous redis-py client (hiredis parser) replays pre-planned commands of a
real game and issues, per batch of ``B`` commands, the same Redis operations
the pipeline issues:

====================  ==========================================================
gateway               XADD to the partition's command stream (one per command)
validator             XREADGROUP; pipeline of XRANGE tails; pipeline of HEXISTS
                      (idempotency); pipeline of XADD to the validated stream;
                      XACK
reducer               XREADGROUP; pipeline of EVALSHA ``append.lua`` (the real
                      script, real envelopes); pipeline of PUBLISH replies; XACK
projector             XREADGROUP on the partition feed; one pipeline of EVALSHA
                      ``project.lua`` (real view documents and feed entries) +
                      PUBLISH change + XACK
gateway (reply)       the reply read from the pub/sub connection
client                GET of the acting seat's view
====================  ==========================================================

redis-py adds one SCRIPT EXISTS round trip before every pipeline that holds a
``Script`` (the reducer's ``EventStore.append_many`` and the projector's
writer both do), and the same client does it here: 15 round trips per command
at ``B = 1``, ``2B + 13`` per batch.
Payloads are produced beforehand by ``services.reducer.plan.plan`` and
``services.projector.read_models.build``, so sizes and server-side script
work are the real ones. What the reference leaves out is exactly what the
services add: HTTP, FastStream, decoding, rules, logging and metrics.
"""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

import redis

from bench.common import scripted_game
from services.projector.read_models import audience_name, build
from services.projector.writer import ReadModelWriter
from services.reducer.plan import accepted
from shared.eventstore.keys import CHANGES_CHANNEL, GameKeys
from shared.eventstore.store import encode_envelope
from shared.games import registry
from shared.messaging.messages import encode

PREFIX = "ref"
PARTITION = 0


@dataclass
class RefStep:
    game_id: str  # of the pre-planned game (rewritten per lane)
    expected: int
    command_id: str
    command_msg: bytes
    validated_msg: bytes
    command_record: bytes
    envelopes: list[bytes]
    reply: bytes
    models: Any  # ReadModels
    view_name: str


def prepare(game_key: str, seats: int, games: int = 3, max_steps: int = 400) -> list[list[RefStep]]:
    """Pre-planned steps of a few random games (opening included)."""
    from shared.kernel.codec import codec_for

    game = registry.get(game_key)
    codec = codec_for(game)
    out: list[list[RefStep]] = []
    for g in range(games):
        steps: list[RefStep] = []
        for step in scripted_game(game_key, seats, 1000 + g, max_moves=max_steps):
            p = step.plan
            req = p.request
            first = req.expected + 1
            events = [codec.event(e.payload) for e in req.envelopes]
            new = [(e.version, e.server_time, ev) for e, ev in zip(req.envelopes, events, strict=True)]
            models = build(step.msg.game_id, p.after, new)
            outcome = accepted(step.msg, game, p.seat, first, p.events, time.time_ns())
            seat = p.seat if p.seat is not None else 0
            steps.append(
                RefStep(
                    game_id=step.msg.game_id,
                    expected=req.expected,
                    command_id=req.command_id,
                    command_msg=encode(step.msg),
                    validated_msg=encode(step.msg),
                    command_record=codec.pack(req.command) if req.command else b"",
                    envelopes=[encode_envelope(e) for e in req.envelopes],
                    reply=encode(outcome),
                    models=models,
                    view_name=audience_name(seat),
                )
            )
        out.append(steps)
    return out


class Lane:
    """One game in flight: walks a pre-planned game, under a fresh id each time round."""

    def __init__(self, plans: list[list[RefStep]], index: int) -> None:
        self.plans = plans
        self.index = index
        self.round = 0
        self.pos = 0
        self._new_game()

    def _new_game(self) -> None:
        self.steps = self.plans[(self.index + self.round) % len(self.plans)]
        self.keys = GameKeys(f"{PREFIX}-{uuid.uuid4().hex[:16]}", PARTITION)
        self.pos = 0
        self.round += 1

    def next(self) -> tuple[GameKeys, RefStep]:
        if self.pos >= len(self.steps):
            self._new_game()
        step = self.steps[self.pos]
        self.pos += 1
        return self.keys, step


def _append_args(keys: GameKeys, s: RefStep) -> tuple[list[str], list[Any]]:
    # KEYS and ARGV as documented at the top of shared/eventstore/append.lua.
    return (
        [keys.events, keys.commands, keys.dedup, keys.meta, keys.feed],
        [s.expected, s.command_id, s.command_record, keys.game_id, *s.envelopes],
    )


def run(
    url: str,
    game_key: str,
    seats: int,
    batch: int,
    seconds: float,
    plans: list[list[RefStep]] | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Commands/s of the bare loop with ``batch`` commands per stage round."""
    plans = plans or prepare(game_key, seats)
    r = redis.Redis.from_url(url)
    append = r.register_script(files("shared.eventstore").joinpath("append.lua").read_text())
    writer = ReadModelWriter(r)
    tag = uuid.uuid4().hex[:8]
    cmd_stream = f"{PREFIX}:{tag}:commands"
    val_stream = f"{PREFIX}:{tag}:validated"
    reply_channel = f"{PREFIX}:{tag}:reply"
    feed = GameKeys("x", PARTITION).feed
    for stream, group in ((cmd_stream, "validator"), (val_stream, "reducer"), (feed, f"projector-{tag}")):
        with contextlib.suppress(redis.ResponseError):
            r.xgroup_create(stream, group, id="$", mkstream=True)
    pubsub = r.pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(reply_channel)
    lanes = [Lane(plans, i) for i in range(batch)]
    done = 0
    round_trips = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        work = [lane.next() for lane in lanes]
        # gateway: one XADD per command (each HTTP request publishes on its own)
        for _, s in work:
            r.xadd(cmd_stream, {"__data__": s.command_msg})
        # validator
        got = r.xreadgroup("validator", "v", {cmd_stream: ">"}, count=batch)
        ids = [i for i, _ in got[0][1]] if got else []
        with r.pipeline(transaction=False) as pipe:
            for keys, s in work:
                pipe.xrange(keys.events, min=f"(0-{max(0, s.expected - 1)}", max="+")
            pipe.execute()
        with r.pipeline(transaction=False) as pipe:
            for keys, s in work:
                pipe.hexists(keys.dedup, s.command_id)
            pipe.execute()
        with r.pipeline(transaction=False) as pipe:
            for _, s in work:
                pipe.xadd(val_stream, {"__data__": s.validated_msg})
            pipe.execute()
        r.xack(cmd_stream, "validator", *ids)
        # reducer
        got = r.xreadgroup("reducer", "r", {val_stream: ">"}, count=batch)
        ids = [i for i, _ in got[0][1]] if got else []
        with r.pipeline(transaction=False) as pipe:
            for keys, s in work:
                k, a = _append_args(keys, s)
                append(keys=k, args=a, client=pipe)
            outcomes = pipe.execute()
        assert all(o[0] == b"appended" for o in outcomes), outcomes[:3]
        with r.pipeline(transaction=False) as pipe:
            for _, s in work:
                pipe.publish(reply_channel, s.reply)
            pipe.execute()
        r.xack(val_stream, "reducer", *ids)
        # projector
        got = r.xreadgroup(f"projector-{tag}", "p", {feed: ">"}, count=10_000)
        ids = [i for i, _ in got[0][1]] if got else []
        with r.pipeline(transaction=False) as pipe:
            for keys, s in work:
                writer.add(pipe, keys, s.models)
                pipe.publish(CHANGES_CHANNEL + tag, f"{keys.game_id} {s.models.version}")
            if ids:
                pipe.xack(feed, f"projector-{tag}", *ids)
            pipe.execute()
        # gateway: the replies; client: the seat's view
        while pubsub.get_message(timeout=0.0) is not None:
            pass
        for keys, s in work:
            r.get(keys.view(s.view_name))
        done += len(work)
        round_trips += 2 * len(work) + 13  # incl. redis-py's SCRIPT EXISTS before each script pipeline
        if progress:
            progress(done)
    wall = time.perf_counter() - started
    pubsub.close()
    r.close()
    return {
        "batch": batch,
        "commands": done,
        "seconds": wall,
        "commands_per_s": done / wall,
        "round_trips_per_command": round_trips / max(1, done),
    }
