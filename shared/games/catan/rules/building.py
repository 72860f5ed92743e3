"""Placement rules: the distance rule, connected roads, piece supplies (docs/rules/catan.md §7.1)."""

from __future__ import annotations

from shared.games.catan import board
from shared.games.catan.state import State, knight_at

SETTLEMENTS, CITIES, ROADS, WALLS = 5, 4, 15, 3


def settlements_built(state: State, seat: int) -> int:
    level, tipped = state.level, state.tipped
    return sum(1 for s in _owned(state, seat) if level[s] == 1 and s not in tipped)


def cities_built(state: State, seat: int) -> int:
    """City pieces on the board, counting pillaged cities lying on their side."""
    level, tipped = state.level, state.tipped
    return sum(1 for s in _owned(state, seat) if level[s] == 2 or s in tipped)


def roads_built(state: State, seat: int) -> int:
    return state.roads.count(seat)


def _owned(state: State, seat: int) -> list[int]:
    """``seat``'s building spots, ascending."""
    owner = state.owner
    if seat not in owner:  # most seats own few spots: skip the scan when they own none
        return []
    return [s for s, o in enumerate(owner) if o == seat]


def cities(state: State, seat: int) -> list[int]:
    level = state.level
    return [s for s in _owned(state, seat) if level[s] == 2]


def buildings(state: State, seat: int) -> list[int]:
    return _owned(state, seat)


def road_ends(state: State, seat: int) -> set[int]:
    """Every spot an own road touches."""
    ends: set[int] = set()
    roads = state.roads
    if seat in roads:
        for p, owner in enumerate(roads):
            if owner == seat:
                ends.update(board.PATH_ENDS[p])
    return ends


def blocked_for(state: State, seat: int, spot: int) -> bool:
    """An opponent's building or knight ends ``seat``'s network at ``spot``."""
    if state.owner[spot] not in (-1, seat):
        return True
    k = knight_at(state, spot)
    return k is not None and k.owner != seat


def touches_own_road(state: State, seat: int, spot: int) -> bool:
    return any(state.roads[p] == seat for p in board.SPOT_PATHS[spot])


def free_spot(state: State, spot: int) -> bool:
    return state.owner[spot] == -1 and knight_at(state, spot) is None


def distance_ok(state: State, spot: int) -> bool:
    return all(state.owner[n] == -1 for n in board.SPOT_NEIGHBOURS[spot])


def can_settle(state: State, seat: int, spot: int, setup: bool = False) -> bool:
    if not (free_spot(state, spot) and distance_ok(state, spot)):
        return False
    return setup or touches_own_road(state, seat, spot)


def road_spots(state: State, seat: int) -> list[int]:
    """Empty paths, ascending, that reach the network while road pieces last: at an own
    building, or at an own road's end no opponent's building or knight blocks. In the
    set-up, the paths at the settlement just placed."""
    roads = state.roads
    if roads_built(state, seat) >= ROADS:
        return []
    if state.phase == "setup":
        ends: set[int] = {state.setup_spot} if state.setup_spot >= 0 else set()
    else:  # a path reaches the network at an own building, or at an own road's end it may pass
        ends = {e for e in road_ends(state, seat) if not blocked_for(state, seat, e)}
        ends.update(_owned(state, seat))
    return sorted({p for e in ends for p in board.SPOT_PATHS[e] if roads[p] == -1})


def settlement_spots(state: State, seat: int, setup: bool = False) -> list[int]:
    if setup:
        return [s for s in range(board.N_SPOTS) if can_settle(state, seat, s, setup)]
    if settlements_built(state, seat) >= SETTLEMENTS:
        return []
    # Away from the set-up a settlement touches an own road: only those spots are looked at.
    return sorted(s for s in road_ends(state, seat) if free_spot(state, s) and distance_ok(state, s))


def city_spots(state: State, seat: int) -> list[int]:
    """Own settlements that may become cities; a tipped city must be the next one upgraded."""
    tipped = [s for s in state.tipped if state.owner[s] == seat]
    if tipped:
        return tipped[:1]
    if cities_built(state, seat) >= CITIES:
        return []
    level = state.level
    return [s for s in _owned(state, seat) if level[s] == 1]


def wall_spots(state: State, seat: int) -> list[int]:
    if sum(1 for w in state.walls if state.owner[w] == seat) >= WALLS:
        return []
    return [s for s in cities(state, seat) if s not in state.walls]


def walls_of(state: State, seat: int) -> int:
    return sum(1 for w in state.walls if state.owner[w] == seat)
