"""Loaded by every service process when ``bench.pipeline --profile`` puts this
folder first on PYTHONPATH: profiles the process with cProfile. SIGUSR2
starts a fresh profile (the start of the measured window); SIGUSR1 writes
``<BENCH_PROFILE_DIR>/<node>.prof`` (its end). Signal handlers run on the
main thread, where the services' event loops run.

The profiler counts CPU time (``time.process_time``), not wall time: on a
busy 2-core box a socket write that wakes another process is often
preempted, and wall time would blame the write for the other process's work."""

from __future__ import annotations

import cProfile
import os
import signal
import time
from typing import Any

_out = os.environ.get("BENCH_PROFILE_DIR")
if _out:
    _state: dict[str, cProfile.Profile] = {"p": cProfile.Profile(time.process_time)}

    def _reset(*_: Any) -> None:
        _state["p"].disable()
        _state["p"] = cProfile.Profile(time.process_time)
        _state["p"].enable()

    def _dump(*_: Any) -> None:
        profiler = _state["p"]
        profiler.disable()
        name = os.environ.get("ZIGGURAT_NODE", str(os.getpid()))
        path = os.path.join(str(_out), f"{name}.prof")
        profiler.dump_stats(path + ".tmp")
        os.replace(path + ".tmp", path)

    signal.signal(signal.SIGUSR2, _reset)
    signal.signal(signal.SIGUSR1, _dump)
    _state["p"].enable()
