"""How rules write a decision: through one :data:`CatanFold`, the kernel's
emit-and-fold helper. A rule reads ``f.state`` as the events emitted before it
left it, so it never re-derives what an earlier event did; and the open task
(a decision the game waits for) with its answers.
"""

from __future__ import annotations

from typing import TypeAlias

from msgspec.structs import replace

from shared.games.catan import events as ev
from shared.games.catan.state import Answer, Effects, State, Task
from shared.kernel.fold import Fold

CatanFold: TypeAlias = Fold[State, ev.CatanEvent]


def set_effects(f: CatanFold, **changes: object) -> None:
    """Change some of this turn's effects (the rest stay as they are)."""
    f.emit(ev.EffectsSet(effects=replace(f.state.effects, **changes)))


def open_task(
    f: CatanFold,
    kind: str,
    seats: tuple[int, ...],
    *,
    amounts: tuple[int, ...] = (),
    owner: int = -1,
    data: tuple[int, ...] = (),
) -> None:
    f.emit(ev.TaskOpened(task=Task(kind=kind, seats=seats, amounts=amounts, owner=owner, data=data)))


def awaited(task: Task) -> tuple[int, ...]:
    if not task.answers:
        return task.seats
    done = {a.seat for a in task.answers}
    return tuple(s for s in task.seats if s not in done)


def amount(task: Task, seat: int) -> int:
    return task.amounts[task.seats.index(seat)] if task.amounts else 0


def submit(f: CatanFold, answer: Answer) -> bool:
    """Record a hidden answer; True once every awaited seat has answered."""
    f.emit(ev.Answered(answer=answer), ev.AnsweredShadow(seat=answer.seat))
    assert f.state.task is not None
    return not awaited(f.state.task)


# Answers that stay secret when a task closes: cards handed face down or discarded unseen.
SECRET_ANSWERS = frozenset({"progress_discard", "gift", "master_merchant", "spy", "harbor"})


def close(f: CatanFold) -> tuple[Answer, ...]:
    """Close the task; answers are revealed to all unless their content is secret."""
    task = f.state.task
    assert task is not None
    answers = tuple(sorted(task.answers, key=lambda a: a.seat))
    shown = () if task.kind in SECRET_ANSWERS else answers
    f.emit(ev.TaskClosed(kind=task.kind, answers=shown))
    return answers


def clockwise(state: State, start: int) -> tuple[int, ...]:
    return tuple((start + i) % state.seats for i in range(state.seats))


NO_EFFECTS = Effects()
