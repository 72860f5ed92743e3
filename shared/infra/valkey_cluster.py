"""A Valkey cluster on loopback: N primaries with R replicas each, and the faults
a chaos test puts it through.

The cluster is formed by hand (slots, ``CLUSTER MEET``, ``CLUSTER REPLICATE``)
rather than with ``valkey-cli --cluster create``, which wants three primaries
and places replicas as it likes: here a one-shard store works the same way and
every replica's primary is known. :func:`start_cluster` returns once every node
reports ``cluster_state:ok`` and every replica is in sync.

The topology is read from the nodes themselves (:meth:`ValkeyCluster.shards`),
never remembered, since a failover changes who is primary of what.
"""

from __future__ import annotations

import math
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis
from redis.crc import key_slot

from shared.infra.durability import Level, server_args
from shared.infra.valkey_server import ValkeyServer, cluster_port

SLOTS = 16384


def _ask(server: ValkeyServer, *args: Any, timeout: float = 2.0) -> Any:
    """One command to one node, answered as text."""
    client = redis.Redis(
        host="127.0.0.1",
        port=server.port,
        socket_timeout=timeout,
        socket_connect_timeout=timeout,
        decode_responses=True,
    )
    try:
        return client.execute_command(*args)  # type: ignore[no-untyped-call]
    finally:
        client.close()


def _info(server: ValkeyServer, section: str) -> dict[str, str]:
    text = _ask(server, "INFO", section)
    if isinstance(text, dict):  # redis-py parses INFO itself
        return {k: str(v) for k, v in text.items()}
    return dict(line.split(":", 1) for line in str(text).splitlines() if ":" in line)


@dataclass(frozen=True)
class Shard:
    """One primary, the slot ranges it serves (inclusive), and its replicas."""

    primary: ValkeyServer
    slots: tuple[tuple[int, int], ...]
    replicas: tuple[ValkeyServer, ...]

    def owns(self, slot: int) -> bool:
        return any(lo <= slot <= hi for lo, hi in self.slots)


