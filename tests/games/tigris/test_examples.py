"""The seed's worked examples, and two from the FAQs, as given/when/then tests
(docs/rules/tigris.md §20)."""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.tigris import GAME
from shared.games.tigris import events as ev
from shared.games.tigris.board import (
    CORNERS,
    RIVER,
    SQUARES,
    STARTING_TEMPLES,
    Monument,
    block,
    label,
    parse,
)
from shared.games.tigris.commands import (
    BuildMonument,
    ChooseWarColour,
    CommitSupport,
    Pass,
    PlaceTile,
    PositionLeader,
)
from shared.games.tigris.legal import legal
from shared.games.tigris.options import Options
from shared.games.tigris.setup import initial_bag
from shared.games.tigris.state import Acting, ChooseWar, Over, Support
from shared.games.tigris_common.colours import Colour, Leader
from shared.kernel.rng import Rng
from tests.games.tigris.boards import at, build, counts, of_type, points, run
from tests.games.tigris.positions import b1_state

RED, BLUE, GREEN, BLACK = Colour.RED, Colour.BLUE, Colour.GREEN, Colour.BLACK


def test_b1_revolt_tie_goes_to_the_defender() -> None:
    state, events = run(b1_state(), (0, PositionLeader(leader=Leader.KING, square=at("F5"))))
    assert of_type(events, ev.RevoltStarted) == [
        ev.RevoltStarted(colour=BLACK, attacker=0, defender=1, attacker_base=2, defender_base=1)
    ]
    assert GAME.actors(state) == {0}
    state, events = run(state, (0, CommitSupport(count=2)))
    assert GAME.actors(state) == {1}
    state, events = run(state, (1, CommitSupport(count=3)))
    resolved = of_type(events, ev.ConflictResolved)[0]
    assert (resolved.winner, resolved.attacker_total, resolved.defender_total) == (1, 4, 4)
    assert points(state, 1) == {"red": 1} and points(state, 0) == {}
    assert state.leaders[0][3] is None and state.leaders[1][3] == at("E4")
    assert state.out_of_game == counts("rrrrr")
    assert sum(t is not None for t in state.tiles) == 2 + 3  # no board tile removed
    assert state.hands == (counts("kkkk"), counts("kkk"))
    state, events = run(state, (0, Pass()))
    assert [(e.seat, e.count) for e in of_type(events, ev.TilesDrawnCount)] == [(0, 2), (1, 3)]
    assert [sum(h) for h in state.hands] == [6, 6]


B2_BOARD = """
K0 r  .  .  .  K1 r
T0 r  g  .  g  g  .
r  .  .  .  r  T1 .
"""


def test_b2_war_choice_and_a_split_that_cancels_the_king_war() -> None:
    state = build(B2_BOARD, origin="E4", hands={0: "kggggr", 1: "grrrrr"})
    state, events = run(state, (0, PlaceTile(colour=BLACK, square=at("H5"))))
    assert state.marker == at("H5")
    assert state.phase == ChooseWar(colours=(GREEN, BLACK))
    state, events = run(state, (0, ChooseWarColour(colour=GREEN)))
    assert state.phase == Support(
        conflict="war", colour=GREEN, attacker=0, defender=1, attacker_base=1, defender_base=2
    )
    state, events = run(state, (0, CommitSupport(count=4)), (1, CommitSupport(count=1)))
    assert of_type(events, ev.TilesRemoved) == [ev.TilesRemoved(colour=GREEN, squares=(at("I5"), at("J5")))]
    assert points(state, 0) == {"green": 3}  # 1 leader + 2 removed markets, nothing for the tile
    assert state.leaders[1][2] is None
    assert not of_type(events, ev.WarStarted)  # the king war vanished with the split
    assert of_type(events, ev.MarkerRemoved) and state.marker is None
    assert state.out_of_game == counts("ggggggg")
    state, events = run(state, (0, Pass()))
    assert [(e.seat, e.count) for e in of_type(events, ev.TilesDrawnCount)] == [(0, 5), (1, 1)]


B3_BOARD = """
r  T0 g  .  g  g  T1 r
.  g  g  .  g  g  .  .
"""


