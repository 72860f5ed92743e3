"""A started service's collector: its start-up objects frozen, its young threshold raised, and
reference cycles still freed without an explicit collection."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from shared.infra.memory import YOUNG_THRESHOLD, freeze_startup_objects


@pytest.fixture
def collector() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.set_threshold(*threshold)
    gc.unfreeze()


class _Cycle:
    freed = 0

    def __init__(self) -> None:
        self.me = self

    def __del__(self) -> None:
        _Cycle.freed += 1


def test_started_service_freezes_and_raises_only_the_young_threshold(collector: None) -> None:
    older = gc.get_threshold()[1:]
    freeze_startup_objects()
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == (YOUNG_THRESHOLD, *older)


def test_reference_cycles_are_still_freed_within_the_threshold(collector: None) -> None:
    freeze_startup_objects()
    made = 3 * YOUNG_THRESHOLD
    _Cycle.freed = 0
    for _ in range(made):
        _Cycle()  # each instance and its __dict__ are garbage only a collection frees
    # the young passes ran by themselves (one as the count goes past the threshold):
    # at most a threshold's worth is left waiting
    assert made - _Cycle.freed <= YOUNG_THRESHOLD + 1
