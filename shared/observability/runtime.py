"""What the Python runtime itself costs a service's requests: event-loop lag and GC pauses.

A command waits on every process it crosses; when one of them does not get
back to its event loop for a while (a long batch, a full garbage collection,
a large view built), every request in flight there waits too, and that is
the tail of the latency, not its median. Two probes make it visible:

* ``ziggurat_event_loop_lag_seconds``: a task that asks to wake every
  ``period_s`` and records how late it woke. It costs one wake-up per period.
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

_started: dict[str, Any] = {}


def watch(period_s: float = 0.01) -> None:
    """Start both probes in this process (once; the loop lag only inside a running loop)."""
    if "gc" not in _started:
        _started["gc"] = _GcTimer()
        gc.callbacks.append(_started["gc"])
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    task = _started.get("lag")
    if task is None or task.done():
        _started["lag"] = loop.create_task(_lag(period_s), name="loop-lag-probe")


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


async def _lag(period_s: float) -> None:
    observe = metrics.LOOP_LAG.observe
    loop = asyncio.get_running_loop()
    while True:
        due = loop.time() + period_s
        await asyncio.sleep(period_s)
        observe(max(0.0, loop.time() - due))