def test_b3_war_points_count_removed_tiles_not_committed_ones() -> None:
    state = build(B3_BOARD, origin="E4", hands={0: "kgg", 1: "gg"})
    state, events = run(
        state,
        (0, PlaceTile(colour=BLACK, square=at("H5"))),
        (0, CommitSupport(count=2)),
        (1, CommitSupport(count=2)),
    )
    resolved = of_type(events, ev.ConflictResolved)[0]
    assert (resolved.attacker_total, resolved.defender_total, resolved.winner) == (5, 6, 1)
    assert points(state, 1) == {"green": 4} and points(state, 0) == {}
    assert len(of_type(events, ev.TilesRemoved)[0].squares) == 3


B4_BOARD = """
r  K0 .  .
.  r  r  F1
P1 r  .  .
r  .  .  .
"""


def test_b4_monument_flip_sends_a_stranded_farmer_home_and_pays_at_turn_end() -> None:
    state = build(B4_BOARD, origin="E4", hands={0: "rkkkkk", 1: "kkkkkk"})
    state, events = run(state, (0, PlaceTile(colour=RED, square=at("G6"))))
    assert points(state, 1) == {"red": 1}  # Bow's priest takes the temple's point
    offered = of_type(events, ev.MonumentOffered)[0].options
    assert {o.monument for o in offered} == {Monument.BLACK_RED, Monument.RED_BLUE, Monument.RED_GREEN}
    state, events = run(state, (0, BuildMonument(top_left=at("F5"), monument=Monument.BLACK_RED)))
    assert of_type(events, ev.LeaderReturned) == [
        ev.LeaderReturned(seat=1, leader=Leader.FARMER, reason="no_temple")
    ]
    state, events = run(state, (0, Pass()))
    assert points(state, 0) == {"black": 1}
    state, events = run(state, (1, Pass()), (1, Pass()))
    assert points(state, 1) == {"red": 2}


def test_b4_a_king_earns_nothing_from_a_monument_without_black() -> None:
    state = build(B4_BOARD, origin="E4", hands={0: "rkkkkk", 1: "kkkkkk"})
    state, _ = run(
        state,
        (0, PlaceTile(colour=RED, square=at("G6"))),
        (0, BuildMonument(top_left=at("F5"), monument=Monument.RED_BLUE)),
        (0, Pass()),
    )
    assert points(state, 0) == {}


B5_BOARD = """
.  .  .
.  r* T0
.  F1 .
.  .  .
.  r* .
"""


def test_b5_corner_treasure_must_be_taken_first() -> None:
    state = build(B5_BOARD, origin="A1", hands={0: "bkkkkk"})
    state, events = run(state, (0, PlaceTile(colour=BLUE, square=at("B4"))))
    assert points(state, 1) == {"blue": 1}
    assert of_type(events, ev.TreasuresTaken) == [ev.TreasuresTaken(seat=0, squares=(at("B2"),))]
    assert at("B5") in state.treasures and state.treasures_won[0] == 1


def test_b6_final_scoring_with_treasures_and_tiebreaks() -> None:
    state = build("", seats=4)
    state = replace(
        state,
        points=((12, 9, 10, 11), (10, 7, 13, 12), (10, 11, 14, 10), (6, 12, 11, 22)),
        treasures_won=(3, 3, 0, 3),
        phase=Over(reason="treasures"),
    )
    result = GAME.result(state)
    assert result is not None
    assert [(s.seat, s.place, s.score, s.tiebreak) for s in result.standings] == [
        (0, 1, 11, (11, 11, 12)),
        (1, 2, 10, (10, 12, 13)),
        (2, 3, 10, (10, 11, 14)),
        (3, 4, 9, (11, 12, 22)),
    ]


def _b7_opening() -> list[ev.TigrisEvent]:
    hands = ["rrkkgg", "bkkggg", "rkkggg", "rrrrkg"]
    rest = initial_bag()
    for colour in "".join(hands):
        rest.remove({"r": RED, "b": BLUE, "g": GREEN, "k": BLACK}[colour])
    dealt = [tuple(sorted((c for c in h), key="rbgk".index)) for h in hands]
    tile = {"r": RED, "b": BLUE, "g": GREEN, "k": BLACK}
    events: list[ev.TigrisEvent] = [
        ev.GameStarted(seats=4, options=Options(), first=0, temples=STARTING_TEMPLES),
        ev.BagFilled(order=tuple(tile[c] for h in hands for c in h) + tuple(rest)),
    ]
    for seat, hand in enumerate(dealt):
        events += [
            ev.TilesDrawn(seat=seat, tiles=tuple(tile[c] for c in hand)),
            ev.TilesDrawnCount(seat=seat, count=6),
        ]
    return [*events, ev.TurnStarted(seat=0)]


