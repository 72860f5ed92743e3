"""Where the commands look for the system: flag, then environment, then the
running `ziggurat run` (its stack.json), then the default; and the
`dead-letters` command's wiring."""

from __future__ import annotations

import os
import sys
import types
from pathlib import Path

import psutil
import pytest

from shared.cli import discovery
from shared.cli.main import main as ziggurat
from shared.infra.valkey_server import free_port


def _announce(root: Path, redis_url: str, *, pid: int | None = None, cluster: bool = False) -> None:
    discovery.write(
        root,
        discovery.RunningStack(
            api="http://127.0.0.1:1",
            redis_url=redis_url,
            cluster=cluster,
            partitions=7,
            services=[discovery.Service("gateway", "http://127.0.0.1:1/metrics")],
            pid=os.getpid() if pid is None else pid,
        ),
    )


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[tuple[str, str | None, str, bool]]:
    """What the dead-letters command was called with, through a stand-in module."""
    for name in ("ZIGGURAT_REDIS_URL", "ZIGGURAT_CLUSTER", "ZIGGURAT_PARTITIONS", "ZIGGURAT_API"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ZIGGURAT_ROOT", str(tmp_path))
    calls: list[tuple[str, str | None, str, bool]] = []
    stand_in = types.ModuleType("shared.cli.deadletters")

    def dead_letters_command(action: str, entry_id: str | None, redis_url: str, cluster: bool) -> int:
        calls.append((action, entry_id, redis_url, cluster))
        return 0

    stand_in.dead_letters_command = dead_letters_command  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "shared.cli.deadletters", stand_in)
    return calls


def test_the_redis_url_comes_from_flag_then_environment_then_the_running_stack(
    seen: list[tuple[str, str | None, str, bool]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert ziggurat(["dead-letters", "list"]) == 0
    assert seen[-1] == ("list", None, "redis://127.0.0.1:6399/0", False)

    _announce(tmp_path, "redis://127.0.0.1:7001/0", cluster=True)
    assert ziggurat(["dead-letters", "show", "1-0"]) == 0
    assert seen[-1] == ("show", "1-0", "redis://127.0.0.1:7001/0", True)

    monkeypatch.setenv("ZIGGURAT_REDIS_URL", "redis://127.0.0.1:7002/0")
    assert ziggurat(["dead-letters", "retry", "1-0"]) == 0
    # Another Redis than the stack's: its cluster flag is not the stack's either.
    assert seen[-1] == ("retry", "1-0", "redis://127.0.0.1:7002/0", False)

    assert ziggurat(["dead-letters", "drop", "1-0", "--redis", "redis://h:7003/0", "--cluster"]) == 0
    assert seen[-1] == ("drop", "1-0", "redis://h:7003/0", True)


def test_a_stack_file_left_by_a_dead_run_is_ignored(
    seen: list[tuple[str, str | None, str, bool]], tmp_path: Path
) -> None:
    gone = max(psutil.pids()) + 100_000
    _announce(tmp_path, "redis://127.0.0.1:7001/0", pid=gone)
    assert discovery.running_stack(tmp_path) is None
    assert ziggurat(["dead-letters", "list"]) == 0
    assert seen[-1][2] == "redis://127.0.0.1:6399/0"


def test_rebuild_uses_the_running_stacks_redis_and_partitions(
    seen: list[tuple[str, str | None, str, bool]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    nowhere = f"redis://127.0.0.1:{free_port()}/0"
    _announce(tmp_path, nowhere)
    assert ziggurat(["rebuild", "some-table"]) == 2
    said = capsys.readouterr()
    assert f"cannot connect to {nowhere}" in said.err
    assert len((said.out + said.err).strip().splitlines()) == 1


def test_a_password_is_not_printed(
    seen: list[tuple[str, str | None, str, bool]], capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"redis://:s3cret@127.0.0.1:{free_port()}/0"
    assert ziggurat(["rebuild", "--redis", url]) == 2
    said = capsys.readouterr()
    assert "s3cret" not in said.out + said.err
    assert "cannot connect to redis://:***@127.0.0.1" in said.err


def test_the_prometheus_targets_are_file_sd(tmp_path: Path) -> None:
    _announce(tmp_path, "redis://127.0.0.1:7001/0")
    assert discovery.targets_file(tmp_path).read_bytes().strip() == (
        b'[\n  {\n    "targets": [\n      "127.0.0.1:1"\n    ],\n'
        b'    "labels": {\n      "service": "gateway",\n      "job": "ziggurat"\n    }\n  }\n]'
    )
    discovery.remove(tmp_path)
    assert not discovery.stack_file(tmp_path).exists()
    assert not discovery.targets_file(tmp_path).exists()


@pytest.mark.parametrize("workers", ["0", "-3", "33", "many"])
def test_a_rebuild_refuses_a_worker_count_out_of_bounds(
    workers: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nothing is read or written: argparse stops with a message before any connection."""
    with pytest.raises(SystemExit) as stopped:
        ziggurat(["rebuild", "--write", "--workers", workers, "g"])
    assert stopped.value.code == 2
    assert "--workers" in capsys.readouterr().err


def test_make_runs_layout_is_one_the_launcher_knows(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from rich.console import Console

    from shared.cli import run

    monkeypatch.setenv("ZIGGURAT_REDIS_URL", "redis://127.0.0.1:1/0")  # no port probing
    monkeypatch.delenv("ZIGGURAT_LAYOUT", raising=False)  # the default: the stages in one process
    assert [p.name for p in run._stack(Console(), tmp_path)._plan()] == ["gateway", "stages-0", "platform"]
    monkeypatch.setenv("ZIGGURAT_LAYOUT", "separate")
    names = [p.name for p in run._stack(Console(), tmp_path)._plan()]
    assert names == ["gateway", "validator-0", "reducer-0", "projector-0", "platform"]
    monkeypatch.setenv("ZIGGURAT_LAYOUT", "together,separate")
    with pytest.raises(RuntimeError, match="'together,separate': use one of separate, together"):
        run._stack(Console(), tmp_path)
