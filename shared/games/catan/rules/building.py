"""Placement rules: the distance rule, connected roads, piece supplies (docs/rules/catan.md §7.1)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from shared.games.catan import board
from shared.games.catan.memo import last_by_identity1
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


def _owned(state: State, seat: int) -> tuple[int, ...]:
    """``seat``'s building spots, ascending."""
    return _spots_by_seat(state.owner).get(seat, ())


# Asked by every listing of cities, walls and knights, and by the piece counts; the buildings change
# a few dozen times a game: one scan of the board per change, for every seat.
@last_by_identity1
def _spots_by_seat(owner: tuple[int, ...]) -> Mapping[int, tuple[int, ...]]:
    """Each owning seat's building spots, ascending (read-only: the mapping is shared)."""
    spots: dict[int, list[int]] = {}
    for s, o in enumerate(owner):
        if o >= 0:
            spots.setdefault(o, []).append(s)
    return {seat: tuple(owned) for seat, owned in spots.items()}


def cities(state: State, seat: int) -> list[int]:
    level = state.level
    return [s for s in _owned(state, seat) if level[s] == 2]


def buildings(state: State, seat: int) -> list[int]:
    return list(_owned(state, seat))


def road_ends(state: State, seat: int) -> frozenset[int]:
    """Every spot an own road touches."""
    return _road_ends(state.roads, seat) if seat in state.roads else frozenset()


# A pure function of the roads, remembered: the roads tuple changes only when a road is built, while
# every listing of roads, settlements and knights asks for it.
@lru_cache(maxsize=1024)
def _road_ends(roads: tuple[int, ...], seat: int) -> frozenset[int]:
    ends: set[int] = set()
    for p, owner in enumerate(roads):
        if owner == seat:
            ends.update(board.PATH_ENDS[p])
    return frozenset(ends)


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
        return sorted({p for e in ends for p in board.SPOT_PATHS[e] if roads[p] == -1})
    return list(_network_paths(roads, state.owner, opponent_knights(state, seat), seat))


def opponent_knights(state: State, seat: int) -> frozenset[int]:
    """The spots of opponents' knights: with opponents' buildings, what ends ``seat``'s network."""
    return frozenset(k.spot for k in state.knights if k.owner != seat) if state.knights else frozenset()


# Pure functions of the board's tuples, remembered: the roads and buildings change a few dozen times
# a game, while the action phase lists the spots at every command.
@lru_cache(maxsize=2048)
def _network_paths(
    roads: tuple[int, ...], owner: tuple[int, ...], knights: frozenset[int], seat: int
) -> tuple[int, ...]:
    """Empty paths that reach ``seat``'s network: at an own building, or at an own road's end that
    no opponent's building or knight (``knights``) blocks (``blocked_for``)."""
    ends = {e for e in _road_ends(roads, seat) if owner[e] in (-1, seat) and e not in knights}
    ends.update(s for s, o in enumerate(owner) if o == seat)
    return tuple(sorted({p for e in ends for p in board.SPOT_PATHS[e] if roads[p] == -1}))


def settlement_spots(state: State, seat: int, setup: bool = False) -> list[int]:
    if setup:
        # ``can_settle`` at every spot, from the few buildings: the distance rule excludes exactly
        # the spots next to one, so the set-up's listings need not look at every spot's neighbours.
        owner, neighbours = state.owner, board.SPOT_NEIGHBOURS
        near = {n for s, o in enumerate(owner) if o != -1 for n in neighbours[s]}
        free = [s for s in range(board.N_SPOTS) if owner[s] == -1 and s not in near]
        return [s for s in free if knight_at(state, s) is None] if state.knights else free
    if settlements_built(state, seat) >= SETTLEMENTS or seat not in state.roads:
        return []
    spots = _settlement_candidates(state.roads, state.owner, seat)
    if state.knights:  # ``free_spot``: no knight stands there either
        return [s for s in spots if knight_at(state, s) is None]
    return list(spots)


@lru_cache(maxsize=2048)
def _settlement_candidates(roads: tuple[int, ...], owner: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """Away from the set-up a settlement touches an own road: those spots, ascending, that are empty
    and keep the distance rule (knights aside)."""
    return tuple(
        sorted(
            s
            for s in _road_ends(roads, seat)
            if owner[s] == -1 and all(owner[n] == -1 for n in board.SPOT_NEIGHBOURS[s])
        )
    )


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
