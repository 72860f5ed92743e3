"""The hiredis packer sends exactly what redis-py's own packer sends; the
store settings are what the client waits."""

from __future__ import annotations

import time

import msgspec
import pytest
import redis.asyncio as aioredis
from redis.exceptions import DataError

from shared.infra.redis_client import PackedConnection, Publisher, StoreTimeouts, Subscriber, store_client
from shared.infra.settings import Settings

COMMANDS = [
    ("SET", "key", "value"),
    ("SCRIPT LOAD", "return 1"),
    (b"CLIENT SETNAME", b"x"),
    ("EVALSHA", "a" * 40, 2, "k1", "k2", 7, -3, b"\x00\xff" * 5000, "é"),
    ("XADD", "s", "MAXLEN", "~", 1_000_000, "*", "m", b"{}"),
    ("ZADD", "z", 1.5, "m"),
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: str(c[0]))
def test_same_bytes_as_redis_py(command: tuple[object, ...]) -> None:
    ours = b"".join(PackedConnection().pack_command(*command))
    theirs = b"".join(aioredis.Connection().pack_command(*command))
    assert ours == theirs


def test_an_unsendable_argument_is_a_data_error() -> None:
    with pytest.raises(DataError):
        PackedConnection().pack_command("SET", "k", None)


async def test_the_store_settings_reach_every_wait_of_the_client() -> None:
    """Every ``store_*`` setting is what the cluster client, its slot map, its
    subscribers and publishers wait (nothing is connected: the client is lazy)."""
    settings = Settings(
        redis_url="redis://127.0.0.1:1/0",
        cluster=True,
        durability_timeout_ms=500,
        store_socket_timeout_s=7.0,
        store_connect_timeout_s=0.3,
        store_suspect_s=20.0,
        store_reread_s=0.4,
        store_ping_every_s=0.5,
        store_silent_s=1.5,
        store_publish_timeout_s=0.7,
        store_resubscribe_pause_s=0.1,
    )
    client = store_client(settings)
    try:
        expected = StoreTimeouts(
            socket_s=7.0,
            connect_s=0.3,
            suspect_s=20.0,
            reread_s=0.4,
            ping_every_s=0.5,
            silent_s=1.5,
            publish_s=0.7,
            resubscribe_pause_s=0.1,
        )
        assert client.timeouts == expected
        assert client.nodes_manager.timeouts == expected
        kwargs = client.nodes_manager.connection_kwargs
        assert (kwargs["socket_timeout"], kwargs["socket_connect_timeout"]) == (7.0, 0.3)
        assert Subscriber(client).timeouts == expected
        assert Publisher(client).timeouts == expected
        client.suspects["127.0.0.1:1"] = time.monotonic() - 15.0
        assert client.suspected("127.0.0.1:1"), "suspected for store_suspect_s, not a constant"
    finally:
        await client.aclose()


async def test_a_durability_wait_longer_than_the_socket_timeout_extends_it() -> None:
    """A replica's acknowledgement waited for up to the durability timeout must not
    count the primary as failed first."""
    settings = Settings(redis_url="redis://127.0.0.1:1/0", cluster=True, durability_timeout_ms=9000)
    client = store_client(settings)
    try:
        assert client.timeouts.socket_s == 10.0
        assert client.nodes_manager.connection_kwargs["socket_timeout"] == 10.0
    finally:
        await client.aclose()


def test_a_listener_may_not_count_its_node_silent_before_pinging_it() -> None:
    with pytest.raises(msgspec.ValidationError, match="store_silent_s"):
        msgspec.convert({"store_ping_every_s": 2.0, "store_silent_s": 1.0}, Settings)
    with pytest.raises(msgspec.ValidationError, match="store_socket_timeout_s"):
        msgspec.convert({"store_socket_timeout_s": 0.1}, Settings)
