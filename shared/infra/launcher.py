"""Start the whole system as separate processes: Valkey, then every service.

Used by ``make run``, the end-to-end and chaos tests, and the benchmarks, so
all of them exercise the same topology a deployment has. Each service writes
its JSON log to ``<root>/logs/<name>.log``. Every process runs in a session
of its own and, on Linux, is sent SIGTERM by the kernel if the launching
process dies without stopping it (``valkey_server.spawn``).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from shared.infra.durability import Level, appendfsync
from shared.infra.valkey_cluster import ValkeyCluster, start_cluster
from shared.infra.valkey_server import ValkeyServer, free_port, spawn

REPO = Path(__file__).resolve().parents[2]
#: How the pipeline's stages are spread over processes (services/stages).
Layout = Literal["separate", "together"]


@dataclass
class Proc:
    name: str
    module: str
    env: dict[str, str]
    health_url: str
    log_path: Path
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = self.log_path.open("ab")
        with log:
            self.process = spawn(
                [sys.executable, "-m", self.module], cwd=REPO, env=self.env, stdout=log, stderr=log
            )

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(self.health_url, timeout=0.5) as response:
                return bool(response.status == 200)
        except OSError:
            return False

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        if self.alive():
            assert self.process is not None
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM, then SIGKILL if it has not ended within ``timeout`` seconds."""
        self.terminate()
        self.wait(time.monotonic() + timeout)

    def terminate(self) -> None:
        if self.alive():
            assert self.process is not None
            self.process.send_signal(signal.SIGTERM)

    def wait(self, deadline: float) -> None:
        """Wait for it to end until ``deadline`` (monotonic), then SIGKILL it."""
        if self.process is None:
            return
        try:
            self.process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.kill()

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.alive() and self.process is not None else None


