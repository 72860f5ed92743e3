"""The stream reader's containment, against a real Valkey.

A handler that fails on one message must not hold up the others; the
message is parked after exactly ``max_deliveries`` failures with the error,
and the stage's ``dead`` hook answers whoever waits. An outage of the store
is not the message's fault: it counts nothing against it.
"""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from services.validator import handlers
from services.validator.handlers import GROUP as VALIDATOR
from services.validator.handlers import Validator
from shared.eventstore.keys import DEAD_LETTERS, command_stream, reply_channel
from shared.eventstore.store import EventStore
from shared.eventstore.tables import TableCache
from shared.messaging import deadletters
from shared.messaging.messages import CommandMsg, MoveMsg, decode_outcomes, encode
from shared.messaging.streams import Batch, StreamReader
from tests.messaging.readers import run_until

pytestmark = pytest.mark.integration
STREAM = "zg:{p0}:test-stream"


class Recorder:
    """Handles a batch by acknowledging it; fails on the bodies it is told to."""

    def __init__(self, redis: Any, bad: set[bytes], outages: int = 0) -> None:
        self.redis = redis
        self.bad = bad
        self.outages = outages
        self.handled: list[bytes] = []
        self.calls = 0
        self.dead_seen: list[bytes] = []

    async def handle(self, batch: Batch) -> None:
        self.calls += 1
        if self.outages:
            self.outages -= 1
            raise RedisConnectionError("the store went away")
        if any(body in self.bad for body in batch.bodies()):
            raise ValueError("this message breaks the stage")
        self.handled += batch.bodies()
        async with self.redis.pipeline(transaction=False) as pipe:
            batch.ack(pipe, "g")
            await pipe.execute()

    async def dead(self, entries: list[Any]) -> None:
        self.dead_seen += [fields[b"m"] for _, _, fields in entries]


def reader(redis: Any, **kw: Any) -> StreamReader:
    return StreamReader(redis, "g", "node", (STREAM,), 50, 60_000, block_ms=50, retry_pause_s=0.05, **kw)


async def test_one_bad_message_is_parked_after_its_deliveries_and_the_rest_go_through(redis: Any) -> None:
    bodies = [f"m{i}".encode() for i in range(20)]
    for body in [*bodies[:10], b"poison", *bodies[10:]]:
        await redis.xadd(STREAM, {"m": body})
    handler = Recorder(redis, bad={b"poison"})

    async def parked() -> bool:
        return bool(await redis.xlen(DEAD_LETTERS))

    await run_until(reader(redis, max_deliveries=3), handler, parked)
    assert handler.handled == bodies, "every good message, in order, once"
    letters = await deadletters.listing(redis)
    assert len(letters) == 1
    letter = letters[0]
    assert letter.fields == {b"m": b"poison"} and letter.stream == STREAM and letter.service == "g"
    assert "this message breaks the stage" in letter.error
    assert handler.dead_seen == [b"poison"]
    assert (await redis.xpending(STREAM, "g"))["pending"] == 0, "parked means acknowledged"
    # One whole-batch attempt, then each message alone; the poison three times in all.
    poison_attempts = handler.calls - 1 - len(bodies)
    assert poison_attempts == 3, handler.calls


async def test_a_message_two_consumers_race_to_park_is_parked_once(redis: Any) -> None:
    # One consumer reclaims an entry the other is still retrying; both reach
    # max_deliveries and park it. The second finds it acknowledged already.
    await redis.xgroup_create(STREAM, "g", id="0", mkstream=True)
    entry_id = await redis.xadd(STREAM, {"m": b"poison"})
    await redis.xreadgroup("g", "a", {STREAM: ">"}, count=1)
    first = await deadletters.park(redis, "g", STREAM, "g", entry_id, {b"m": b"poison"}, "boom")
    second = await deadletters.park(redis, "g", STREAM, "g", entry_id, {b"m": b"poison"}, "boom")
    assert (first, second) == (True, False)
    assert [letter.fields for letter in await deadletters.listing(redis)] == [{b"m": b"poison"}]


async def test_an_outage_counts_nothing_against_a_message(redis: Any) -> None:
    await redis.xadd(STREAM, {"m": b"fine"})
    handler = Recorder(redis, bad=set(), outages=5)

    async def handled() -> bool:
        return bool(handler.handled)

    fast = StreamReader(
        redis, "g", "node", (STREAM,), 50, 60_000, block_ms=50, retry_pause_s=0.05, outage_pause_s=0.05
    )
    await run_until(fast, handler, handled)
    assert handler.handled == [b"fine"]
    assert await redis.xlen(DEAD_LETTERS) == 0, "five outages in a row are not five failures"


async def test_a_validator_that_fails_on_a_command_answers_its_request(
    redis: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = handlers.judge

    def broken(msg: CommandMsg, *args: Any) -> Any:
        if msg.game_id == "cursed":
            raise RuntimeError("a bug in the rules")
        return real(msg, *args)

    monkeypatch.setattr(handlers, "judge", broken)
    validator = Validator(TableCache(EventStore(redis)), redis)
    stream = command_stream(0)
    msg = MoveMsg(
        game_id="cursed",
        partition=0,
        command_id="k",
        correlation_id="c",
        reply_to="gw-1",
        request_id="req-1",
        received_ns=0,
        token_hash="x",
        command=msgspec.Raw(b'{"type":"highcard.play","card":1}'),
    )
    listener = redis.pubsub()
    await listener.subscribe(reply_channel("gw-1"))
    await redis.xadd(stream, {"m": encode(msg)})
    stage = StreamReader(
        redis, VALIDATOR, "v", (stream,), 50, 60_000, block_ms=50, retry_pause_s=0.05, max_deliveries=2
    )
    stopping = asyncio.Event()
    task = asyncio.create_task(stage.run(validator, stopping))
    try:
        outcome = None
        async with asyncio.timeout(15):
            while outcome is None:
                message = await listener.get_message(ignore_subscribe_messages=True, timeout=1)
                if message is not None:
                    outcome = decode_outcomes(message["data"])[0]
    finally:
        stopping.set()
        await asyncio.wait_for(task, 5)
        await listener.aclose()
    assert (outcome.status, outcome.code, outcome.request_id) == ("rejected", "dead_lettered", "req-1")
    assert "a bug in the rules" not in outcome.message, "the error is for operators, never the client"
    assert (await deadletters.listing(redis))[0].service == VALIDATOR
