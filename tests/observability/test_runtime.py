"""The event-loop lag probe: how often it wakes, and that a stall is recorded."""

from __future__ import annotations

import asyncio
import time

from shared.observability import metrics, runtime


def _lag() -> tuple[float, float]:
    """(observations, their sum) so far in this process."""
    samples = {s.name: s.value for m in metrics.LOOP_LAG.collect() for s in m.samples}
    return samples["ziggurat_event_loop_lag_seconds_count"], samples["ziggurat_event_loop_lag_seconds_sum"]


def test_the_probe_wakes_once_a_period_at_most_and_once_per_loop() -> None:
    async def idle() -> tuple[float, float]:
        runtime.watch()
        runtime.watch()  # a second call starts no second probe
        started = time.monotonic()
        n0, _ = _lag()
        await asyncio.sleep(8 * runtime.LAG_PERIOD_S)
        n1, _ = _lag()
        return n1 - n0, time.monotonic() - started

    passes, elapsed = asyncio.run(idle())
    # each pass re-arms a period after it ran, so however loaded the machine,
    # passes are at least a period apart; and one falls due before the sleep ends
    assert 1 <= passes <= elapsed / runtime.LAG_PERIOD_S + 1
    # a new loop gets its own probe (the old one went with its loop)
    passes_again, _ = asyncio.run(idle())
    assert passes_again >= 1


def test_a_stall_longer_than_the_period_is_recorded_within_a_period_of_its_length() -> None:
    stall = 0.2

    async def stalled() -> tuple[float, float]:
        runtime.watch()
        n0, s0 = _lag()
        time.sleep(stall)  # noqa: ASYNC251 -- the loop held, as a long batch holds it
        await asyncio.sleep(2 * runtime.LAG_PERIOD_S)
        n1, s1 = _lag()
        return n1 - n0, s1 - s0

    passes, lateness = asyncio.run(stalled())
    assert passes >= 1
    assert lateness >= stall - runtime.LAG_PERIOD_S
