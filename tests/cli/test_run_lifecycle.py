"""`ziggurat run` as an operator meets it: it says where it runs (stack.json,
Prometheus targets), the other commands find it there, and however it is
stopped (Ctrl-C of a pipeline, SIGKILL) nothing of it is left running."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import psutil
import pytest

from shared.cli import discovery
from shared.infra.launcher import REPO
from shared.infra.valkey_server import free_port
from tests.support.waiting import eventually_blocking, until_blocking

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]
#: What `ziggurat run` starts by default: the stages hosted in one process (services/stages).
SERVICES = {"gateway", "stages-0", "platform"}


def _env(root: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ZIGGURAT_")}
    env.update(ZIGGURAT_ROOT=str(root), ZIGGURAT_HTTP_PORT=str(free_port()))
    env.update(ZIGGURAT_VALKEY_PORT=str(free_port()), **extra)
    return env


def _ziggurat(*args: str, env: dict[str, str], **kwargs: object) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "shared.cli.main", *args], cwd=REPO, env=env, **kwargs)  # type: ignore[call-overload, no-any-return]


def _cli(*args: str, env: dict[str, str]) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-m", "shared.cli.main", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done.returncode, done.stdout + done.stderr


def _wait_up(root: Path, run: subprocess.Popen[bytes], timeout: float = 90.0) -> discovery.RunningStack:
    def announced() -> discovery.RunningStack | None:
        found = discovery.running_stack(root)
        assert found is not None or run.poll() is None, f"ziggurat run exited with {run.returncode}"
        return found

    found = eventually_blocking(announced, timeout, every_s=0.1)
    assert found is not None, "the stack did not come up"
    return found


def _running(pids: list[int]) -> list[int]:
    alive = []
    for pid in pids:
        try:
            if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                alive.append(pid)
        except psutil.NoSuchProcess:
            pass
    return alive


def _wait_gone(pids: list[int], timeout: float) -> list[int]:
    until_blocking(lambda: not _running(pids), timeout, every_s=0.1)
    return _running(pids)


@pytest.fixture
def leftovers() -> Iterator[list[int]]:
    """Pids to kill after the test whatever happened, so a failure leaks nothing."""
    pids: list[int] = []
    yield pids
    for pid in _running(pids):
        os.kill(pid, signal.SIGKILL)


def test_a_killed_run_leaves_no_process_behind(tmp_path: Path, leftovers: list[int]) -> None:
    run = _ziggurat("run", "--idle", env=_env(tmp_path), stdout=subprocess.DEVNULL, start_new_session=True)
    leftovers.append(run.pid)
    stack = _wait_up(tmp_path, run)
    pids = stack.pids()
    leftovers += pids
    assert len(pids) == len(SERVICES) + 1  # and Valkey
    run.kill()
    run.wait()
    assert _wait_gone(pids, 15) == []


def test_ctrl_c_of_a_pipeline_stops_everything_cleanly(tmp_path: Path, leftovers: list[int]) -> None:
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    busy_port = busy.getsockname()[1]
    env = _env(tmp_path, ZIGGURAT_HTTP_PORT=str(busy_port))
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    with busy, out.open("wb") as out_file, err.open("wb") as err_file:
        # As `ziggurat run 2>err | cat >out` in a terminal: one process group (a
        # job), which Ctrl-C interrupts as a whole, `cat` included.
        run = _ziggurat("run", "--idle", env=env, stdout=subprocess.PIPE, stderr=err_file, process_group=0)
        leftovers.append(run.pid)
        assert run.stdout is not None
        cat = subprocess.Popen(["cat"], stdin=run.stdout, stdout=out_file, process_group=run.pid)
        run.stdout.close()
        stack = _wait_up(tmp_path, run)
        pids = stack.pids()
        leftovers += pids

        api_port = urlsplit(stack.api).port
        assert api_port != busy_port
        assert f"port {busy_port} is busy; the API uses {api_port} instead" in out.read_text()
        assert {s.name for s in stack.services} == SERVICES
        targets = json.loads(discovery.targets_file(tmp_path).read_text())
        assert sorted(targets, key=lambda t: t["labels"]["service"]) == sorted(
            (
                {"targets": [urlsplit(s.metrics).netloc], "labels": {"service": s.name, "job": "ziggurat"}}
                for s in stack.services
            ),
            key=lambda t: t["labels"]["service"],
        )
        assert {
            "targets": [f"127.0.0.1:{api_port}"],
            "labels": {"service": "gateway", "job": "ziggurat"},
        } in targets

        # Named by neither flag nor environment, the API and Redis are the running stack's.
        cli_env = {k: v for k, v in env.items() if k not in ("ZIGGURAT_HTTP_PORT", "ZIGGURAT_VALKEY_PORT")}
        code, said = _cli("verify", "no-such-table", env=cli_env)
        assert code == 2 and "cannot fetch the audit log" in said, said
        code, said = _cli("rebuild", env=cli_env)
        assert code == 0 and "0 projections" in said, said
        code, said = _cli("rebuild", "no-such-table", env=cli_env)
        assert code == 2 and "no such table: no-such-table" in said and "Traceback" not in said, said
        assert len(said.strip().splitlines()) == 1, said

        os.killpg(run.pid, signal.SIGINT)
        assert run.wait(timeout=40) == 0
        cat.wait(timeout=10)
    assert _running(pids) == []
    assert not discovery.stack_file(tmp_path).exists()
    assert not discovery.targets_file(tmp_path).exists()
    for path in [out, err, *(tmp_path / "logs").glob("*.log")]:
        assert "Traceback" not in path.read_text(errors="replace"), path


def test_commands_without_a_stack_say_so_in_one_line(tmp_path: Path) -> None:
    env = _env(tmp_path)
    nowhere = f"127.0.0.1:{free_port()}"
    commands = [
        ["verify", "some-table", "--api", f"http://{nowhere}"],
        ["rebuild", "--redis", f"redis://{nowhere}/0"],
        ["rebuild", "some-table", "--redis", f"redis://{nowhere}/0", "--write"],
    ]
    for command in commands:
        code, said = _cli(*command, env=env)
        assert code != 0, command
        assert "Traceback" not in said, said
        assert said.strip().count("\n") == 0 and "cannot connect" in said and nowhere in said, said