@dataclass
class Stack:
    root: Path
    redis_url: str | None = None  # an existing server; None starts one under root
    valkey_port: int = 0
    http_port: int = 0
    partitions: int = 4
    validators: int = 1
    reducers: int = 1
    projectors: int = 1
    #: "separate": a process per stage (``validators``, ``reducers`` and
    #: ``projectors`` of them); "together": the three stages hosted in each of
    #: ``reducers`` processes named ``stages-<i>`` (services/stages).
    layout: Layout = "separate"
    fsync: str = "everysec"
    #: The services use the cluster client. Without ``redis_url`` the stack
    #: starts a cluster of ``primaries`` primaries (default 3).
    cluster: bool = False
    #: Replicas per primary of the store it starts (0: none). With replicas and
    #: without ``cluster`` it starts a one-shard cluster (one primary and its
    #: replicas; docs/architecture.md, "The replicated store"): the services
    #: then use the cluster client too.
    replicas: int = 0
    #: Primaries of the cluster it starts (0: 3 with ``cluster``, else 1).
    primaries: int = 0
    #: docs/reliability.md, "Durability levels": the servers' fsync and
    #: min-replicas, and what the reducer waits for before it answers.
    durability: Level = "local"
    #: R, the replicas each acknowledged append must reach under the replicated
    #: levels (0: one).
    durability_replicas: int = 0
    #: ``cluster-node-timeout`` of the cluster it starts: how long a silent node
    #: takes to be failed over.
    node_timeout_ms: int = 3000
    #: The game read models on a Valkey of their own: an existing server's URL,
    #: or "start" for one under root without AOF (None: on the store's server).
    read_models: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    valkey: ValkeyServer | None = None
    #: The cluster it started (nodes, topology, faults: shared/infra/valkey_cluster.py).
    store: ValkeyCluster | None = None
    read_valkey: ValkeyServer | None = None
    procs: dict[str, Proc] = field(default_factory=dict)

    @property
    def api(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    @property
    def must_reach(self) -> int:
        """R: how many replicas an acknowledged append must reach under a replicated level."""
        return self.durability_replicas or 1

    def start(self, timeout: float = 60.0) -> Stack:
        if self.redis_url is None and (self.cluster or self.replicas):
            self.store = start_cluster(
                self.root / "valkey",
                masters=self.primaries or (3 if self.cluster else 1),
                fsync=self.fsync,
                replicas=self.replicas,
                durability=self.durability,
                durability_replicas=self.must_reach,
                node_timeout_ms=self.node_timeout_ms,
            )
            self.redis_url = self.store.url
            self.cluster = True
        elif self.redis_url is None:
            fsync = "always" if "always" in (self.fsync, appendfsync(self.durability)) else self.fsync
            self.valkey = ValkeyServer(
                self.root / "valkey", port=self.valkey_port or free_port(), fsync=fsync
            )
            self.valkey.start()
            self.redis_url = self.valkey.url
        if self.read_models == "start" and self.cluster:
            # The services reach it with the cluster client too: a one-node cluster
            # holding every slot, unreplicated (its data is rebuilt from the store).
            (self.read_valkey,) = start_cluster(self.root / "valkey-read-models", masters=1, durable=False)
            self.read_models = self.read_valkey.url
        elif self.read_models == "start":
            self.read_valkey = ValkeyServer(self.root / "valkey-read-models", port=free_port(), durable=False)
            self.read_valkey.start()
            self.read_models = self.read_valkey.url
        self.http_port = self.http_port or free_port()
        for proc in self._plan():
            self.procs[proc.name] = proc
            proc.start()
        self.wait_healthy(timeout)
        return self

    def _plan(self) -> list[Proc]:
        plan = [self._proc("gateway", "services.gateway", self.http_port, {})]
        for i in range(self.reducers if self.layout == "together" else 0):
            plan.append(self._proc(f"stages-{i}", "services.stages", free_port(), {}))
        for i in range(self.validators if self.layout == "separate" else 0):
            plan.append(self._proc(f"validator-{i}", "services.validator", free_port(), {}))
        for i in range(self.reducers if self.layout == "separate" else 0):  # alike: leases share them out
            plan.append(self._proc(f"reducer-{i}", "services.reducer", free_port(), {}))
        for i in range(self.projectors if self.layout == "separate" else 0):
            plan.append(self._proc(f"projector-{i}", "services.projector", free_port(), {}))
        plan.append(self._proc("platform", "services.platform", free_port(), {"ZIGGURAT_API_URL": self.api}))
        return plan

    def _proc(self, name: str, module: str, port: int, extra: dict[str, str]) -> Proc:
        env = {
            **os.environ,
            "PYTHONPATH": str(REPO),
            "ZIGGURAT_REDIS_URL": str(self.redis_url),
            "ZIGGURAT_READ_MODEL_URL": self.read_models or "",
            "ZIGGURAT_CLUSTER": "true" if self.cluster else "false",
            "ZIGGURAT_PARTITIONS": str(self.partitions),
            "ZIGGURAT_DURABILITY": self.durability,
            "ZIGGURAT_DURABILITY_REPLICAS": str(self.must_reach),
            "ZIGGURAT_NODE": name,
            "ZIGGURAT_HTTP_PORT": str(port),
            "ZIGGURAT_METRICS_PORT": str(port),
            **self.env,
            **extra,
        }
        return Proc(name, module, env, f"http://127.0.0.1:{port}/health", self.root / "logs" / f"{name}.log")

    def wait_healthy(self, timeout: float = 60.0, names: list[str] | None = None) -> None:
        deadline = time.monotonic() + timeout
        waiting = [self.procs[n] for n in (names or list(self.procs))]
        while waiting and time.monotonic() < deadline:
            for proc in list(waiting):
                if not proc.alive():
                    raise RuntimeError(f"{proc.name} exited; see {proc.log_path}")
                if proc.healthy():
                    waiting.remove(proc)
            time.sleep(0.1)
        if waiting:
            raise RuntimeError(f"not healthy in {timeout}s: {[p.name for p in waiting]}")

    def metrics_urls(self) -> dict[str, str]:
        return {name: p.health_url.replace("/health", "/metrics") for name, p in self.procs.items()}

    def restart(self, name: str) -> None:
        proc = self.procs[name]
        proc.stop()
        proc.start()
        self.wait_healthy(names=[name])

    def stop(self, timeout: float = 10.0) -> None:
        """Every service at once (SIGTERM, then SIGKILL after ``timeout`` seconds),
        then Valkey: the services still flush what they hold to it as they stop."""
        for proc in self.procs.values():
            proc.terminate()
        deadline = time.monotonic() + timeout
        for proc in self.procs.values():
            proc.wait(deadline)
        if self.store is not None:
            self.store.stop()
        for server in (self.valkey, self.read_valkey):
            if server is not None:
                server.stop()
