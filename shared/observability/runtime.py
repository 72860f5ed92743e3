"""What the Python runtime itself costs a service's requests: event-loop lag and GC pauses.

A command waits on every process it crosses; when one of them does not get
back to its event loop for a while (a long batch, a full garbage collection,
a large view built), every request in flight there waits too, and that is
the tail of the latency, not its median. Two probes make it visible:

* ``ziggurat_event_loop_lag_seconds``: a timer due every ``LAG_PERIOD_S``
  records how late it ran. A stall of at least one period always holds a due
  time, so it is recorded, within a period of its length; a shorter one is
  recorded in proportion to its length over the period. Every wake-up of an
  otherwise idle process costs about 0.1 ms of CPU (the kernel's wake and
  the loop's pass, measured under load): 25 ms keeps that a quarter of the
  10 ms probe's while the dashboard's p99 and the benches' count of stalls
  over 100 ms stay within a bucket or so. It is a plain ``call_at`` callback,
  not a task that sleeps: no future and no task step per pass (0.7 x the
  CPU of a wake-up).
* ``ziggurat_gc_pause_seconds{generation}``: the time of each collection, from
  ``gc.callbacks`` (two clock reads per collection: a few hundred a second
  under load, well under a millisecond of CPU per second).
"""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Any

from shared.observability import metrics

#: How often the loop-lag probe's timer is due (see the module's docstring).
LAG_PERIOD_S = 0.025

_started: dict[str, Any] = {}


def watch(period_s: float = LAG_PERIOD_S) -> None:
    """Start both probes in this process (once; the loop lag only inside a running loop)."""
    if "gc" not in _started:
        _started["gc"] = _GcTimer()
        gc.callbacks.append(_started["gc"])
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    probe = _started.get("lag")
    if probe is None or not probe.runs_on(loop):
        _started["lag"] = _LagProbe(loop, period_s)


class _GcTimer:
    """Times each collection, by generation (children looked up once: cheaper than ``labels``)."""

    def __init__(self) -> None:
        self._t0 = 0.0
        self._observe = [metrics.GC_PAUSE.labels(str(g)).observe for g in range(3)]

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._t0 = time.perf_counter()
        else:
            self._observe[info["generation"]](time.perf_counter() - self._t0)


class _LagProbe:
    """Re-arms itself from each pass; it lives as long as its loop (nothing to cancel)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, period_s: float) -> None:
        self._loop = loop
        self._period = period_s
        self._observe = metrics.LOOP_LAG.observe
        due = loop.time() + period_s
        loop.call_at(due, self._tick, due)

    def runs_on(self, loop: asyncio.AbstractEventLoop) -> bool:
        return loop is self._loop and not loop.is_closed()

    def _tick(self, due: float) -> None:
        now = self._loop.time()
        self._observe(max(0.0, now - due))
        due = now + self._period
        self._loop.call_at(due, self._tick, due)
