"""Who is awaited, and every command a seat may send now.

For each command type whose instances can be listed, ``decide`` accepts a
command only if it is in this enumeration; the families too large to list
(domestic offers and counters, card picks) are listed as a documented subset
and checked by predicate (README, "legal and decide cannot disagree").
"""

from __future__ import annotations

from shared.games.catan import setup
from shared.games.catan.commands import CatanCommand
from shared.games.catan.rules import actions, tasks
from shared.games.catan.rules.flow import awaited
from shared.games.catan.state import MAX_SEATS, State

# Asked several times a command (by decide, legal and the caller choosing who moves): the usual
# answer, one seat, is built once per seat rather than at every call.
_NOBODY: frozenset[int] = frozenset()
_ALONE = tuple(frozenset((seat,)) for seat in range(MAX_SEATS))


def actors(state: State) -> frozenset[int]:
    if state.phase == "over":
        return _NOBODY
    if state.task is not None:
        return frozenset(awaited(state.task))
    return _ALONE[state.active]


def legal(state: State, seat: int) -> list[CatanCommand]:
    if seat not in actors(state):
        return []
    if state.task is not None:
        return list(tasks.options(state, seat))
    if state.phase == "setup":
        return list(setup.options(state, seat))
    if state.phase == "roll":
        return list(actions.roll_options(state, seat))
    return actions.main_options(state, seat)
