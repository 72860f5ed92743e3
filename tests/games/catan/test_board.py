"""Board geometry and layouts (docs/rules/catan.md §2)."""

from __future__ import annotations

from shared.games.catan import board
from shared.kernel.rng import Rng

PIPS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1, 0: 0}


def test_standard_island_has_54_intersections_and_72_paths():
    assert board.N_SPOTS == 54 and board.N_PATHS == 72
    by_hexes = [len(h) for h in board.SPOT_HEXES]
    assert (by_hexes.count(3), by_hexes.count(2), by_hexes.count(1)) == (24, 12, 18)


def test_thirty_coastal_paths_and_every_harbor_on_the_coast():
    coastal = [
        p
        for p, (a, b) in enumerate(board.PATH_ENDS)
        if len(set(board.SPOT_HEXES[a]) & set(board.SPOT_HEXES[b])) == 1
    ]
    assert len(coastal) == 30
    assert set(board.HARBOR_PATHS) <= set(coastal) and len(set(board.HARBOR_PATHS)) == 9


def test_beginner_layout_matches_the_printed_map_and_has_58_pips():
    names = [board.TERRAIN_NAMES[t] for t in board.BEGINNER_TERRAIN]
    assert names[:3] == ["mountains", "pasture", "forest"] and names[9] == "desert"
    assert board.BEGINNER_NUMBERS[:3] == (10, 2, 9)
    assert sum(PIPS[n] for n in board.BEGINNER_NUMBERS) == 58
    assert sorted(board.BEGINNER_HARBORS) == sorted(board.HARBOR_POOL)
    assert board.reds_apart(board.BEGINNER_NUMBERS) and board.reds_apart(board.CK_BEGINNER_NUMBERS)


def test_spiral_never_puts_red_numbers_side_by_side():
    for desert in range(19):
        terrain = tuple(board.DESERT if h == desert else board.FOREST for h in range(19))
        for start in range(6):
            numbers = board.spiral_numbers(terrain, start)
            assert numbers[desert] == 0 and board.reds_apart(numbers)
            assert sorted(n for n in numbers if n) == sorted(board.SPIRAL_NUMBERS)


def test_variable_layouts_use_every_piece_once_with_reds_apart():
    for i in range(30):
        terrain, numbers, harbors = board.variable_layout(Rng(bytes(32), i), spiral=i % 2 == 0)
        assert sorted(terrain) == sorted(board.TERRAIN_POOL)
        assert sorted(harbors) == sorted(board.HARBOR_POOL)
        assert board.reds_apart(numbers)
        assert all((n == 0) == (t == board.DESERT) for t, n in zip(terrain, numbers, strict=True))


def test_harbor_access_is_the_two_ends_of_its_path():
    a, b = board.PATH_ENDS[board.HARBOR_PATHS[0]]
    assert board.harbor_at(board.BEGINNER_HARBORS, a) == board.GENERIC
    assert board.harbor_at(board.BEGINNER_HARBORS, b) == board.GENERIC
    assert board.harbor_at(board.BEGINNER_HARBORS, 27) is None
