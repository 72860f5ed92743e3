"""The hiredis packer sends exactly what redis-py's own packer sends."""

from __future__ import annotations

import pytest
import redis.asyncio as aioredis
from redis.exceptions import DataError

from shared.infra.redis_client import PackedConnection

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
