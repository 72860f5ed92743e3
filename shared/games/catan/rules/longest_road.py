"""Longest Road: trail length by depth-first search, and the award rules
(5+, strictly longer to take, set aside when a break leaves a tie), judged once
per command (docs/rules/catan.md §7.2)."""

from __future__ import annotations

from shared.games.catan import board
from shared.games.catan import events as ev
from shared.games.catan.rules.building import blocked_for
from shared.games.catan.rules.flow import CatanFold
from shared.games.catan.state import State

MINIMUM = 5


def road_length(state: State, seat: int) -> int:
    own = [p for p in range(board.N_PATHS) if state.roads[p] == seat]
    if not own:
        return 0
    best = 0
    for start in {end for p in own for end in board.PATH_ENDS[p]}:
        best = max(best, _trail(state, seat, start, frozenset()))
    return best


def _trail(state: State, seat: int, spot: int, used: frozenset[int]) -> int:
    # A trail may end at an opponent's piece but never pass through it.
    if used and blocked_for(state, seat, spot):
        return 0
    best = 0
    for p in board.SPOT_PATHS[spot]:
        if state.roads[p] == seat and p not in used:
            best = max(best, 1 + _trail(state, seat, board.other_end(p, spot), used | {p}))
    return best


def lengths(state: State) -> tuple[int, ...]:
    return tuple(road_length(state, s) for s in range(state.seats))


def holder_after(previous: int, lens: tuple[int, ...]) -> int:
    top = max(lens)
    if previous >= 0 and lens[previous] >= MINIMUM and lens[previous] == top:
        return previous
    leaders = [s for s, n in enumerate(lens) if n == top]
    return leaders[0] if top >= MINIMUM and len(leaders) == 1 else -1


# Decisions that finish a card or a knight action begun with a board change (a road removed,
# a knight taken off or displaced, the first of two free roads): the title waits for them, so
# it never changes hands between the steps of one card (Diplomat: the removed road re-placed).
UNSETTLED = frozenset({"diplomat", "retreat", "deserter_strength", "deserter_place", "free_roads"})


def unsettled(state: State) -> bool:
    return state.task is not None and state.task.kind in UNSETTLED


def _network(state: State) -> tuple[object, ...]:
    return (state.roads, state.owner, tuple((k.spot, k.owner) for k in state.knights))


def settle(f: CatanFold, before: State) -> None:
    """Award the title once a command, with the card or action it belongs to, has resolved.

    Called once per command: if the command changed what road lengths depend on, or
    closed the last decision of a card that did, the lengths and the holder are
    recomputed from the board as the whole card left it.
    """
    if unsettled(f.state):
        return
    if unsettled(before) or _network(before) != _network(f.state):
        refresh(f)


def refresh(f: CatanFold) -> None:
    state = f.state
    lens = lengths(state)
    holder = holder_after(state.longest, lens)
    if lens != state.road_lengths or holder != state.longest:
        f.emit(ev.LongestRoadSet(holder=holder, lengths=lens))
