"""The shape of every platform aggregate's rules: a decider.

A player account, an arena, a casual invitation, a tournament and a game's
ladder are each a stream of events and three pure functions:

* ``initial``: the state before the stream's first event (None for most: the
  aggregate does not exist until a command creates it);
* ``decide(state, command)``: the events a command leads to, or a
  :class:`~shared.kernel.rejection.RuleViolation`; never any I/O;
* ``evolve(state, event)``: the state one event leads to.

One host (:class:`shared.eventstore.aggregates.Aggregate`) loads, decides,
appends and keeps snapshots for all of them, so none of them writes its own
loop of read, retry and dedup. Games have the same split, richer (seats,
visibility, randomness), in :mod:`shared.kernel.table`.

What a decision needs besides the state and the command (a setting's bound,
a count the shell read, a draw from a seed at the stream's version) is bound
by the shell into the decision it hands the host; the decider stays pure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

S = TypeVar("S")
E = TypeVar("E")
C = TypeVar("C")
C_contra = TypeVar("C_contra", contravariant=True)


class Decider(Protocol[C_contra, S, E]):
    @property
    def initial(self) -> S: ...

    def decide(self, state: S, command: C_contra, /) -> Sequence[E]: ...

    def evolve(self, state: S, event: E, /) -> S: ...


@dataclass(frozen=True, slots=True)
class Rules(Generic[C, S, E]):
    """A decider made of a domain's three pure functions."""

    initial: S
    decide: Callable[[S, C], Sequence[E]]
    evolve: Callable[[S, E], S]


def fold(decider: Decider[C, S, E], events: Iterable[E], state: S | None = None) -> S:
    """The state ``events`` lead to from ``state`` (None: from the decider's initial state)."""
    current = decider.initial if state is None else state
    for event in events:
        current = decider.evolve(current, event)
    return current
