"""The seed's worked examples (docs/rules/conan.md §14) as
given/when/then tests."""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.conan import commands as c
from shared.games.conan import events as ev
from shared.games.conan.state import AfterContest, Turn
from tests.games.conan.helpers import (
    edit_seat,
    of_type,
    opening,
    province,
    seat_of,
    set_emissaries,
    set_units,
    when,
)


def _turn_of(state, seat, pool=("MILITARY", "INTRIGUE", "COURT_CONAN")):
    conan = (seat + 1) % len(state.seats)
    return replace(
        state, phases=(Turn(seat=seat, step="cards", conan_done=True),), fate_pool=pool, conan_player=conan
    )


def _hyperborea_in_steppes():
    state = opening(4)
    hy = seat_of(state, "hyperborea")
    state = _turn_of(state, hy)
    state, _ = when(state, hy, c.TakeDie(action="military"))
    state, _ = when(state, hy, c.MoveArmy(frm="hyperborea", to="steppes", units=4))
    state, _ = when(state, hy, c.Attack(province="steppes"))
    state, _ = when(state, hy, c.CommitCard())
    return state, hy


def test_hyperborea_campaign_first_contest_won_on_plains():
    state, hy = _hyperborea_in_steppes()
    assert state.phase.terrain == "plains" and state.phase.kind == "campaign"
    # Attacker: two hits, a shield and an attacker hit = three successes.
    state, events = when(state, hy, c.Proceed(), ["HIT", "HIT", "SHIELD", "ATTACKER_HIT"])
    # Neutral Steppes (value 3): a shield, a blank and an attacker hit = nothing.
    state, events = when(state, hy, c.Proceed(), ["SHIELD", "BLANK", "ATTACKER_HIT"])
    (resolved,) = of_type(events, ev.ContestResolved)
    assert (resolved.attacker_successes, resolved.defender_successes, resolved.attacker_won) == (3, 0, True)
    assert province(state, "steppes").campaign_owner == hy
    assert province(state, "steppes").campaign_pos == 1
    assert isinstance(state.phase, AfterContest) and state.phase.won


def test_forced_march_costs_a_unit_and_fights_on_hills():
    state, hy = _hyperborea_in_steppes()
    state, _ = when(state, hy, c.Proceed(), ["HIT", "HIT", "SHIELD", "ATTACKER_HIT"])
    state, _ = when(state, hy, c.Proceed(), ["SHIELD", "BLANK", "ATTACKER_HIT"])
    state, _ = when(state, hy, c.ForcedMarch())
    assert province(state, "steppes").units[hy] == 3
    assert state.phase.terrain == "hills"


def test_legions_of_the_dead_then_shield_card_subjugates_steppes():
    state, hy = _hyperborea_in_steppes()
    state = edit_seat(state, hy, kingdom_hand=("hy_legions_of_the_dead",), strategy_hand=("shield_wall",))
    # keep card conservation simple: the test only checks the rules' outcome
    state, _ = when(state, hy, c.Proceed(), ["HIT", "HIT", "SHIELD", "ATTACKER_HIT"])
    state, _ = when(state, hy, c.Proceed(), ["SHIELD", "BLANK", "ATTACKER_HIT"])
    state, _ = when(state, hy, c.UseCard(card="hy_legions_of_the_dead"))
    state, _ = when(state, hy, c.ForcedMarch())
    assert province(state, "steppes").units[hy] == 4, "Legions of the Dead: no unit sacrificed"
    state, _ = when(state, hy, c.CommitCard(cards=("shield_wall",)))  # shields count on hills
    ep_before = state.seats[hy].ep
    state, _ = when(state, hy, c.Proceed(), ["SHIELD", "SHIELD", "BLANK", "AXE"])
    state, events = when(state, hy, c.Proceed(), ["BLANK", "BLANK", "HIT_CONAN"])
    (resolved,) = of_type(events, ev.ContestResolved)
    assert (resolved.attacker_successes, resolved.defender_successes) == (2, 1)
    steppes = province(state, "steppes")
    assert (steppes.owner, steppes.marker) == (hy, "fort")
    assert steppes.units[hy] == 3, "one unit became the fort"
    assert state.seats[hy].ep == ep_before + 3, "EP equal to the province value"


def test_conan_player_overkill_six_dice_and_double_conan_hits():
    state = opening(4)
    hy = seat_of(state, "hyperborea")
    state = _turn_of(state, hy)
    state = replace(state, conan_player=hy, conan_at="steppes")
    state = set_units(state, "hyperborea", hy, 5)
    state, _ = when(state, hy, c.TakeDie(action="military"))
    state, _ = when(state, hy, c.MoveArmy(frm="hyperborea", to="steppes", units=5))
    state, _ = when(state, hy, c.Attack(province="steppes"))
    state, _ = when(state, hy, c.CommitCard())
    state, events = when(state, hy, c.Proceed(), ["HIT_CONAN"] * 6)
    (rolled,) = of_type(events, ev.ContestRolled)
    assert len(rolled.faces) == 6, "5 units + Conan's die, capped at 6"
    state, events = when(state, hy, c.Proceed(), ["HIT", "HIT", "HIT"])
    (resolved,) = of_type(events, ev.ContestResolved)
    assert resolved.attacker_successes == 12


def test_raiders_make_axes_count_for_the_neutral_and_one_leaves():
    state, hy = _hyperborea_in_steppes()
    from tests.games.conan.helpers import edit_province

    state = edit_province(state, "steppes", raiders=2)
    state, _ = when(state, hy, c.Proceed(), ["HIT", "BLANK", "BLANK", "BLANK"])
    state, events = when(state, hy, c.Proceed(), ["AXE", "BLANK", "BLANK"])
    (resolved,) = of_type(events, ev.ContestResolved)
    assert (resolved.attacker_successes, resolved.defender_successes, resolved.attacker_won) == (1, 1, False)
    assert province(state, "steppes").raiders == 1
    assert province(state, "steppes").units[hy] == 3, "a lost contest costs a unit"


def test_turan_alliance_in_steppes_gives_tower_and_three_gold_no_ep():
    state = opening(4)
    tu = seat_of(state, "turan")
    state = _turn_of(state, tu)
    state = set_emissaries(state, "hyrkania", tu, 1)
    state = set_emissaries(state, "hyperborea", tu, 1)
    state = set_emissaries(state, "turan", tu, 2)
    state, _ = when(state, tu, c.TakeDie(action="intrigue"))
    state, _ = when(state, tu, c.MoveEmissary(frm="turan", to="steppes"))
    state, _ = when(state, tu, c.StartIntrigue(province="steppes"))
    state, _ = when(state, tu, c.CommitCard())
    gold, ep = state.seats[tu].gold, state.seats[tu].ep
    # 1 + Turan (friendly) + Hyrkania and Hyperborea (own emissaries) = 4 dice.
    state, events = when(state, tu, c.Proceed(), ["HIT", "BLANK", "SHIELD", "HIT_CONAN"])
    assert len(of_type(events, ev.ContestRolled)[0].faces) == 4
    state, events = when(state, tu, c.Proceed(), ["BLANK", "SHIELD", "ATTACKER_HIT"])
    (resolved,) = of_type(events, ev.ContestResolved)
    assert (resolved.attacker_successes, resolved.attacker_won) == (2, True)
    steppes = province(state, "steppes")
    assert (steppes.owner, steppes.marker, steppes.emissaries[tu]) == (tu, "tower", 0)
    assert state.seats[tu].gold == gold + 3 and state.seats[tu].ep == ep
