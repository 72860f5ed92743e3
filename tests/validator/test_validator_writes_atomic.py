"""The validator's write is one transaction, against a real Valkey.

It passes valid commands on (``XADD`` to the partition's ``validated`` stream)
and acknowledges their entries (``XACK``). Were the two separate, a server
refusing the XADD (out of memory: it refuses growing commands but still takes
an XACK) would acknowledge a command that went nowhere: lost. In one MULTI the
refused XADD aborts the EXEC, the entry stays pending, and once the server
takes writes again the command goes through.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from services.reducer.handlers import Reducer
from services.validator.handlers import GROUP as VALIDATOR
from services.validator.handlers import Validator
from shared.eventstore.keys import GameKeys, command_stream, validated_stream
from shared.eventstore.store import EventStore
from shared.eventstore.tables import TableCache
from shared.games import registry
from shared.messaging.messages import decode_command, encode
from shared.messaging.streams import StreamReader
from shared.observability import metrics
from tests.support.messages import move_msg, open_msg
from tests.support.waiting import until

pytestmark = pytest.mark.integration
GAME = "highcard"
TOKENS = ("seat-0", "seat-1")


async def test_a_command_the_server_cannot_pass_on_stays_pending_and_goes_through_later(redis: Any) -> None:
    store = EventStore(redis)
    await Reducer(store, TableCache(store)).process([open_msg(GAME, TOKENS)])
    table = (await TableCache(store).refresh([GameKeys("g", 0)]))["g"]
    assert table is not None
    game = registry.get(GAME)
    seat = min(game.actors(table.state))
    msg = move_msg(TOKENS[seat], game.legal(table.state, seat)[0], "cmd-1", seat=seat)
    inbox, outbox = command_stream(0), validated_stream(0)
    stage = StreamReader(redis, VALIDATOR, "v", (inbox,), 50, 60_000, block_ms=50, retry_pause_s=0.05)
    await redis.config_set("maxmemory-policy", "noeviction")
    before = failed_writes()
    stopping = asyncio.Event()
    task = asyncio.create_task(stage.run(Validator(TableCache(store), redis), stopping))
    try:

        async def reading() -> bool:
            return bool(await redis.exists(inbox) and await redis.xinfo_consumers(inbox, VALIDATOR))

        assert await until(reading, 10, every_s=0.02)
        # The command arrives, and the server stops taking growing writes, in one step:
        # the reader's blocked read is answered only after both.
        async with redis.pipeline(transaction=True) as pipe:
            pipe.xadd(inbox, {"m": encode(msg)})
            pipe.config_set("maxmemory", "1")  # below what the server already holds
            await pipe.execute()

        async def refused() -> bool:
            return failed_writes() > before

        assert await until(refused, 10, every_s=0.02)
        assert await redis.xlen(outbox) == 0, "nothing passed on while the server refused writes"
        pending = (await redis.xpending(inbox, VALIDATOR))["pending"]
        assert pending == 1, "the command was acknowledged, yet went nowhere"
        await redis.config_set("maxmemory", "0")

        async def passed_on() -> bool:
            left = (await redis.xpending(inbox, VALIDATOR))["pending"]
            return bool(await redis.xlen(outbox) == 1 and left == 0)

        assert await until(passed_on, 10, every_s=0.02)
    finally:
        await redis.config_set("maxmemory", "0")
        stopping.set()
        await asyncio.wait_for(task, 5)
    ((_, fields),) = await redis.xrange(outbox)
    assert decode_command(fields[b"m"]).command_id == "cmd-1"


def failed_writes() -> float:
    return float(metrics.ERRORS.labels(VALIDATOR, "batch")._value.get())
