"""The decision context: ``decide`` emits events through it and reads the state
as it stands after them, so a rule never re-derives what an earlier event did.
"""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.catan import events as ev
from shared.games.catan.evolve import evolve
from shared.games.catan.state import Answer, Effects, State, Task
from shared.kernel.rng import Rng


class Ctx:
    __slots__ = ("events", "rng", "state")

    def __init__(self, state: State, rng: Rng) -> None:
        self.state = state
        self.rng = rng
        self.events: list[ev.CatanEvent] = []

    def emit(self, *events: ev.CatanEvent) -> None:
        for e in events:
            self.events.append(e)
            self.state = evolve(self.state, e)

    def effects(self, **changes: object) -> None:
        self.emit(ev.EffectsSet(effects=replace(self.state.effects, **changes)))


def open_task(ctx: Ctx, kind: str, seats: tuple[int, ...], **fields: object) -> None:
    ctx.emit(ev.TaskOpened(task=Task(kind=kind, seats=seats, **fields)))


def awaited(task: Task) -> tuple[int, ...]:
    done = {a.seat for a in task.answers}
    return tuple(s for s in task.seats if s not in done)


def amount(task: Task, seat: int) -> int:
    return task.amounts[task.seats.index(seat)] if task.amounts else 0


def submit(ctx: Ctx, answer: Answer) -> bool:
    """Record a hidden answer; True once every awaited seat has answered."""
    ctx.emit(ev.Answered(answer=answer), ev.AnsweredShadow(seat=answer.seat))
    assert ctx.state.task is not None
    return not awaited(ctx.state.task)


# Answers that stay secret when a task closes: cards handed face down or discarded unseen.
SECRET_ANSWERS = frozenset({"progress_discard", "gift", "master_merchant", "spy", "harbor"})


def close(ctx: Ctx) -> tuple[Answer, ...]:
    """Close the task; answers are revealed to all unless their content is secret."""
    task = ctx.state.task
    assert task is not None
    answers = tuple(sorted(task.answers, key=lambda a: a.seat))
    shown = () if task.kind in SECRET_ANSWERS else answers
    ctx.emit(ev.TaskClosed(kind=task.kind, answers=shown))
    return answers


def clockwise(state: State, start: int) -> tuple[int, ...]:
    return tuple((start + i) % state.seats for i in range(state.seats))


NO_EFFECTS = Effects()
