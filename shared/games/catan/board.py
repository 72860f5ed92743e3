"""Board geometry of the standard 19-hex island, and its two layouts.

Hexes are pointy-top and numbered 0..18 in reading order (rows 3-4-5-4-3).
Corners get integer coordinates on a grid where a hex centre sits at
(2q + r, 3r); intersection and path ids are their rank in sorted order, so the
numbering is a pure function of the shape and never stored.
"""

from __future__ import annotations

from shared.games.catan.cards import BRICK, GRAIN, LUMBER, ORE, WOOL
from shared.kernel.rng import Rng

HILLS, FOREST, PASTURE, FIELDS, MOUNTAINS, DESERT = range(6)
TERRAIN_RESOURCE = (BRICK, LUMBER, WOOL, GRAIN, ORE, -1)
TERRAIN_NAMES = ("hills", "forest", "pasture", "fields", "mountains", "desert")
ROW_QS = ((0, 3), (-1, 3), (-2, 3), (-2, 2), (-2, 1))
AXIAL = tuple((q, r - 2) for r, (lo, hi) in enumerate(ROW_QS) for q in range(lo, hi))
# Corner offsets from the centre, clockwise from north; side k joins corner k and k+1.
_CORNER_OFFSETS = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))
SIDES = {"ne": 0, "e": 1, "se": 2, "sw": 3, "w": 4, "nw": 5}


def _corner_points(h: int) -> list[tuple[int, int]]:
    q, r = AXIAL[h]
    x, y = 2 * q + r, 3 * r
    return [(x + dx, y + dy) for dx, dy in _CORNER_OFFSETS]


_POINTS = sorted({p for h in range(19) for p in _corner_points(h)}, key=lambda p: (p[1], p[0]))
_POINT_ID = {p: i for i, p in enumerate(_POINTS)}
HEX_CORNERS = tuple(tuple(_POINT_ID[p] for p in _corner_points(h)) for h in range(19))
_EDGES = sorted({tuple(sorted((c[k], c[(k + 1) % 6]))) for c in HEX_CORNERS for k in range(6)})
PATH_ENDS: tuple[tuple[int, int], ...] = tuple((a, b) for a, b in _EDGES)
N_SPOTS = len(_POINTS)
N_PATHS = len(PATH_ENDS)
_PATH_ID = {ends: i for i, ends in enumerate(PATH_ENDS)}

SPOT_HEXES = tuple(tuple(h for h in range(19) if s in HEX_CORNERS[h]) for s in range(N_SPOTS))
SPOT_PATHS = tuple(tuple(p for p, ends in enumerate(PATH_ENDS) if s in ends) for s in range(N_SPOTS))
SPOT_NEIGHBOURS = tuple(
    tuple(sorted(a if b == s else b for a, b in (PATH_ENDS[p] for p in SPOT_PATHS[s])))
    for s in range(N_SPOTS)
)
HEX_NEIGHBOURS = tuple(
    tuple(o for o in range(19) if o != h and len(set(HEX_CORNERS[h]) & set(HEX_CORNERS[o])) == 2)
    for h in range(19)
)


def path_between(a: int, b: int) -> int:
    return _PATH_ID[(min(a, b), max(a, b))]


def side_path(h: int, side: str) -> int:
    c = HEX_CORNERS[h]
    k = SIDES[side]
    return path_between(c[k], c[(k + 1) % 6])


def other_end(path: int, spot: int) -> int:
    a, b = PATH_ENDS[path]
    return b if a == spot else a


# Harbor kinds: 0..4 a 2:1 harbor of that resource, 5 the generic 3:1.
GENERIC = 5
# The nine frame spots (hex, sea-facing side), clockwise from the top left.
HARBOR_SPOTS = (
    (0, "nw"), (1, "ne"), (6, "ne"), (11, "e"), (15, "se"),
    (17, "se"), (16, "sw"), (12, "w"), (3, "w"),
)  # fmt: skip
HARBOR_PATHS = tuple(side_path(h, side) for h, side in HARBOR_SPOTS)
BEGINNER_HARBORS = (GENERIC, GRAIN, ORE, GENERIC, WOOL, GENERIC, GENERIC, BRICK, LUMBER)
CK_BEGINNER_HARBORS = (BRICK, ORE, LUMBER, GRAIN, GENERIC, GENERIC, GENERIC, WOOL, GENERIC)
HARBOR_POOL = (GENERIC,) * 4 + (BRICK, LUMBER, WOOL, GRAIN, ORE)