@dataclass
class ValkeyCluster:
    """The nodes of a cluster this process started, and the faults to inject into them."""

    nodes: list[ValkeyServer]
    #: Each replica's primary as formed (a failover changes it: see :meth:`shards`).
    formed: dict[int, int] = field(default_factory=dict)
    #: Replicas whose link to their primary :meth:`cut_link` holds cut.
    cut: set[int] = field(default_factory=set)

    @property
    def url(self) -> str:
        """The node named to clients (the first primary formed)."""
        return self.nodes[0].url

    def __iter__(self) -> Iterator[ValkeyServer]:
        return iter(self.nodes)

    def node(self, port: int) -> ValkeyServer:
        (found,) = [n for n in self.nodes if n.port == port]
        return found

    def reachable(self) -> list[ValkeyServer]:
        return [n for n in self.nodes if n.alive() and not n.paused]

    # ------------------------------------------------------------- topology

    def shards(self) -> list[Shard]:
        """Who serves which slots now, and who replicates whom, as a live node sees it."""
        view = self._nodes_view()
        shards = []
        for node_id, fields in view.items():
            if "master" not in fields["flags"] or not fields["slots"]:
                continue
            replicas = tuple(
                self.node(f["port"]) for f in view.values() if f["primary"] == node_id and not _failing(f)
            )
            shards.append(Shard(self.node(fields["port"]), tuple(fields["slots"]), replicas))
        return sorted(shards, key=lambda s: s.slots[0][0])

    def shard_of(self, key: str) -> Shard:
        """The shard serving ``key``'s slot (a partition's keys: ``zg:{p3}:feed``)."""
        slot = key_slot(key.encode())
        (found,) = [s for s in self.shards() if s.owns(slot)]
        return found

    def primaries(self) -> list[ValkeyServer]:
        return [s.primary for s in self.shards()]

    def replicas(self) -> list[ValkeyServer]:
        return [r for s in self.shards() for r in s.replicas]

    def role(self, node: ValkeyServer) -> str:
        """``master`` or ``slave``, as the node itself says."""
        return _info(node, "replication")["role"]

    def _nodes_view(self) -> dict[str, dict[str, Any]]:
        """``CLUSTER NODES`` of the first reachable node that answers, parsed."""
        last: Exception | None = None
        for server in self.reachable():
            try:
                text = _ask(server, "CLUSTER", "NODES", timeout=1.0)
            except redis.RedisError as exc:
                last = exc
                continue
            return _parse_nodes(text)
        raise RuntimeError(f"no node of the cluster answers: {last}")

    # ---------------------------------------------------------------- waits

    def wait_ok(self, timeout: float = 60.0) -> None:
        """Until every slot is served by a primary this process can reach, and every
        reachable node says ``cluster_state:ok``, knows every other and sees the same
        primaries (after a failover: once the successor serves the dead primary's slots)."""
        deadline = time.monotonic() + timeout
        seen = ""
        reachable = {n.port for n in self.reachable()}
        while time.monotonic() < deadline:
            try:
                states = [_cluster_info(n) for n in self.reachable()]
                views = [_parse_nodes(_ask(n, "CLUSTER", "NODES")) for n in self.reachable()]
                serving = {_serving(v) for v in views}
                ports = {f["port"] for v in views for i, f in v.items() if i in next(iter(serving))}
                slots = sorted(r for f in views[0].values() if f["port"] in ports for r in f["slots"])
                whole = sum(hi - lo + 1 for lo, hi in slots) == SLOTS
                met = all(reachable <= {f["port"] for f in v.values()} for v in views)
                if (
                    all(s.get("cluster_state") == "ok" for s in states)
                    and len(serving) == 1
                    and ports <= reachable
                    and whole
                    and met
                ):
                    return
                seen = f"states {[s.get('cluster_state') for s in states]}, {len(serving)} views"
            except redis.RedisError as exc:
                seen = str(exc)
            time.sleep(0.1)
        raise RuntimeError(f"the cluster did not settle in {timeout}s ({seen})")

    def wait_synced(self, timeout: float = 60.0) -> None:
        """Until every replica of every shard has its link up and holds all its primary wrote."""
        deadline = time.monotonic() + timeout
        behind: list[str] = []
        while time.monotonic() < deadline:
            behind = []
            try:
                for shard in self.shards():
                    offset = int(_info(shard.primary, "replication")["master_repl_offset"])
                    for replica in shard.replicas:
                        info = _info(replica, "replication")
                        have = int(info.get("slave_repl_offset", "-1"))
                        if info.get("master_link_status") != "up" or have < offset:
                            behind.append(f"{replica.port}: {have}/{offset}")
            except redis.RedisError as exc:
                behind = [str(exc)]
            if not behind:
                return
            time.sleep(0.1)
        raise RuntimeError(f"replicas not in sync within {timeout}s: {behind}")

    # --------------------------------------------------------------- faults

    def kill(self, node: ValkeyServer) -> None:
        """``kill -9`` one node: its cluster fails it over after ``cluster-node-timeout``."""
        node.kill()

    def pause(self, node: ValkeyServer) -> None:
        """SIGSTOP one node (see :meth:`ValkeyServer.pause`)."""
        node.pause()

    def resume(self, node: ValkeyServer) -> None:
        node.resume()

    def restart(self, node: ValkeyServer) -> None:
        """Start a killed node again on its port and data: it reloads its AOF and
        rejoins; a primary that was failed over comes back as a replica of its successor."""
        node.start()

    def cut_link(self, replica: ValkeyServer) -> None:
        """Cut a replica's replication link and keep it cut until :meth:`heal_link`.

        The replica drops its connection to its primary and can no longer
        authenticate to reconnect (a password the primary does not have), while
        it stays up and in the cluster: its primary sees it gone (fewer good
        replicas, ``WAIT`` short), and the replica falls behind, as over a
        broken network path. A failover in the meantime promotes a stale replica.
        """
        _ask(replica, "CONFIG", "SET", "masterauth", secrets.token_hex(8))
        _ask(replica, "CLIENT", "KILL", "TYPE", "master")
        self.cut.add(replica.port)

    def heal_link(self, replica: ValkeyServer) -> None:
        """Let the replica reconnect (within about a second) and catch up."""
        _ask(replica, "CONFIG", "SET", "masterauth", "")
        self.cut.discard(replica.port)

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()


def _cluster_info(server: ValkeyServer) -> dict[str, str]:
    text = _ask(server, "CLUSTER", "INFO")
    if isinstance(text, dict):
        return {k: str(v) for k, v in text.items()}
    return dict(line.split(":", 1) for line in str(text).splitlines() if ":" in line)


def _serving(view: dict[str, dict[str, Any]]) -> tuple[str, ...]:
    """The ids of the primaries serving slots, in one node's view."""
    return tuple(
        sorted(i for i, f in view.items() if "master" in f["flags"] and f["slots"] and not _failing(f))
    )


