"""Longest Road: trail length by depth-first search, and the award rules
(5+, strictly longer to take, set aside when a break leaves a tie), judged once
per command (docs/rules/catan.md §7.2)."""

from __future__ import annotations

from functools import lru_cache

from shared.games.catan import board
from shared.games.catan import events as ev
from shared.games.catan.rules.building import opponent_knights
from shared.games.catan.rules.flow import CatanFold
from shared.games.catan.state import State

MINIMUM = 5


def road_length(state: State, seat: int) -> int:
    """The longest trail over ``seat``'s roads."""
    if seat not in state.roads:
        return 0
    return _trail_over(state, seat, tuple(p for p, o in enumerate(state.roads) if o == seat))


def _trail_over(state: State, seat: int, own: tuple[int, ...]) -> int:
    """The longest trail over ``own``, ``seat``'s roads."""
    if not own:
        return 0
    owner, knights = state.owner, opponent_knights(state, seat)
    ends = {end for p in own for end in board.PATH_ENDS[p]}
    # A trail may end at an opponent's piece (a building, or a knight: ``blocked_for``) but never
    # pass through it.
    blocked = frozenset(s for s in ends if (owner[s] != -1 and owner[s] != seat) or s in knights)
    return _longest_trail(own, blocked)


# A pure function of its arguments, so remembered: most seats' roads are as they were the last time.
@lru_cache(maxsize=4096)
def _longest_trail(own: tuple[int, ...], blocked: frozenset[int]) -> int:
    """Depth-first search from every spot the roads ``own`` touch, never through a ``blocked`` spot."""
    graph: dict[int, list[tuple[int, int]]] = {}  # spot -> (path, spot at its other end)
    for p in own:
        a, b = board.PATH_ENDS[p]
        graph.setdefault(a, []).append((p, b))
        graph.setdefault(b, []).append((p, a))
    used: set[int] = set()

    def trail(spot: int) -> int:
        best = 0
        for p, nxt in graph[spot]:
            if p not in used:
                if nxt in blocked:
                    n = 1
                else:
                    used.add(p)
                    n = 1 + trail(nxt)
                    used.discard(p)
                if n > best:
                    best = n
        return best

    return max(trail(start) for start in graph)


def lengths(state: State) -> tuple[int, ...]:
    """``road_length`` of every seat, the roads sorted by seat in one pass."""
    own: list[list[int]] = [[] for _ in range(state.seats)]
    for p, o in enumerate(state.roads):
        if o >= 0:
            own[o].append(p)
    return tuple(_trail_over(state, s, tuple(paths)) for s, paths in enumerate(own))


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


def _network_changed(before: State, after: State) -> bool:
    # Most commands touch none of the three: evolve then hands the same tuples on, unchanged.
    if before.roads is after.roads and before.owner is after.owner and before.knights is after.knights:
        return False
    return _network(before) != _network(after)


def settle(f: CatanFold, before: State) -> None:
    """Award the title once a command, with the card or action it belongs to, has resolved.

    Called once per command: if the command changed what road lengths depend on, or
    closed the last decision of a card that did, the lengths and the holder are
    recomputed from the board as the whole card left it.
    """
    if unsettled(f.state):
        return
    if unsettled(before) or _network_changed(before, f.state):
        refresh(f)


def refresh(f: CatanFold) -> None:
    state = f.state
    lens = lengths(state)
    holder = holder_after(state.longest, lens)
    if lens != state.road_lengths or holder != state.longest:
        f.emit(ev.LongestRoadSet(holder=holder, lengths=lens))
