"""What the tests of the replicated store share: a one-shard cluster with a replica
under ``replicated`` (the ``one_shard`` fixture, a plugin registered by
tests/conftest.py), and a look at what a replica itself holds."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis as sync_redis

from shared.infra.valkey_cluster import ValkeyCluster, start_cluster
from shared.infra.valkey_server import ValkeyServer


def on_replica(replica: ValkeyServer, *command: object) -> Any:
    """A read asked of the replica itself (READONLY: a replica serves reads of its slots)."""
    client = sync_redis.Redis(port=replica.port, socket_timeout=5)
    try:
        client.execute_command("READONLY")  # type: ignore[no-untyped-call]
        return client.execute_command(*command)  # type: ignore[no-untyped-call]
    finally:
        client.close()


def replica_value(replica: ValkeyServer, key: str) -> bytes | None:
    """The string the replica itself holds at ``key``."""
    value = on_replica(replica, "GET", key)
    return value if isinstance(value, bytes) else None


@pytest.fixture
def one_shard(tmp_path: Path) -> Iterator[ValkeyCluster]:
    store = start_cluster(
        tmp_path / "store", masters=1, replicas=1, durability="replicated", durability_replicas=1
    )
    try:
        yield store
    finally:
        store.stop()
