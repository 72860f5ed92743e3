"""Age change in seven steps, coronation and final scoring (docs/rules/conan.md §10-§12)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from shared.games.conan import GAME
from shared.games.conan import commands as c
from shared.games.conan import events as ev
from shared.games.conan.state import AgeChange, Bidding, Coronation, GameOver, Garrison, Turn
from tests.games.conan.helpers import (
    PACK,
    edit_province,
    edit_seat,
    of_type,
    opening,
    province,
    set_units,
    when,
)


def _token(category: str, value: int, skip: int = 0) -> int:
    return [i for i, t in enumerate(PACK.tokens) if t == (category, value)][skip]


def _age_change(final=False):
    state = opening(2)
    state = edit_province(state, "zingara", owner=0, marker="tower")
    state = edit_province(state, "ophir", owner=0, marker="fort", raiders=2)
    state = set_units(state, "ophir", 0, 1)
    state = edit_province(state, "nemedia", owner=0, marker="fort", raiders=1)
    for seat in (0, 1):
        state = edit_seat(state, seat, gold=0, ep=4, artifacts=(), bonus=False)
    return replace(state, phases=(AgeChange(final=final),), first_player=0, age=3 if final else 1)


def test_raids_sacrifice_a_unit_or_lose_ep_per_raider():
    state = _age_change()
    assert GAME.actors(state) == frozenset({0})
    assert c.ResolveRaids(sacrifice_in=("ophir",)) in GAME.legal(state, 0)
    state, events = when(state, 0, c.ResolveRaids(sacrifice_in=("ophir",)))
    assert province(state, "ophir").raiders == 0 and province(state, "ophir").units[0] == 0
    assert all(p.raiders == 0 for p in state.provinces), "all raiders leave the board"
    assert state.seats[0].ep == 4 - 1 + sum(
        e.ep for e in of_type(events, ev.ResourcesChanged) if e.seat == 0 and e.reason == "objective"
    )


def test_income_is_five_plus_two_per_tower_and_city():
    state = _age_change()
    state, events = when(state, 0, c.ResolveRaids(sacrifice_in=()))
    income = [e.gold for e in of_type(events, ev.ResourcesChanged) if e.reason == "income"]
    assert income == [7, 5]


def test_cities_and_troops_then_purchases_then_secret_categories():
    state = _age_change()
    state, _ = when(state, 0, c.ResolveRaids(sacrifice_in=()))
    assert state.phase == Garrison(seat=0) and GAME.actors(state) == frozenset({0})
    home_before = province(state, "aquilonia").units[0]
    for place in (
        c.PlaceGarrison(province="ophir", city=True),
        c.PlaceGarrison(province="nemedia"),
        c.PlaceGarrison(province="aquilonia"),
    ):
        state, _ = when(state, 0, place)
    assert province(state, "ophir").marker == "city"
    assert province(state, "nemedia").units[0] == 1, "a unit at the other fort"
    assert province(state, "aquilonia").units[0] == home_before + 1
    state, _ = when(state, 1, c.EndAction())
    assert state.phase.step == 4
    gold = state.seats[0].gold
    state, _ = when(state, 0, c.Buy(item="strategy"))
    assert state.seats[0].gold == gold - 1
    state, _ = when(state, 0, c.EndAction())
    state, _ = when(state, 1, c.EndAction())
    assert state.phase.step == 5 and GAME.actors(state) == frozenset({0, 1})
    state = edit_seat(state, 0, tokens=(_token("monsters", 3),))
    state = edit_seat(state, 1, tokens=(_token("monsters", 1), _token("women", 2)))
    state, _ = when(state, 0, c.ChooseCategory(category="monsters"))
    assert GAME.view(state, 1).seats[0].category_chosen and GAME.view(state, 1).me.sealed_category == ""
    state, _events = when(state, 1, c.ChooseCategory(category="women"))
    assert state.seats[0].artifacts == ("sword_of_atlantis",)
    assert state.seats[1].artifacts == ("heart_of_tammuz",)
    assert isinstance(state.phase, Bidding) and state.age == 2
    bonus = [s for s in range(2) if state.seats[s].bonus]
    assert len(bonus) == 1, "the bonus card goes to the fewest EP"


def test_new_age_refreshes_table_cards_and_starts_with_first_player():
    state = _age_change()
    from shared.games.conan.state import TableCard

    state = edit_seat(state, 1, table=(TableCard(card="tu_cavalry", exhausted=True),))
    for _ in range(50):
        if isinstance(state.phase, Turn):
            break
        seat = min(GAME.actors(state))
        state, _ = when(state, seat, GAME.legal(state, seat)[-1])
    assert state.seats[1].table[0].exhausted is False
    assert state.phase.seat == state.first_player


def test_coronation_success_scores_three_and_failure_kills():
    state = opening(2)
    state = replace(state, phases=(Turn(seat=1, step="cards"), Coronation(seat=0)), age=3)
    state = edit_seat(state, 0, tokens=(_token("treasures", 3),))
    state = edit_seat(state, 1, tokens=(_token("treasures", 2),))
    won, _events = when(state, 0, c.Crown(category="treasures"))
    assert won.crowned == 0 and won.seats[0].ep == state.seats[0].ep + 3
    lost, _ = when(state, 0, c.Crown(category="monsters"))
    assert lost.seats[0].dead and lost.crowned == -1, "no higher monsters total: Conan kills the claimant"
    state = edit_seat(state, 1, tokens=(_token("treasures", 3, 1),))
    tie, _ = when(state, 0, c.Crown(category="treasures"))
    assert tie.seats[0].dead, "a tie fails by default"


def test_final_scoring_bonuses_and_winner():
    state = _age_change(final=True)
    state = edit_seat(state, 0, gold=9, crom=2, ep=10, tokens=(_token("monsters", 3),))
    state = edit_seat(state, 1, gold=1, crom=2, ep=10, tokens=(_token("women", 1),))
    state, events = when(state, 0, c.ResolveRaids(sacrifice_in=("ophir",)))
    assert isinstance(state.phase, GameOver)
    reasons = {(e.seat, e.reason): e.ep for e in of_type(events, ev.ResourcesChanged) if e.ep}
    assert reasons[(0, "richest")] == 3
    assert reasons[(0, "crom")] == 1 and reasons[(1, "crom")] == 1, "tied Crom leaders get 1"
    assert reasons[(0, "majority_monsters")] == 5 and reasons[(1, "majority_women")] == 5
    result = GAME.result(state)
    assert result is not None and result.standings[0].seat == 0 and result.standings[0].place == 1


def test_crowned_player_alone_takes_token_majorities():
    state = _age_change(final=True)
    state = replace(state, crowned=1)
    state = edit_seat(state, 0, tokens=(_token("monsters", 3),))
    state = edit_seat(state, 1, tokens=(_token("women", 1),))
    _, events = when(state, 0, c.ResolveRaids(sacrifice_in=()))
    majorities = [e for e in of_type(events, ev.ResourcesChanged) if e.reason.startswith("majority")]
    assert [(e.seat, e.reason) for e in majorities] == [(1, "majority_women")]


def test_a_player_killed_by_conan_loses_the_rest_of_the_turn_and_scoring():
    state = opening(2)
    state = replace(state, phases=(Turn(seat=0, step="cards", conan_done=True), Coronation(seat=0)), age=3)
    state = edit_seat(state, 1, tokens=(_token("monsters", 1),))
    state, _ = when(state, 0, c.Crown(category="monsters"))
    assert state.seats[0].dead and isinstance(state.phase, Turn) and state.phase.seat == 1
    assert GAME.actors(state) == frozenset({1})


@pytest.mark.parametrize(("rule", "holders"), [("first_player", [1]), ("nobody", [])])
def test_last_bonus_card_tie_follows_the_named_option(rule, holders):
    # given two seats level on EP and on token count, seat 1 holding the first player token
    state = _age_change()
    state = replace(
        state,
        options=replace(state.options, bonus_last_tiebreak=rule),
        phases=(AgeChange(step=5),),
        first_player=1,
    )
    # when both make their secret category choice
    state, _ = when(state, 0, c.ChooseCategory(category="monsters"))
    state, _ = when(state, 1, c.ChooseCategory(category="women"))
    # then the bonus card goes clockwise from the first player, or to nobody
    assert [s for s in range(2) if state.seats[s].bonus] == holders


def test_troops_and_cities_at_age_change_are_the_players_choice():
    # given Aquilonia with forts in Ophir and Nemedia, its turn in step 3
    state = _age_change()
    state, _ = when(state, 0, c.ResolveRaids(sacrifice_in=()))
    # then each fort offers a unit or a city, the home a unit, and the seat may stop
    assert set(GAME.legal(state, 0)) == {
        c.PlaceGarrison(province="aquilonia"),
        c.PlaceGarrison(province="ophir"),
        c.PlaceGarrison(province="ophir", city=True),
        c.PlaceGarrison(province="nemedia"),
        c.PlaceGarrison(province="nemedia", city=True),
        c.EndAction(),
    }
    # when it places one unit in Nemedia and stops
    nemedia = province(state, "nemedia").units[0]
    state, _ = when(state, 0, c.PlaceGarrison(province="nemedia"))
    assert all(x.province != "nemedia" for x in GAME.legal(state, 0) if isinstance(x, c.PlaceGarrison))
    state, _ = when(state, 0, c.EndAction())
    # then nothing else was placed and the next seat (Turan: home only) is asked
    assert province(state, "nemedia").units[0] == nemedia + 1 and province(state, "ophir").units[0] == 1
    assert state.phase == Garrison(seat=1)
    assert GAME.legal(state, 1) == [c.PlaceGarrison(province="turan"), c.EndAction()]


def test_garrison_ends_by_itself_when_nothing_is_left_to_place():
    state = _age_change()
    state = set_units(state, "aquilonia", 0, 18 - 2)  # one unit left in reserve (one in Ophir)
    state, _ = when(state, 0, c.ResolveRaids(sacrifice_in=()))
    state, _ = when(state, 0, c.PlaceGarrison(province="aquilonia"))
    assert set(GAME.legal(state, 0)) == {
        c.PlaceGarrison(province="ophir", city=True),
        c.PlaceGarrison(province="nemedia", city=True),
        c.EndAction(),
    }, "no reserve: only cities remain"
    state, _ = when(state, 0, c.PlaceGarrison(province="ophir", city=True))
    state, _ = when(state, 0, c.PlaceGarrison(province="nemedia", city=True))
    assert state.phase == Garrison(seat=1), "seat 0 had nothing left and was passed"
