"""Where a running ``ziggurat run`` can be found: ``<root>/stack.json``.

``ziggurat run`` writes it once the stack is up and removes it when it stops,
so the other commands (``verify``, ``rebuild``, ``dead-letters``) reach the
stack actually running, whatever ports it ended up on. Next to it goes
``<root>/prometheus/targets.json``, a Prometheus file-based service discovery
file with one target per service. A file left behind by a ``ziggurat run``
that was killed is ignored: it names a process that is gone.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from urllib.parse import urlsplit

import msgspec
import psutil

from shared.infra.launcher import REPO, Stack

#: The job label of every target: one job, told apart by the ``service`` label.
JOB = "ziggurat"


class Service(msgspec.Struct, frozen=True):
    name: str
    metrics: str
    pid: int | None = None


class RunningStack(msgspec.Struct, frozen=True, kw_only=True):
    api: str
    redis_url: str
    cluster: bool
    partitions: int
    services: list[Service]
    #: The read models' own server, if they have one.
    read_model_url: str = ""
    #: The ``ziggurat run`` process that owns the stack.
    pid: int
    #: The Valkey it started, if it started one.
    valkey_pid: int | None = None

    def pids(self) -> list[int]:
        """Every process of the stack, ``ziggurat run`` itself excepted."""
        return [p for p in [*(s.pid for s in self.services), self.valkey_pid] if p is not None]


class Target(msgspec.Struct, frozen=True):
    targets: list[str]
    labels: dict[str, str]


def default_root() -> Path:
    return Path(os.environ.get("ZIGGURAT_ROOT") or REPO / "var")


def stack_file(root: Path) -> Path:
    return root / "stack.json"


def targets_file(root: Path) -> Path:
    return root / "prometheus" / "targets.json"


def describe(stack: Stack) -> RunningStack:
    """What ``stack.json`` says about a stack started by this process."""
    assert stack.redis_url is not None, "the stack is not started"
    return RunningStack(
        api=stack.api,
        redis_url=stack.redis_url,
        cluster=stack.cluster,
        partitions=stack.partitions,
        read_model_url=stack.read_models or "",
        services=[Service(name, url, stack.procs[name].pid) for name, url in stack.metrics_urls().items()],
        pid=os.getpid(),
        valkey_pid=stack.valkey.process.pid if stack.valkey and stack.valkey.process else None,
    )


def prometheus_targets(stack: RunningStack) -> list[Target]:
    return [Target([urlsplit(s.metrics).netloc], {"service": s.name, "job": JOB}) for s in stack.services]


def write(root: Path, stack: RunningStack) -> None:
    # Replaced whole, so a reader (Prometheus polls its file) never sees half a file.
    _replace(targets_file(root), msgspec.json.format(msgspec.json.encode(prometheus_targets(stack))))
    _replace(stack_file(root), msgspec.json.format(msgspec.json.encode(stack)))


def remove(root: Path) -> None:
    """Remove both files, if they are this process's."""
    found = _read(root)
    if found is not None and found.pid != os.getpid():
        return
    stack_file(root).unlink(missing_ok=True)
    targets_file(root).unlink(missing_ok=True)


def running_stack(root: Path | None = None) -> RunningStack | None:
    """The stack a live ``ziggurat run`` announced under ``root``, if any."""
    found = _read(root or default_root())
    return found if found is not None and _alive(found.pid) else None


def _read(root: Path) -> RunningStack | None:
    try:
        return msgspec.json.decode(stack_file(root).read_bytes(), type=RunningStack)
    except (OSError, msgspec.DecodeError):
        return None


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _replace(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    try:
        partial.write_bytes(data + b"\n")
        os.replace(partial, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
