"""Placement rules: the distance rule, connected roads, piece supplies (docs/rules/catan.md §7.1)."""

from __future__ import annotations

from shared.games.catan import board
from shared.games.catan.state import State, knight_at

SETTLEMENTS, CITIES, ROADS, WALLS = 5, 4, 15, 3


def settlements_built(state: State, seat: int) -> int:
    return sum(
        1
        for s in range(board.N_SPOTS)
        if state.owner[s] == seat and state.level[s] == 1 and s not in state.tipped
    )


def cities_built(state: State, seat: int) -> int:
    """City pieces on the board, counting pillaged cities lying on their side."""
    return sum(
        1
        for s in range(board.N_SPOTS)
        if state.owner[s] == seat and (state.level[s] == 2 or s in state.tipped)
    )


def roads_built(state: State, seat: int) -> int:
    return state.roads.count(seat)


def cities(state: State, seat: int) -> list[int]:
    return [s for s in range(board.N_SPOTS) if state.owner[s] == seat and state.level[s] == 2]


def buildings(state: State, seat: int) -> list[int]:
    return [s for s in range(board.N_SPOTS) if state.owner[s] == seat]


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


def road_reaches(state: State, seat: int, path: int) -> bool:
    for end in board.PATH_ENDS[path]:
        if state.owner[end] == seat:
            return True
        if blocked_for(state, seat, end):
            continue
        if any(state.roads[p] == seat for p in board.SPOT_PATHS[end] if p != path):
            return True
    return False


def can_road(state: State, seat: int, path: int) -> bool:
    if state.roads[path] != -1 or roads_built(state, seat) >= ROADS:
        return False
    if state.phase == "setup":
        return state.setup_spot in board.PATH_ENDS[path]
    return road_reaches(state, seat, path)


def road_spots(state: State, seat: int) -> list[int]:
    return [p for p in range(board.N_PATHS) if can_road(state, seat, p)]


def settlement_spots(state: State, seat: int, setup: bool = False) -> list[int]:
    if not setup and settlements_built(state, seat) >= SETTLEMENTS:
        return []
    return [s for s in range(board.N_SPOTS) if can_settle(state, seat, s, setup)]


def city_spots(state: State, seat: int) -> list[int]:
    """Own settlements that may become cities; a tipped city must be the next one upgraded."""
    tipped = [s for s in state.tipped if state.owner[s] == seat]
    if tipped:
        return tipped[:1]
    if cities_built(state, seat) >= CITIES:
        return []
    return [s for s in range(board.N_SPOTS) if state.owner[s] == seat and state.level[s] == 1]


def wall_spots(state: State, seat: int) -> list[int]:
    if sum(1 for w in state.walls if state.owner[w] == seat) >= WALLS:
        return []
    return [s for s in cities(state, seat) if s not in state.walls]


def walls_of(state: State, seat: int) -> int:
    return sum(1 for w in state.walls if state.owner[w] == seat)
