"""The reference: the Redis work of one command, done by a bare redis-py loop.

No services, no HTTP, no rules: one process with the synchronous redis-py
client (hiredis parser) replays pre-planned commands of a real game and
issues, per batch of ``B`` commands, the same Redis operations the pipeline
issues:

====================  ==========================================================
gateway               pipeline of XADD to the command stream (the gateway's
                      coalescer joins concurrent requests the same way)
validator             XREADGROUP; pipeline of XRANGE tails + HEXISTS
                      (idempotency); pipeline of XADD to the validated stream +
                      XACK
reducer               XREADGROUP; pipeline of EVALSHA ``append.lua`` (the real
                      script, real envelopes); pipeline of one PUBLISH of the
                      replies + XACK
projector             XREADGROUP on the partition feed; one pipeline of EVALSHA
                      ``project.lua`` (real view documents and feed entries,
                      acknowledging its entries) + one PUBLISH of the changes
gateway (reply)       the replies read from the pub/sub connection
client                pipeline of GET of the acting seats' views
====================  ==========================================================

That is 10 round trips per batch, whatever ``B`` is.
Payloads are produced beforehand by ``services.reducer.plan.plan`` and
``shared.readmodels.build.build``, so sizes and server-side script
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
from services.reducer.plan import accepted
from shared.eventstore.keys import CHANGES_CHANNEL, GameKeys, fencing_token
from shared.eventstore.store import encode_envelope
from shared.games import registry
from shared.infra.lua import LuaScript
from shared.messaging.messages import encode
from shared.readmodels.build import audience_name, build
from shared.readmodels.writer import project_call

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
    # No lease: token 0, as a writer without one.
    return (
        [keys.events, keys.commands, keys.dedup, keys.meta, keys.feed, fencing_token(keys.partition)],
        [s.expected, s.command_id, s.command_record, keys.game_id, 0, *s.envelopes],
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
    append = LuaScript(files("shared.eventstore").joinpath("append.lua").read_text())
    project = LuaScript(files("shared.readmodels").joinpath("project.lua").read_text())
    r.script_load(append.source)
    r.script_load(project.source)
    tag = uuid.uuid4().hex[:8]
    cmd_stream = f"{PREFIX}:{tag}:commands"
    val_stream = f"{PREFIX}:{tag}:validated"
    reply_channel = f"{PREFIX}:{tag}:reply"
    feed = GameKeys("x", PARTITION).feed
    projector = f"projector-{tag}"
    for stream, group in ((cmd_stream, "validator"), (val_stream, "reducer"), (feed, projector)):
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
        # gateway
        with r.pipeline(transaction=False) as pipe:
            for _, s in work:
                pipe.xadd(cmd_stream, {"m": s.command_msg})
            pipe.execute()
        # validator
        got = r.xreadgroup("validator", "v", {cmd_stream: ">"}, count=batch)
        ids = [i for i, _ in got[0][1]] if got else []
        with r.pipeline(transaction=False) as pipe:
            for keys, s in work:
                pipe.xrange(keys.events, min=f"(0-{max(0, s.expected - 1)}", max="+")
            for keys, s in work:
                pipe.hexists(keys.dedup, s.command_id)
            pipe.execute()
        with r.pipeline(transaction=False) as pipe:
            for _, s in work:
                pipe.xadd(val_stream, {"m": s.validated_msg})
            pipe.xack(cmd_stream, "validator", *ids)
            pipe.execute()
        # reducer
        got = r.xreadgroup("reducer", "r", {val_stream: ">"}, count=batch)
        ids = [i for i, _ in got[0][1]] if got else []
        with r.pipeline(transaction=False) as pipe:
            for keys, s in work:
                append.queue(pipe, *_append_args(keys, s))
            outcomes = pipe.execute()
        assert all(o[0] == b"appended" for o in outcomes), outcomes[:3]
        with r.pipeline(transaction=False) as pipe:
            pipe.publish(reply_channel, b"[" + b",".join(s.reply for _, s in work) + b"]")
            pipe.xack(val_stream, "reducer", *ids)
            pipe.execute()
        # projector
        got = r.xreadgroup(projector, "p", {feed: ">"}, count=10_000)
        by_game: dict[str, list[bytes]] = {}
        for entry_id, fields in got[0][1] if got else []:
            by_game.setdefault(fields[b"g"].decode(), []).append(entry_id)
        with r.pipeline(transaction=False) as pipe:
            for keys, s in work:
                project.queue(pipe, *project_call(keys, s.models, by_game.get(keys.game_id, []), projector))
            pipe.publish(CHANGES_CHANNEL + tag, "\n".join(f"{k.game_id} {s.models.version}" for k, s in work))
            pipe.execute()
        # gateway: the replies; client: the seats' views
        while pubsub.get_message(timeout=0.0) is not None:
            pass
        with r.pipeline(transaction=False) as pipe:
            for keys, s in work:
                pipe.get(keys.view(s.view_name))
            pipe.execute()
        done += len(work)
        round_trips += 10
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
