"""The kernel's emit-and-fold helper: later rules read the state earlier events made."""

from __future__ import annotations

from shared.kernel.fold import Fold
from shared.kernel.rng import Rng


def add(total: int, event: int) -> int:
    return total + event


def test_emit_records_events_in_order_and_folds_each_at_once() -> None:
    seen: list[int] = []

    def evolve(total: int, event: int) -> int:
        seen.append(total)
        return add(total, event)

    rng = Rng(b"s" * 32, 0)
    fold = Fold(10, evolve, rng)
    fold.emit(1, 2)
    fold.emit(3)
    assert fold.events == [1, 2, 3]
    assert fold.state == 16
    # each event was folded onto the state the previous one produced
    assert seen == [10, 11, 13]
    assert fold.rng is rng
