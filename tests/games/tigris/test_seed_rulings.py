"""Issue 13's Tigris points, each written from the seed's own words.

The seed is shared/seeds/004_b728d7bc204e8fb0.txt (the Finnish translation of
the board-game rules); quotations are given in English. The rules these tests
pin are docs/rules/tigris.md §12.2 (declined monuments), §16.2 (a table that
only passes) and §17 (a complete tie).
"""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.tigris import GAME
from shared.games.tigris import events as ev
from shared.games.tigris.board import Monument
from shared.games.tigris.commands import (
    BuildMonument,
    CommitSupport,
    DeclineMonument,
    Pass,
    PlaceTile,
    PositionLeader,
    SwapTiles,
    TakeTreasures,
    WithdrawLeader,
)
from shared.games.tigris.legal import legal
from shared.games.tigris.state import ChooseMonument, ChooseTreasures, Over, State
from shared.games.tigris_common.colours import Colour, Leader
from tests.games.tigris.boards import at, build, counts, of_type, run, with_options

GREEN = Colour.GREEN

# -- a declined monument (§12.2) ----------------------------------------------

#: E4 F4 G4 H4 green; E5 and H5 green; F5 and G5 empty.
ROW_OF_SQUARES = """
g  g  g  g
g  .  .  g
"""


def _declined_then_g5(**options: object) -> State:
    """Seat 0 completes E4-F5 and declines; a later tile on G5 completes both
    F4-G5 (two declined tiles) and G4-H5 (none)."""
    state = build(ROW_OF_SQUARES, origin="E4", hands={0: "gggggg", 1: "kkkkkk"}, options=options)
    state, events = run(state, (0, PlaceTile(colour=GREEN, square=at("F5"))))
    assert {o.top_left for o in state.phase.options} == {at("E4")}  # type: ignore[union-attr]
    state, events = run(state, (0, DeclineMonument()), (0, Pass()), (1, Pass()), (1, Pass()))
    assert of_type(events, ev.MonumentDeclined) == [ev.MonumentDeclined(seat=0, top_lefts=(at("E4"),))]
    state, _ = run(state, (0, PlaceTile(colour=GREEN, square=at("G5"))))
    return state


def test_a_declined_squares_tiles_never_carry_a_monument_later() -> None:
    """Seed, "Monumenttien rakentaminen": "If the active player who formed the square
    does not build a monument as part of that action, the tiles are not turned over,
    and no monument can be built on them later."

    A later square that includes any of those tiles is therefore no chance at all;
    a square of other tiles completed by the same placement still is.
    """
    state = _declined_then_g5()
    assert state.declined == tuple(sorted(at(n) for n in ("E4", "F4", "E5", "F5")))
    assert isinstance(state.phase, ChooseMonument)
    assert {o.top_left for o in state.phase.options} == {at("G4")}
    assert BuildMonument(top_left=at("F4"), monument=Monument.BLUE_GREEN) not in legal(state, 0)
    with_declined_only = build(". g . \n g g g", origin="E4", hands={0: "g"})
    with_declined_only = replace(with_declined_only, declined=(at("F4"),))
    after, events = run(with_declined_only, (0, PlaceTile(colour=GREEN, square=at("E4"))))
    assert not of_type(events, ev.MonumentOffered) and after.actions_done == 1


def test_the_other_reading_offers_a_new_square_that_reuses_declined_tiles() -> None:
    """The option ``monument_new_square_new_chance`` keeps the engine's earlier default,
    where the trigger is always "a square containing the tile just placed"."""
    state = _declined_then_g5(monument_new_square_new_chance=True)
    assert {o.top_left for o in state.phase.options} == {at("F4"), at("G4")}  # type: ignore[union-attr]
    state, _ = run(state, (0, BuildMonument(top_left=at("F4"), monument=Monument.BLUE_GREEN)))
    assert state.monuments[0].top_left == at("F4")


#: Trader 0 stands by a temple at F4; trader 1 rules a green square H4-I5 by K4.
#: A tile on G4 unites them: a war of traders.
WAR_ON_A_DECLINED_SQUARE = """
r  T0 .  g  g  T1 r
.  .  .  g  .  .  .
"""


def test_a_tile_laid_where_a_declined_tile_was_removed_is_a_new_tile() -> None:
    """Seed: "no monument can be built on them later" bars the declined tiles
    themselves. A war removes the loser's supporters "from the game"; a tile laid
    later on an emptied square never belonged to the declined square."""
    state = build(WAR_ON_A_DECLINED_SQUARE, origin="E4", active=1, hands={0: "kggggg", 1: "g"})
    state, _ = run(state, (1, PlaceTile(colour=GREEN, square=at("I5"))), (1, DeclineMonument()))
    assert state.declined == tuple(sorted(at(n) for n in ("H4", "I4", "H5", "I5")))
    state, _ = run(state, (1, Pass()), (0, PlaceTile(colour=Colour.BLACK, square=at("G4"))))
    state, events = run(state, (0, CommitSupport(count=5)), (1, CommitSupport(count=0)))
    removed = of_type(events, ev.TilesRemoved)[0].squares
    assert set(removed) == {at(n) for n in ("H4", "I4", "H5", "I5")} and state.declined == ()
    state = replace(state, hands=(counts("gggg"), state.hands[1]))
    state, _ = run(state, (0, PlaceTile(colour=GREEN, square=at("H4"))), (1, Pass()), (1, Pass()))
    state, _ = run(state, (0, PlaceTile(colour=GREEN, square=at("I4"))))
    state, _ = run(state, (0, PlaceTile(colour=GREEN, square=at("H5"))), (1, Pass()), (1, Pass()))
    state, events = run(state, (0, PlaceTile(colour=GREEN, square=at("I5"))))
    assert {o.top_left for o in state.phase.options} == {at("H4")}  # type: ignore[union-attr]


