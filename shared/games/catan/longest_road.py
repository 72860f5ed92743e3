"""Longest Road: trail length by depth-first search, and the award rules
(5+, strictly longer to take, set aside when a break leaves a tie)."""

from __future__ import annotations

from shared.games.catan import board
from shared.games.catan import events as ev
from shared.games.catan.building import blocked_for
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


def refresh(ctx: object) -> None:
    """Re-evaluate after any change of roads, buildings or knights."""
    state: State = ctx.state  # type: ignore[attr-defined]
    lens = lengths(state)
    holder = holder_after(state.longest, lens)
    if lens != state.road_lengths or holder != state.longest:
        ctx.emit(ev.LongestRoadSet(holder=holder, lengths=lens))  # type: ignore[attr-defined]
