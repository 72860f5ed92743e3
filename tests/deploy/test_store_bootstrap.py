"""The shipped store, run for real: six Valkey nodes on the settings of
deploy/valkey.conf (only their folders and ports are the test's own), formed by
deploy/valkey-cluster-init.sh exactly as compose and the Kubernetes Job run it.
Three primaries with a replica each, in sync; a primary cut off from its replica
refuses writes; running the script again changes nothing; a node replaced with an
empty disk joins again as a replica, and the node it replaced is forgotten."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis

from shared.infra.durability import NoReplicasError
from shared.infra.valkey_cluster import ValkeyCluster
from shared.infra.valkey_server import ValkeyServer, cluster_port, find_binary

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


@dataclass
class ShippedNode(ValkeyServer):
    """A node started from a copy of deploy/valkey.conf (its ``dir`` made the node's own)."""

    def command(self) -> list[str]:
        conf = self.data_dir / "valkey.conf"
        shipped = (DEPLOY / "valkey.conf").read_text()
        conf.write_text(shipped.replace("\ndir /data\n", f"\ndir {self.data_dir}\n"))
        return [
            find_binary(),
            str(conf),
            *("--port", str(self.port), "--bind", "127.0.0.1"),
            *("--cluster-announce-hostname", "localhost", "--logfile", str(self.data_dir / "valkey.log")),
            # Sized for a test machine, not a production one.
            *("--maxmemory", "64mb", "--repl-backlog-size", "1mb"),
        ]


def form(nodes: list[ValkeyServer]) -> subprocess.CompletedProcess[str]:
    """deploy/valkey-cluster-init.sh with one replica per primary, as compose runs it."""
    env = {**os.environ, "PATH": f"{Path(find_binary('cli')).parent}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run(
        ["sh", str(DEPLOY / "valkey-cluster-init.sh"), "1", *(f"127.0.0.1:{n.port}" for n in nodes)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )


@pytest.fixture
def store(tmp_path: Path) -> Iterator[ValkeyCluster]:
    # The shipped script resolves the nodes' names with getent (libc-bin, on every
    # Debian image the store runs on): its absence is a broken machine, not a reason to pass.
    assert shutil.which("getent") is not None, "getent is missing: install Debian's libc-bin"
    nodes: list[ValkeyServer] = [ShippedNode(tmp_path / f"node{i}", port=cluster_port()) for i in range(6)]
    cluster = ValkeyCluster(nodes)
    try:
        for node in nodes:
            node.start()
        yield cluster
    finally:
        cluster.stop()


def topology(store: ValkeyCluster) -> list[tuple[int, tuple[tuple[int, int], ...], tuple[int, ...]]]:
    return [(s.primary.port, s.slots, tuple(r.port for r in s.replicas)) for s in store.shards()]


def test_the_shipped_store_forms_replicates_refuses_and_repairs(store: ValkeyCluster) -> None:
    form(store.nodes)
    store.wait_ok()
    store.wait_synced()
    formed = topology(store)
    assert len(formed) == 3 and all(len(replicas) == 1 for _, _, replicas in formed)
    assert sum(hi - lo + 1 for _, slots, _ in formed for lo, hi in slots) == 16384

    # min-replicas-to-write 1: a primary whose replica is cut off takes no write.
    shard = store.shards()[0]
    primary = redis.Redis(port=shard.primary.port)
    key = next(f"k{i}" for i in range(10_000) if store.shard_of(f"k{i}") == shard)
    assert primary.set(key, b"1")
    store.cut_link(shard.replicas[0])
    with pytest.raises(NoReplicasError):
        primary.set(key, b"2")
    store.heal_link(shard.replicas[0])
    store.wait_synced()
    primary.close()

    # Again: nothing changes.
    form(store.nodes)
    assert topology(store) == formed

    # A replica replaced with an empty disk joins again; the one it replaced is forgotten.
    (replaced,) = shard.replicas
    replaced.kill()
    shutil.rmtree(replaced.data_dir)
    replaced.start()
    form(store.nodes)
    store.wait_ok()
    store.wait_synced()
    assert topology(store) == formed
    for node in store.nodes:
        client = redis.Redis(port=node.port, decode_responses=True)
        lines = client.execute_command("CLUSTER", "NODES")  # type: ignore[no-untyped-call]
        client.close()
        assert len(str(lines).splitlines()) == 6, lines