def test_b7_first_round_of_four_players() -> None:
    state = GAME.fold(_b7_opening())
    state, events = run(
        state,
        (0, PositionLeader(leader=Leader.KING, square=at("J11"))),
        (0, PositionLeader(leader=Leader.PRIEST, square=at("E10"))),
    )
    assert not of_type(events, ev.PointsScored) and not of_type(events, ev.TilesDrawn)
    state, events = run(
        state,
        (1, PositionLeader(leader=Leader.FARMER, square=at("F9"))),
        (1, PlaceTile(colour=BLUE, square=at("G9"))),
    )
    assert points(state, 1) == {"blue": 1}
    assert [e.count for e in of_type(events, ev.TilesDrawnCount)] == [1]
    state, events = run(
        state,
        (2, PositionLeader(leader=Leader.KING, square=at("J1"))),
        (2, PlaceTile(colour=RED, square=at("J2"))),
    )
    assert points(state, 2) == {"red": 1}
    state, events = run(state, (3, PositionLeader(leader=Leader.PRIEST, square=at("F11"))))
    assert state.phase == Support(
        conflict="revolt", colour=RED, attacker=3, defender=0, attacker_base=1, defender_base=1
    )
    state, events = run(
        state,
        (3, CommitSupport(count=3)),
        (0, CommitSupport(count=0)),
        (3, PlaceTile(colour=RED, square=at("G11"))),
    )
    assert state.leaders[0][0] is None
    assert [e.count for e in of_type(events, ev.TilesDrawnCount)] == [4]
    assert [points(state, s) for s in range(4)] == [{}, {"blue": 1}, {"red": 1}, {"red": 2}]
    assert state.active == 0 and state.phase == Acting()


def test_b8_a_lost_revolt_may_be_repeated_on_the_same_square() -> None:
    state, _ = run(
        b1_state(),
        (0, PositionLeader(leader=Leader.KING, square=at("F5"))),
        (0, CommitSupport(count=0)),
        (1, CommitSupport(count=1)),
    )
    assert state.leaders[0][3] is None and state.actions_done == 1
    again = PositionLeader(leader=Leader.KING, square=at("F5"))
    assert again in legal(state, 0)
    state, events = run(state, (0, again))
    assert of_type(events, ev.RevoltStarted)


LEADER_SQUARES = " ".join(
    (
        "A2 A8 B1 B3 B9 C2 C8 E10 F2 F4 F9 F11 G3 G10 H7 I6 I8",
        "J1 J7 J11 K2 K10 L1 L11 M5 N6 N9 O2 O8 O10 P1 P3 P9",
    )
)


def test_b9_geometry_checks_on_the_opening_position() -> None:
    assert SQUARES == 176 and len(RIVER) == 41
    assert sorted(label(sq) for sq in CORNERS) == ["B2", "B8", "O9", "P2"]
    assert len(STARTING_TEMPLES) == 10 and len(initial_bag()) == 143
    assert [tl for tl in range(SQUARES) if set(block(tl) or ()) <= RIVER and block(tl)] == [parse("O4")]
    state = GAME.fold(GAME.create(Options(), 2, Rng(b"\7" * 32, 0)))
    moves = legal(state, state.active)
    squares = {c.square for c in moves if isinstance(c, PositionLeader)}
    assert sorted(map(label, squares), key=parse) == sorted(LEADER_SQUARES.split(), key=parse)
    blue = {c.square for c in moves if isinstance(c, PlaceTile) and c.colour is BLUE}
    others = {c.square for c in moves if isinstance(c, PlaceTile) and c.colour is not BLUE}
    assert not others & RIVER
    if state.hands[state.active][1]:
        assert blue == set(RIVER)
