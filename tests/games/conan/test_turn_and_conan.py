"""Fate pool, the turn and Conan's adventures (docs/rules/conan.md §4, §9)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from shared.games.conan import GAME
from shared.games.conan import commands as c
from shared.games.conan import events as ev
from shared.games.conan.state import AdventureEnd, ConanCourt, Court, Military, TokenChoice, Turn
from tests.games.conan.helpers import PACK, edit_province, of_type, opening, province, set_units, when


def _turn(state, seat=0, pool=("MILITARY",), step="cards", conan_player=1):
    return replace(
        state,
        phases=(Turn(seat=seat, step=step, conan_done=True),),
        fate_pool=pool,
        conan_player=conan_player,
    )


def test_mandatory_die_order_for_military():
    state = _turn(opening(2), pool=("WILD", "MILITARY_INTRIGUE", "MILITARY"))
    state, events = when(state, 0, c.TakeDie(action="military"))
    assert of_type(events, ev.FateDieTaken)[0].face == "MILITARY"
    state = _turn(opening(2), pool=("WILD", "MILITARY_INTRIGUE"))
    _, events = when(state, 0, c.TakeDie(action="intrigue"))
    assert of_type(events, ev.FateDieTaken)[0].face == "MILITARY_INTRIGUE"
    state = _turn(opening(2), pool=("WILD",))
    _, events = when(state, 0, c.TakeDie(action="court"))
    assert of_type(events, ev.FateDieTaken)[0].face == "WILD"


def test_only_actions_with_a_die_are_offered():
    state = _turn(opening(2), pool=("INTRIGUE",))
    assert [x for x in GAME.legal(state, 0) if isinstance(x, c.TakeDie)] == [c.TakeDie(action="intrigue")]


def test_wild_court_never_gives_the_conan_part():
    state = _turn(opening(2), pool=("WILD",), conan_player=0)
    state, _ = when(state, 0, c.TakeDie(action="court"))
    assert isinstance(state.phase, Court)
    state = _turn(opening(2), pool=("COURT_CONAN",), conan_player=0)
    state, _ = when(state, 0, c.TakeDie(action="court"))
    assert isinstance(state.phase, ConanCourt)


def test_empty_pool_is_rerolled_for_the_next_player():
    state = _turn(opening(2), pool=("COURT_CONAN",))
    state, _ = when(state, 0, c.TakeDie(action="court"))
    while isinstance(state.phase, TokenChoice):
        state, _ = when(state, 0, c.ChooseToken(keep="keep"))
    state, events = when(state, 0, c.CourtDraw(option="two_strategy"))
    assert len(of_type(events, ev.FatePoolRolled)[0].faces) == 7
    assert state.phase == Turn(seat=1, step="conan")


def test_non_conan_player_with_court_conan_takes_the_leftmost_token():
    state = _turn(opening(2), pool=("COURT_CONAN",))
    left = state.track[0]
    state, events = when(state, 0, c.TakeDie(action="court"))
    assert of_type(events, ev.TokenTaken)[0].token == left
    assert isinstance(state.phase, TokenChoice)


def _conan_turn(conan_at, destination="zamora"):
    state = opening(2)
    return replace(
        state,
        phases=(Turn(seat=0, step="conan"),),
        conan_player=0,
        conan_at=conan_at,
        destination=destination,
    )


def test_conan_moving_closer_takes_the_leftmost_token():
    state = _conan_turn("nemedia")
    state, events = when(state, 0, c.MoveConan(to="corinthia"))
    assert of_type(events, ev.TokenTaken)
    assert isinstance(state.phase, TokenChoice)


def test_conan_staying_or_moving_away_discards_the_token():
    for to in (None, "aquilonia", "border_kingdom"):  # stay, away, sideways
        state = _conan_turn("nemedia")
        state, events = when(state, 0, c.MoveConan(to=to))
        assert of_type(events, ev.TokenDiscarded), to


def test_conan_at_destination_staying_takes_the_token():
    state = _conan_turn("zamora")
    _, events = when(state, 0, c.MoveConan(to=None))
    assert of_type(events, ev.TokenTaken)


def test_token_exchanged_for_gold_equal_to_its_value():
    state = _conan_turn("nemedia")
    state, _ = when(state, 0, c.MoveConan(to="corinthia"))

    value = PACK.tokens[state.seats[0].pending_token][1]
    gold = state.seats[0].gold
    state, _ = when(state, 0, c.ChooseToken(keep="gold"))
    assert state.seats[0].gold == gold + value and state.seats[0].tokens == ()


def test_last_token_ends_the_adventure_and_starts_a_bid():
    state = _conan_turn("zamora")
    state = replace(state, track=state.track[:1])
    state, _ = when(state, 0, c.MoveConan(to=None))
    assert isinstance(state.phases[-2], AdventureEnd)
    state, events = when(state, 0, c.ChooseToken(keep="keep"))
    # Conan is at the destination: a reward token from the container.
    assert of_type(events, ev.TokenTaken)[0].source == "container"
    state, events = when(state, 0, c.ChooseToken(keep="keep"))
    assert of_type(events, ev.AdventureRevealed) and state.phase.__class__.__name__ == "Bidding"
    assert len(state.seats[0].tokens) == 2


def test_conan_court_extra_move_and_raid():
    state = _turn(opening(2), pool=("COURT_CONAN",), conan_player=0)
    state = replace(state, conan_at="nemedia")
    state, _ = when(state, 0, c.TakeDie(action="court"))
    track = state.track
    state, _ = when(state, 0, c.ConanAct(to="ophir", raider="koth"))
    assert state.conan_at == "ophir" and state.track == track, "no token effect on the extra move"
    from tests.games.conan.helpers import province

    assert province(state, "koth").raiders == 1
    assert isinstance(state.phase, Court)


def test_raise_troops_two_different_friendly_provinces_ends_turn():
    state = _turn(opening(2))
    from tests.games.conan.helpers import edit_province

    state = edit_province(state, "ophir", owner=0, marker="tower")
    state, _ = when(state, 0, c.TakeDie(action="military"))
    assert isinstance(state.phase, Military)
    assert c.RaiseTroops(provinces=("aquilonia", "ophir")) in GAME.legal(state, 0)
    assert c.RaiseTroops(provinces=("aquilonia", "aquilonia")) not in GAME.legal(state, 0)
    state, _ = when(state, 0, c.RaiseTroops(provinces=("aquilonia", "ophir")))
    assert state.phase == Turn(seat=1, step="conan")


@pytest.mark.parametrize(("both", "most"), [(True, 5), (False, 2)])
def test_units_that_moved_may_move_again_only_under_one_army_two_moves(both, most):
    # given 2 Aquilonian units already in Ophir, its ally, and 5 at home
    state = opening(2, one_army_two_moves=both)
    state = edit_province(state, "ophir", owner=0, marker="tower")
    state = set_units(state, "aquilonia", 0, 5)
    state = set_units(state, "ophir", 0, 2)
    state = replace(state, phases=(Turn(seat=0, step="cards", conan_done=True),), fate_pool=("MILITARY",))
    state, _ = when(state, 0, c.TakeDie(action="military"))
    # when 3 units move from home into Ophir
    state, _ = when(state, 0, c.MoveArmy(frm="aquilonia", to="ophir", units=3))
    # then only the 2 that were already there may leave Ophir, unless one army may move twice
    from_ophir = [x.units for x in GAME.legal(state, 0) if isinstance(x, c.MoveArmy) and x.frm == "ophir"]
    assert max(from_ophir) == most
    state, _ = when(state, 0, c.MoveArmy(frm="ophir", to="aquilonia", units=most))
    assert province(state, "ophir").units[0] == 5 - most
