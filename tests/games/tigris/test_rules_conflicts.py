"""Revolts and wars beyond the worked examples (docs/rules/tigris.md §10, §11)."""

from __future__ import annotations

from shared.games.tigris import GAME
from shared.games.tigris import events as ev
from shared.games.tigris.commands import ChooseWarColour, CommitSupport, PlaceTile, PositionLeader
from shared.games.tigris.legal import legal
from shared.games.tigris.state import ChooseWar, Support
from shared.games.tigris_common.colours import Colour, Leader
from tests.games.tigris.boards import at, build, of_type, points, run, with_options
from tests.games.tigris.positions import b1_state

RED_WAR = """
r  P0 r  .  r  P1 r*
.  .  .  .  r  .  r
.  .  .  .  K1 r  .
"""


def test_priest_war_spares_treasure_temples_and_temples_serving_other_leaders() -> None:
    state = build(RED_WAR, origin="E4", hands={0: "krrrrr"})
    state, events = run(state, (0, PlaceTile(colour=Colour.BLACK, square=at("H4"))))
    assert state.phase == Support(
        conflict="war", colour=Colour.RED, attacker=0, defender=1, attacker_base=2, defender_base=5
    )
    state, events = run(state, (0, CommitSupport(count=5)), (1, CommitSupport(count=0)))
    # I4 touched only the losing priest and K5 touched nobody: both go. K4 holds a
    # treasure, I5 serves Bull's own king, J6 serves the king too: all three stay.
    assert of_type(events, ev.TilesRemoved) == [
        ev.TilesRemoved(colour=Colour.RED, squares=(at("I4"), at("K5")))
    ]
    assert points(state, 0) == {"red": 3}
    assert all(state.tiles[at(n)] is Colour.RED for n in ("K4", "I5", "J6"))
    assert state.leaders[1] == (None, None, None, at("I6")) and state.marker is None


def test_attacker_is_first_involved_seat_after_an_uninvolved_active_seat() -> None:
    state = build("r T0 g . g T1 r", origin="E4", seats=3, active=2, hands={2: "k"})
    state, events = run(state, (2, PlaceTile(colour=Colour.BLACK, square=at("H4"))))
    started = of_type(events, ev.WarStarted)[0]
    assert (started.attacker, started.defender) == (0, 1)
    assert GAME.actors(state) == {0}


def test_supporters_must_come_from_hand() -> None:
    state, _ = run(b1_state(), (0, PositionLeader(leader=Leader.KING, square=at("F5"))))
    assert [c.count for c in legal(state, 0)] == [0, 1, 2]
    assert legal(state, 1) == []


def test_english_variant_limits_what_may_be_committed() -> None:
    state = with_options(b1_state(), support_variant="english")
    state, _ = run(state, (0, PositionLeader(leader=Leader.KING, square=at("F5"))))
    assert [c.count for c in legal(state, 0)] == [0, 1, 2]  # 2 + c already beats 1
    state, _ = run(state, (0, CommitSupport(count=2)))
    assert [c.count for c in legal(state, 1)] == [0, 3]  # nothing, or exactly the tie


def test_revolt_winner_scores_red_whatever_the_colour() -> None:
    state, _ = run(
        b1_state(),
        (0, PositionLeader(leader=Leader.KING, square=at("F5"))),
        (0, CommitSupport(count=2)),
        (1, CommitSupport(count=0)),
    )
    assert points(state, 0) == {"red": 1}
    assert state.leaders[1][3] is None and state.leaders[0][3] == at("F5")


SPLIT = """
K0 r  .  k  K1 r
r  P0 r  .  P1 r
T0 r  .  g  T1 r
"""


def test_a_side_split_in_two_still_fights_from_both_pieces() -> None:
    # docs/rules/tigris.md §11: after the priest war the east side falls apart into the king's
    # piece and the trader's piece, both touching the unification square.
    state = build(SPLIT, origin="E4", hands={0: "k"})
    state, _ = run(state, (0, PlaceTile(colour=Colour.BLACK, square=at("H5"))))
    assert state.phase == ChooseWar(colours=(Colour.RED, Colour.GREEN, Colour.BLACK))
    state, events = run(
        state,
        (0, ChooseWarColour(colour=Colour.RED)),
        (0, CommitSupport(count=0)),
        (1, CommitSupport(count=0)),
    )
    assert of_type(events, ev.TilesRemoved)[0].squares == (at("J5"),)
    assert points(state, 0) == {"red": 2}
    assert state.phase == ChooseWar(colours=(Colour.GREEN, Colour.BLACK))
    state, _ = run(
        state,
        (0, ChooseWarColour(colour=Colour.BLACK)),
        (0, CommitSupport(count=0)),
        (1, CommitSupport(count=0)),
    )
    assert isinstance(state.phase, Support) and state.phase.colour is Colour.GREEN


def test_moving_a_leader_into_a_rival_kingdom_starts_a_revolt() -> None:
    state = build("r  K1 .  .  r  K0\n.  .  r  .  .  .", origin="E4")
    state, events = run(state, (0, PositionLeader(leader=Leader.KING, square=at("G4"))))
    assert of_type(events, ev.LeaderPositioned)[0].origin == at("J4")
    assert of_type(events, ev.RevoltStarted) == [
        ev.RevoltStarted(colour=Colour.BLACK, attacker=0, defender=1, attacker_base=1, defender_base=1)
    ]
