"""Monuments (docs/rules/tigris.md §12)."""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.tigris import events as ev
from shared.games.tigris.board import Monument
from shared.games.tigris.commands import BuildMonument, DeclineMonument, PlaceTile, PositionLeader
from shared.games.tigris.legal import legal
from shared.games.tigris.state import BuiltMonument, ChooseMonument
from shared.games.tigris_common.colours import Colour, Leader
from tests.games.tigris.boards import at, build, of_type, run, with_options

GREEN = Colour.GREEN
TWO_SQUARES = """
g  g  g
g  .  g
"""


def test_a_tile_completing_two_squares_offers_both() -> None:
    state = build(TWO_SQUARES, origin="E4", hands={0: "g"})
    state, _ = run(state, (0, PlaceTile(colour=GREEN, square=at("F5"))))
    assert isinstance(state.phase, ChooseMonument)
    assert {o.top_left for o in state.phase.options} == {at("E4"), at("F4")}
    assert len(legal(state, 0)) == 2 * 3 + 1
    state, _ = run(state, (0, BuildMonument(top_left=at("F4"), monument=Monument.BLUE_GREEN)))
    assert state.monuments == (BuiltMonument(monument=Monument.BLUE_GREEN, top_left=at("F4")),)
    one = with_options(build(TWO_SQUARES, origin="E4", hands={0: "g"}), choose_monument_square=False)
    one, _ = run(one, (0, PlaceTile(colour=GREEN, square=at("F5"))))
    assert {o.top_left for o in one.phase.options} == {at("E4")}  # type: ignore[union-attr]


def test_declining_bars_the_tiles_unless_the_option_reuses_them() -> None:
    """docs/rules/tigris.md §12.2; the seed's wording is in test_seed_rulings."""
    base = build("g g . \ng . .", origin="E4", hands={0: "gggg"})
    moves = (
        (0, PlaceTile(colour=GREEN, square=at("F5"))),
        (0, DeclineMonument()),
        (0, PlaceTile(colour=GREEN, square=at("G5"))),
    )
    state, events = run(base, *moves)
    assert of_type(events, ev.MonumentDeclined)[0].top_lefts == (at("E4"),)
    state = replace(state, active=0, actions_done=0, hands=((0, 0, 2, 0), state.hands[1]))
    _, events = run(state, (0, PlaceTile(colour=GREEN, square=at("G4"))))
    assert not of_type(events, ev.MonumentOffered)
    reuse = with_options(state, monument_new_square_new_chance=True)
    reuse, events = run(reuse, (0, PlaceTile(colour=GREEN, square=at("G4"))))
    assert of_type(events, ev.MonumentOffered)


def test_no_offer_without_a_free_monument_of_that_colour() -> None:
    state = build(TWO_SQUARES, origin="E4", hands={0: "g"})
    used = tuple(
        BuiltMonument(monument=m, top_left=at(sq))
        for m, sq in ((Monument.BLACK_GREEN, "A1"), (Monument.RED_GREEN, "A9"), (Monument.BLUE_GREEN, "C9"))
    )
    state = replace(state, monuments=used)
    state, events = run(state, (0, PlaceTile(colour=GREEN, square=at("F5"))))
    assert not of_type(events, ev.MonumentOffered)


def test_the_uniting_tile_may_complete_a_monument_after_the_wars() -> None:
    state = build(
        """
        P0 r  r  .  .
        .  r  .  r  K1
        .  .  .  r  .
        """,
        origin="E4",
        hands={0: "r"},
    )
    state, events = run(state, (0, PlaceTile(colour=Colour.RED, square=at("G5"))))
    kinds = [type(e) for e in events]
    assert kinds.index(ev.MarkerRemoved) < kinds.index(ev.MonumentOffered)
    assert not of_type(events, ev.PointsScored)


def test_flipped_temples_are_no_temples_but_keep_their_treasure() -> None:
    state = build("r* r  . \nr  .  T0", origin="E4", hands={0: "rrr"})
    state, _ = run(state, (0, PlaceTile(colour=Colour.RED, square=at("F5"))))
    state, _ = run(state, (0, BuildMonument(top_left=at("E4"), monument=Monument.RED_BLUE)))
    assert at("E4") in state.treasures  # still on its face-down temple
    assert state.leaders[0][2] is None  # the trader lost its only temple (F5)
    assert PositionLeader(leader=Leader.KING, square=at("G4")) not in legal(state, 0)