def test_building_on_one_of_two_offered_squares_bars_nothing() -> None:
    """The bar follows a square the player "does not build a monument" on; a player
    who builds on one of two offered squares did build, so no tile is barred."""
    state = build("g  g  g \ng  .  g", origin="E4", hands={0: "g"})
    state, _ = run(state, (0, PlaceTile(colour=GREEN, square=at("F5"))))
    state, events = run(state, (0, BuildMonument(top_left=at("E4"), monument=Monument.BLUE_GREEN)))
    assert state.declined == () and not of_type(events, ev.MonumentDeclined)


# -- a table that only passes (§16.2) ------------------------------------------


def _quiet_table(**options: object) -> State:
    state = build("", hands={0: "kkkkkk", 1: "kkkkkk"}, options=options)
    return replace(state, points=((2, 2, 2, 2), (1, 1, 1, 3)))


def _turns(state: State, n: int, *action: object) -> State:
    for _ in range(n):
        seat = state.active
        moves = action or (Pass(), Pass())
        state, _ = run(state, *((seat, m) for m in moves))  # type: ignore[misc]
    return state


def test_a_table_where_every_seat_only_passes_ends_and_is_scored() -> None:
    """Seed, "Pelin loppuminen ja voittaminen": "The game ends when, at the end of a
    turn, two or fewer treasures remain on the board. The game also ends when all
    the tiles in the bag are used up and a player can no longer refill."

    Passing moves neither, so a table that only passes would never end. The engine
    ends it after ``stalemate_rounds`` (3) full rounds in which no tile was drawn and
    no treasure taken, and scores it like any ended game: weakest colour first.
    """
    state = _turns(_quiet_table(), 5)
    assert not isinstance(state.phase, Over) and state.quiet_turns == 5
    state, events = run(state, (state.active, Pass()), (state.active, Pass()))
    assert of_type(events, ev.GameEnded) == [ev.GameEnded(reason="stalemate")]
    result = GAME.result(state)
    assert result is not None and result.reason == "stalemate"
    assert [(s.seat, s.place, s.score) for s in result.standings] == [(0, 1, 2), (1, 2, 1)]
    assert legal(state, 0) == legal(state, 1) == []


def test_moving_leaders_about_is_as_quiet_as_passing() -> None:
    """A seat that only moves a leader back and forth draws nothing either."""
    state = build("r  . ", origin="E4", hands={0: "kkkkkk", 1: "kkkkkk"})
    for _ in range(3):
        state, _ = run(
            state,
            (0, PositionLeader(leader=Leader.KING, square=at("F4"))),
            (0, WithdrawLeader(leader=Leader.KING)),
            (1, Pass()),
            (1, Pass()),
        )
    assert state.phase == Over(reason="stalemate")


def test_a_drawn_tile_or_a_taken_treasure_starts_the_count_again() -> None:
    """Only what brings the rules' end closer counts: the bag and the treasures."""
    state = _turns(_quiet_table(), 4)
    state, events = run(state, (0, SwapTiles(black=1)), (0, Pass()))
    assert of_type(events, ev.TurnStarted) == [ev.TurnStarted(seat=1, quiet=0)]
    state = _turns(state, 5)
    assert state.quiet_turns == 5
    rich = build("r*  .  r*", origin="E4", hands={0: "kkkkkk", 1: "kkkkkk"})
    rich = _turns(rich, 5)
    rich, _ = run(rich, (1, PositionLeader(leader=Leader.TRADER, square=at("F4"))))
    assert isinstance(rich.phase, ChooseTreasures)
    rich, events = run(rich, (1, TakeTreasures(squares=(at("E4"),))), (1, Pass()))
    assert of_type(events, ev.TurnStarted) == [ev.TurnStarted(seat=0, quiet=0)]


def test_the_safeguard_can_be_switched_off() -> None:
    state = _turns(_quiet_table(stalemate_rounds=0), 20)
    assert not isinstance(state.phase, Over) and state.quiet_turns == 20


# -- a complete tie (§17) ------------------------------------------------------


def test_a_complete_tie_is_shared_unless_the_house_tie_break_is_chosen() -> None:
    """Seed, "Pelin loppuminen ja voittaminen": "In a tie, the players compare their
    second-weakest area, and so on." It says nothing of players equal in all four,
    so by default they share the place. ``shared_full_ties=False`` is a house
    tie-break, in no rule text: the seat later in turn order from the start player
    takes the better place."""
    state = replace(build("", seats=3), phase=Over(reason="treasures"), first=2)
    state = replace(state, points=((4, 5, 6, 7), (7, 6, 5, 4), (1, 1, 1, 1)))
    shared = GAME.result(state)
    assert [(s.seat, s.place) for s in shared.standings] == [(0, 1), (1, 1), (2, 3)]  # type: ignore[union-attr]
    house = GAME.result(with_options(state, shared_full_ties=False))
    # From the start player (seat 2) the order is 2, 0, 1: seat 1 comes later than seat 0.
    assert [(s.seat, s.place) for s in house.standings] == [(1, 1), (0, 2), (2, 3)]  # type: ignore[union-attr]
