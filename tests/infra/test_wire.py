"""The thin Redis path (shared/infra/wire.py) against a real Valkey: replies
shaped as redis-py shapes them, errors as redis-py's classes, a cancelled
request that leaves no reply behind for the next caller, and a restarted
server that costs one failed request at most, never a wrong answer."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from redis.exceptions import BusyLoadingError, NoScriptError, ResponseError
from redis.exceptions import ConnectionError as RedisConnectionError

from shared.infra.lua import LuaScript
from shared.infra.redis_client import connect
from shared.infra.valkey_server import ValkeyServer, free_port
from shared.infra.wire import LeanPipeline, LeanRedis
from shared.messaging.streams import TRANSIENT

pytestmark = pytest.mark.integration


async def test_pipelines_and_commands_take_the_thin_path_with_redis_pys_shapes(redis: Any) -> None:
    assert isinstance(redis, LeanRedis) and redis.wire is not None
    async with redis.pipeline(transaction=False) as pipe:
        assert isinstance(pipe, LeanPipeline)
        pipe.xadd("s", {"f": b"v"}, id="1-1")
        pipe.xrange("s")
        pipe.hset("h", mapping={"a": 1})
        pipe.hexists("h", "a")
        pipe.hgetall("h")
        pipe.zadd("z", {"m": 2.5})
        pipe.zrangebyscore("z", "-inf", "+inf", withscores=True)
        replies = await pipe.execute()
    assert replies == [b"1-1", [(b"1-1", {b"f": b"v"})], 1, True, {b"a": b"1"}, 1, [(b"m", 2.5)]]
    await redis.xgroup_create("s", "g", id="0")
    assert await redis.xreadgroup("g", "c", {"s": ">"}) == [[b"s", [(b"1-1", {b"f": b"v"})]]]
    assert await redis.xreadgroup("g", "c", {"s": ">"}, block=10) == []
    # A transaction still goes through redis-py, atomically.
    async with redis.pipeline(transaction=True) as tx:
        tx.incr("n")
        tx.incr("n")
        assert await tx.execute() == [1, 2]


async def test_shapes_as_redis_py_for_every_kind_of_callback_and_name(redis: Any) -> None:
    """The pipeline shapes its replies without a coroutine each: a callback's
    options still reach it, an error's empty answer still stands in for it, an
    awaitable callback is still awaited, and a name of two words is still two."""

    async def awaited(reply: Any, **options: Any) -> Any:
        await asyncio.sleep(0)
        return ("awaited", reply)

    await redis.set("k", "v")
    await redis.sadd("set", "a")
    async with redis.pipeline(transaction=False) as pipe:
        pipe.set_response_callback("STRLEN", awaited)
        pipe.strlen("k")
        pipe.mget([])  # refused by the server: redis-py's empty answer instead
        pipe.zadd("z", {"m": 1.5})
        pipe.zrange("z", 0, -1, withscores=True)  # the callback takes its options
        pipe.execute_command("OBJECT ENCODING", "k")
        pipe.execute_command(b"OBJECT ENCODING", "set")
        pipe.get("k")
        replies = await pipe.execute()
    assert replies == [("awaited", 1), [], 1, [(b"m", 1.5)], b"embstr", b"listpack", b"v"]


async def test_errors_are_redis_pys_and_sit_in_place_when_asked(redis: Any) -> None:
    await redis.set("k", "v")
    with pytest.raises(NoScriptError):
        await redis.evalsha("0" * 40, 0)
    async with redis.pipeline(transaction=False) as pipe:
        pipe.lpush("k", "x").get("k")
        wrong, value = await pipe.execute(raise_on_error=False)
    assert isinstance(wrong, ResponseError) and "WRONGTYPE" in str(wrong) and value == b"v"
    with pytest.raises(ResponseError):
        async with redis.pipeline(transaction=False) as pipe:
            await pipe.lpush("k", "x").execute()
    # A server still loading its data: an outage (raised, even from a pipeline), not an answer.
    loading = "return redis.error_reply('LOADING Valkey is loading the dataset in memory')"
    with pytest.raises(BusyLoadingError):
        await redis.eval(loading, 0)
    with pytest.raises(TRANSIENT):
        async with redis.pipeline(transaction=False) as pipe:
            await pipe.get("k").eval(loading, 0).execute(raise_on_error=False)
    assert await redis.get("k") == b"v"
    # A server that lost its scripts: only those calls are loaded and run again.
    script = LuaScript("return ARGV[1]")
    await redis.script_flush()
    assert await script.run(redis, [((), ("a",)), ((), ("b",))]) == [b"a", b"b"]


async def test_a_cancelled_request_leaves_no_reply_for_the_next_one(redis: Any) -> None:
    await redis.xgroup_create("s", "g", id="0", mkstream=True)
    await redis.set("k", "v")
    waiting = asyncio.create_task(redis.xreadgroup("g", "c", {"s": ">"}, block=300))
    await asyncio.sleep(0.05)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    await redis.xadd("s", {"f": b"1"}, id="1-1")
    await asyncio.sleep(0.4)  # past the block: the server answered the cancelled read into a closed socket
    assert await redis.get("k") == b"v"
    assert await redis.xreadgroup("g", "c", {"s": ">"}) == [[b"s", [(b"1-1", {b"f": b"1"})]]]


async def test_a_restarted_server_costs_at_most_the_requests_in_flight(tmp_path: Path) -> None:
    port = free_port()
    server = ValkeyServer(tmp_path / "a", port=port).start()
    client = connect(server.url)
    try:
        await client.set("k", "1")
        server.kill()
        with pytest.raises(TRANSIENT):
            await client.get("k")
        with pytest.raises(RedisConnectionError):
            await client.get("k")  # nobody listens: an outage, as the stages expect it
        server = ValkeyServer(tmp_path / "b", port=port).start()
        await client.set("k", "2")  # the idle connection the server dropped is not reused
        assert await client.get("k") == b"2"
        # Idle connections the server closes while nobody asks are dropped unused.
        server.stop()
        server = ValkeyServer(tmp_path / "c", port=port).start()
        await asyncio.sleep(0.1)
        assert await client.get("k") is None
    finally:
        await client.aclose()
        server.stop()