def _failing(fields: dict[str, Any]) -> bool:
    """Failed, or suspected by this node (``fail?``): not to be counted on."""
    return bool({"fail", "fail?"} & fields["flags"])


def _parse_nodes(text: str) -> dict[str, dict[str, Any]]:
    """``CLUSTER NODES`` lines by node id: port, flags, primary id, slot ranges."""
    out: dict[str, dict[str, Any]] = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 8:
            continue
        node_id, address, flags, primary = parts[0], parts[1], set(parts[2].split(",")), parts[3]
        slots = []
        for item in parts[8:]:
            if item.startswith("["):  # a slot being migrated
                continue
            lo, _, hi = item.partition("-")
            slots.append((int(lo), int(hi or lo)))
        port = int(address.split("@")[0].rsplit(":", 1)[1])
        out[node_id] = {"port": port, "flags": flags, "primary": primary, "slots": slots}
    return out


def start_cluster(
    base_dir: Path,
    masters: int = 3,
    fsync: str = "everysec",
    replicas: int = 0,
    durability: Level = "local",
    durability_replicas: int = 0,
    node_timeout_ms: int = 3000,
    durable: bool = True,
) -> ValkeyCluster:
    """A cluster of ``masters`` primaries (slots spread evenly) with ``replicas`` replicas
    each, on loopback, every node with its append-only file.

    ``durability`` sets each node's ``appendfsync`` (``always`` for the fsync
    levels, else ``fsync``) and, for the replicated levels, makes primaries
    refuse writes without ``durability_replicas`` good replicas.
    ``node_timeout_ms`` is ``cluster-node-timeout``: how long a silent node
    takes to be failed over, and how long a primary cut off from the majority
    keeps accepting writes. ``durable=False``: no AOF, for derived data only.
    """
    max_lag_s = max(1, math.ceil(node_timeout_ms / 1000))
    options = [
        "--cluster-node-timeout", str(node_timeout_ms),
        # One failing shard must not stop the others: without this a cluster
        # refuses every command while any slot has no primary.
        "--cluster-require-full-coverage", "no",
        # A replica that reconnects after a cut continues from the backlog
        # instead of copying the whole data set, if the backlog reaches back.
        "--repl-backlog-size", "64mb",
        "--repl-diskless-sync-delay", "0",
        *server_args(durability, durability_replicas, max_lag_s),
    ]  # fmt: skip
    if fsync == "always" and "--appendfsync" in options:
        options[options.index("--appendfsync") + 1] = "always"
    total = masters * (1 + replicas)
    nodes = [
        ValkeyServer(
            base_dir / f"node{i}", port=cluster_port(), cluster=True, durable=durable, extra=list(options)
        ).start()
        for i in range(total)
    ]
    cluster = ValkeyCluster(nodes)
    try:
        _form(cluster, nodes[:masters], nodes[masters:], replicas)
    except BaseException:
        cluster.stop()
        raise
    return cluster


def _form(
    cluster: ValkeyCluster, primaries: list[ValkeyServer], others: list[ValkeyServer], replicas: int
) -> None:
    for i, primary in enumerate(primaries):
        lo = i * SLOTS // len(primaries)
        hi = (i + 1) * SLOTS // len(primaries) - 1
        _ask(primary, "CLUSTER", "SET-CONFIG-EPOCH", i + 1)
        _ask(primary, "CLUSTER", "ADDSLOTSRANGE", lo, hi)
    first = cluster.nodes[0]
    for node in cluster.nodes[1:]:
        _ask(node, "CLUSTER", "MEET", "127.0.0.1", first.port)
    ids = {n.port: _ask(n, "CLUSTER", "MYID") for n in cluster.nodes}
    _wait_known(cluster, len(cluster.nodes))
    for i, replica in enumerate(others):
        primary = primaries[i // replicas]
        _ask(replica, "CLUSTER", "REPLICATE", ids[primary.port])
        cluster.formed[replica.port] = primary.port
    cluster.wait_ok()
    cluster.wait_synced()


def _wait_known(cluster: ValkeyCluster, count: int, timeout: float = 30.0) -> None:
    """Until every node knows every other (the handshakes are over)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        views = [_parse_nodes(_ask(n, "CLUSTER", "NODES")) for n in cluster.nodes]
        if all(
            len(v) == count and not any({"handshake", "noaddr"} & f["flags"] for f in v.values())
            for v in views
        ):
            return
        time.sleep(0.05)
    raise RuntimeError("the cluster's nodes did not all meet")
