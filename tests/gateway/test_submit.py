"""A command's one wait (``writes.submit``): the append's answer is folded into
the wait for the outcome, so a failed append must still fail the command at once
with the store's error (never wait out the reply's deadline and claim the outcome
unknown), a good append must still lead to the outcome, and a missing outcome
must still end as ``outcome_unknown`` with the command appended. Against a real
Valkey, and a real port with nothing listening for the unreachable store."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import msgspec
import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from services.gateway.errors import ApiError
from services.gateway.watch import CommandWatch
from services.gateway.writes import submit
from shared.eventstore.keys import command_stream, reply_channel
from shared.infra.coalesce import Coalescer
from shared.infra.redis_client import Subscriber, connect
from shared.infra.valkey_server import free_port
from shared.messaging.messages import AcceptedOutcome, MoveMsg, client_key, decode_command, scoped_command_id
from shared.messaging.replies import Replies

pytestmark = pytest.mark.integration
NODE = "gw-submit-test"
HASH = "ab" * 32


def move(key: str = "c1") -> MoveMsg:
    """A seat's move under its idempotency key ``key``."""
    return MoveMsg(
        game_id="t1",
        partition=0,
        command_id=scoped_command_id(HASH, key),
        correlation_id="corr",
        reply_to=NODE,
        received_ns=1,
        token_hash=HASH,
        command={"type": "play", "card": 3},
    )


@contextlib.asynccontextmanager
async def gateway(redis: Any, store: Any, reply_timeout_s: float) -> AsyncIterator[Any]:
    """What ``submit`` uses of the gateway: its replies, its coalescer on ``store``,
    the command watch and the reply's deadline."""
    replies = Replies(Subscriber(redis), NODE)
    await replies.start()
    try:
        yield SimpleNamespace(
            replies=replies,
            batch=Coalescer(store),
            watch=SimpleNamespace(commands=CommandWatch()),
            settings=SimpleNamespace(reply_timeout_s=reply_timeout_s),
        )
    finally:
        await replies.stop()


async def answer_each(redis: Any) -> None:
    """A stage's part: read each command from its stream, publish its acceptance."""
    last = "0-0"
    while True:
        for _, entries in await redis.xread({command_stream(0): last}, block=1000) or []:
            for entry_id, fields in entries:
                last = entry_id
                msg = decode_command(fields[b"m"])
                outcome = AcceptedOutcome(
                    command_id=msg.command_id, request_id=msg.request_id, first=1, last=1
                )
                await redis.publish(reply_channel(msg.reply_to), msgspec.json.encode([outcome]))


async def test_a_good_append_leads_to_its_outcome(redis: Any) -> None:
    async with gateway(redis, redis, reply_timeout_s=30) as gw:
        stage = asyncio.create_task(answer_each(redis))
        try:
            outcome = await submit(gw, move(), "highcard")
        finally:
            stage.cancel()
        assert outcome.status == "accepted" and client_key(outcome.command_id) == "c1"
        ((_, fields),) = await redis.xrange(command_stream(0))
        assert decode_command(fields[b"m"]).request_id == outcome.request_id
        assert not gw.replies._waiting


async def test_a_failed_append_fails_the_command_with_the_stores_error(redis: Any) -> None:
    nowhere = connect(f"redis://127.0.0.1:{free_port()}")
    try:
        # The reply's deadline is far: had the failure waited for it, the answer
        # would be outcome_unknown, not the store's error.
        async with gateway(redis, nowhere, reply_timeout_s=300) as gw:
            with pytest.raises(RedisConnectionError):
                await asyncio.wait_for(submit(gw, move(), "highcard"), 120)
            assert not gw.replies._waiting
    finally:
        await nowhere.aclose()


async def test_no_outcome_in_time_is_outcome_unknown_and_the_command_appended(redis: Any) -> None:
    async with gateway(redis, redis, reply_timeout_s=0.3) as gw:
        with pytest.raises(ApiError) as refused:
            await submit(gw, move("c2"), "highcard")
        assert refused.value.code == "outcome_unknown"
        assert refused.value.details["command_id"] == "c2"
        assert await redis.xlen(command_stream(0)) == 1
        assert not gw.replies._waiting


async def test_a_request_given_up_leaves_nothing_waiting(redis: Any) -> None:
    async with gateway(redis, redis, reply_timeout_s=300) as gw:
        waiting = asyncio.create_task(submit(gw, move("c3"), "highcard"))
        assert await redis.xread({command_stream(0): "0-0"}, block=30_000)  # appended
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert not gw.replies._waiting
