from hypothesis import given
from hypothesis import strategies as st

from shared.games.tigris_common.colours import COLOURS, Colour, Leader
from shared.games.tigris_common.scoring import allocate_wildcards, rank, strength


def test_leaders_and_colours_pair_up() -> None:
    assert Colour.BLACK.leader is Leader.KING
    assert Leader.PRIEST.colour is Colour.RED
    assert {c.leader.colour for c in COLOURS} == set(COLOURS)


def test_wildcards_fill_the_weakest_colour_first() -> None:
    totals = allocate_wildcards({Colour.RED: 5, Colour.BLUE: 2, Colour.GREEN: 3, Colour.BLACK: 9}, 3)
    assert totals == {Colour.RED: 5, Colour.BLUE: 4, Colour.GREEN: 4, Colour.BLACK: 9}


@given(st.lists(st.integers(0, 12), min_size=4, max_size=4), st.integers(0, 6))
def test_greedy_allocation_is_optimal(points: list[int], wildcards: int) -> None:
    base = dict(zip(COLOURS, points, strict=True))
    best = strength(base, wildcards)

    def every_split(left: int, colours: tuple[Colour, ...]) -> list[dict[Colour, int]]:
        if len(colours) == 1:
            return [{colours[0]: left}]
        return [
            {colours[0]: k, **rest} for k in range(left + 1) for rest in every_split(left - k, colours[1:])
        ]

    for split in every_split(wildcards, COLOURS):
        other = tuple(sorted(base[c] + split[c] for c in COLOURS))
        assert other <= best


def test_rank_breaks_ties_on_the_next_weakest_colour_and_shares_exact_ties() -> None:
    standings = rank([(3, 4, 9, 9), (3, 5, 5, 5), (3, 4, 9, 9), (1, 9, 9, 9)])
    places = {s.seat: s.place for s in standings}
    assert places == {1: 1, 0: 2, 2: 2, 3: 4}
    assert [s.seat for s in standings] == [1, 0, 2, 3]
    assert standings[0].score == 3 and standings[0].tiebreak == (5, 5, 5)