M, P, F, H, C, D = MOUNTAINS, PASTURE, FOREST, HILLS, FIELDS, DESERT
BEGINNER_TERRAIN = (M, P, F, C, H, P, H, C, F, D, F, M, F, M, C, P, H, C, P)
BEGINNER_NUMBERS = (10, 2, 9, 12, 6, 4, 10, 9, 11, 0, 3, 8, 8, 3, 4, 5, 5, 6, 11)
CK_BEGINNER_TERRAIN = (H, M, H, F, M, D, F, F, C, H, P, C, P, C, M, P, C, P, F)
CK_BEGINNER_NUMBERS = (6, 2, 5, 3, 9, 0, 10, 8, 4, 11, 3, 8, 10, 5, 6, 4, 9, 12, 11)
TERRAIN_POOL = (F,) * 4 + (P,) * 4 + (C,) * 4 + (H,) * 3 + (M,) * 3 + (D,)
SPIRAL_NUMBERS = (5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11)


def _ring_order() -> tuple[int, ...]:
    """Hexes walked counter-clockwise from the top-left corner, outer ring then inner, then centre."""
    by_axial = {a: h for h, a in enumerate(AXIAL)}
    directions = ((-1, 1), (0, 1), (1, 0), (1, -1), (0, -1), (-1, 0))  # counter-clockwise from top-left
    order: list[int] = []
    for radius in (2, 1):
        q, r = 0, -radius
        for dq, dr in directions:
            for _ in range(radius):
                order.append(by_axial[(q, r)])
                q, r = q + dq, r + dr
    return (*order, by_axial[(0, 0)])


RING_ORDER = _ring_order()


def reds_apart(numbers: tuple[int, ...]) -> bool:
    return not any(
        numbers[h] in (6, 8) and numbers[o] in (6, 8) for h in range(19) for o in HEX_NEIGHBOURS[h]
    )


def spiral_numbers(terrain: tuple[int, ...], start: int) -> tuple[int, ...]:
    """The official A-R placement from outer-ring corner ``start`` (0..5), skipping the desert."""
    outer = RING_ORDER[:12]
    inner = RING_ORDER[12:18]
    walk = outer[2 * start :] + outer[: 2 * start] + inner[start:] + inner[:start] + RING_ORDER[18:]
    numbers = [0] * 19
    tokens = iter(SPIRAL_NUMBERS)
    for h in walk:
        if terrain[h] != DESERT:
            numbers[h] = next(tokens)
    return tuple(numbers)


def house_ok(numbers: tuple[int, ...], no_2_12: bool, no_equal: bool) -> bool:
    for h in range(19):
        for o in HEX_NEIGHBOURS[h]:
            a, b = numbers[h], numbers[o]
            if a and b and ((no_2_12 and {a, b} == {2, 12}) or (no_equal and a == b)):
                return False
    return True


def random_numbers(
    terrain: tuple[int, ...], rng: Rng, no_2_12: bool = False, no_equal: bool = False
) -> tuple[int, ...]:
    """Shuffled tokens, reshuffled until no two red numbers touch (the official alternative)."""
    while True:
        tokens = iter(rng.shuffled(SPIRAL_NUMBERS))
        numbers = tuple(0 if t == DESERT else next(tokens) for t in terrain)
        if reds_apart(numbers) and house_ok(numbers, no_2_12, no_equal):
            return numbers


def variable_layout(
    rng: Rng, spiral: bool, no_2_12: bool = False, no_equal: bool = False
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    terrain = tuple(rng.shuffled(TERRAIN_POOL))
    harbors = tuple(rng.shuffled(HARBOR_POOL))
    if spiral:
        numbers = spiral_numbers(terrain, rng.below(6))
    else:
        numbers = random_numbers(terrain, rng, no_2_12, no_equal)
    if not reds_apart(numbers):
        numbers = random_numbers(terrain, rng)
    return terrain, numbers, harbors


# Per spot, the index of the first harbor frame spot it touches, -1 for none: harbor_at without a scan.
SPOT_HARBOR = tuple(
    next((i for i, path in enumerate(HARBOR_PATHS) if s in PATH_ENDS[path]), -1) for s in range(N_SPOTS)
)


#: (spot, harbor index) for the spots at a harbor, the only ones a seat's harbors are looked up at.
HARBOR_SPOT_INDEX = tuple((s, i) for s, i in enumerate(SPOT_HARBOR) if i >= 0)


def harbor_at(harbors: tuple[int, ...], spot: int) -> int | None:
    i = SPOT_HARBOR[spot]
    return harbors[i] if i >= 0 else None
