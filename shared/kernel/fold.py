"""A decision in progress: the events emitted so far and the state they lead to.

Every game's ``decide`` writes its effects through one :class:`Fold`. Folding
each event as it is emitted lets a later step of the same command read the
state as the earlier steps left it (a split kingdom, a returned leader, a
spent card) without a second copy of the rules in ``evolve``. The input state
is never touched: states are frozen records and ``evolve`` returns new ones.

A game may subclass it to name a query its rules ask often (``over``) or to
carry read-only context the decision was built with (Conan's content pack);
it never adds a second way to emit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

from shared.kernel.rng import Rng

S = TypeVar("S")
E = TypeVar("E")


class Fold(Generic[S, E]):
    __slots__ = ("_evolve", "_start", "events", "rng", "state")

    def __init__(self, state: S, evolve: Callable[[S, E], S], rng: Rng) -> None:
        global _last
        self.state = self._start = state
        self.rng = rng
        self.events: list[E] = []
        self._evolve = evolve
        _last = self

    def folded(self, events: object, state: object, evolve: object) -> S | None:
        """The state ``events`` lead to from ``state`` by ``evolve``, if they are this
        fold's very list, started from that very state with that very function (its
        states are frozen, so the answer is fixed); else None."""
        if events is self.events and state is self._start and evolve is self._evolve:
            return self.state
        return None

    def emit(self, *events: E) -> None:
        for event in events:
            self.events.append(event)
            self.state = self._evolve(self.state, event)


#: The fold made last in this process: the caller of a game's ``decide`` (the kernel's
#: ``table.decided``) takes the state its events lead to from it rather than fold them
#: again (:meth:`Fold.folded`, which answers only for the very objects).
_last: Fold[Any, Any] | None = None


def last() -> Fold[Any, Any] | None:
    return _last


def replay(evolve: Callable[[S | None, E], S], events: Iterable[E], state: S | None = None) -> S | None:
    """The state ``events`` lead to from ``state`` (None: from before a stream's first event)."""
    for event in events:
        state = evolve(state, event)
    return state


def started(state: S | None, event: object, first: str) -> S:
    """The state every event but a stream's first (tag ``first``) evolves: there must be one."""
    if state is None:
        raise ValueError(f"{type(event).__name__} before {first}")
    return state
