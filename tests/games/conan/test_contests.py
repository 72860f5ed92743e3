"""Contests, sieges and battles, intrigue (docs/rules/conan.md §6-§8)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from shared.games.conan import GAME
from shared.games.conan import commands as c
from shared.games.conan import events as ev
from shared.games.conan.rules.contest import successes
from shared.games.conan.state import AfterContest, Retreat, Side, Turn
from shared.kernel.rejection import RuleViolation
from shared.kernel.visibility import PUBLIC, seat_only
from tests.games.conan.helpers import (
    PACK,
    edit_province,
    edit_seat,
    of_type,
    opening,
    province,
    set_emissaries,
    set_units,
    when,
)


def _turn(state, seat, pool=("MILITARY", "INTRIGUE"), conan_player=-1):
    return replace(
        state,
        phases=(Turn(seat=seat, step="cards", conan_done=True),),
        fate_pool=pool,
        conan_player=conan_player,
    )


def test_success_counting_by_face_and_side():
    dice = ("HIT", "ATTACKER_HIT", "HIT_CONAN", "SHIELD", "AXE", "BLANK")
    assert successes(Side(seat=0, dice=dice), True, False) == 3
    assert successes(Side(seat=1, dice=dice), False, False) == 2
    assert successes(Side(seat=1, dice=dice, conan=True), False, False) == 3
    assert successes(Side(seat=-1, dice=dice), False, True) == 3, "neutral axes with raiders"
    card = Side(seat=0, dice=dice, faces=(("SHIELD", 1, 0), ("AXE", 1, 0)))
    assert successes(card, True, False) == 5
    legion = Side(seat=0, dice=("AXE", "AXE", "AXE"), faces=(("AXE", 2, 1),))
    assert successes(legion, True, False) == 2, "Black Legion: one axe scores two"


def _siege(defender_units: int):
    state = opening(2)
    state = edit_province(state, "nemedia", owner=1, marker="fort")
    state = set_units(state, "nemedia", 1, defender_units)
    state = set_units(state, "aquilonia", 0, 3)
    state = _turn(state, 0)
    state, _ = when(state, 0, c.TakeDie(action="military"))
    state, _ = when(state, 0, c.MoveArmy(frm="aquilonia", to="nemedia", units=3))
    state, _ = when(state, 0, c.Attack(province="nemedia"))
    assert state.phase.kind == "siege" and state.phase.terrain == "plains"
    state, _ = when(state, 0, c.CommitCard())
    state, _ = when(state, 1, c.CommitCard())
    return state


def test_siege_defender_rolls_at_least_the_province_value():
    state = _siege(1)
    state, _ = when(state, 0, c.Proceed(), ["BLANK"] * 3)
    state, _ = when(state, 0, c.Proceed())
    state, _ = when(state, 1, c.Proceed(), ["BLANK"] * 3)
    assert len(state.phase.defender.dice) == 3  # max(1 unit, value 3)


def test_siege_marker_is_the_last_life_and_falls_to_a_campaign():
    state = _siege(0)
    state = edit_seat(state, 0, sorcery=0)
    state, _ = when(state, 0, c.Proceed(), ["HIT", "HIT", "BLANK"])
    state, _ = when(state, 0, c.Proceed())
    state, _ = when(state, 1, c.Proceed(), ["BLANK", "BLANK", "BLANK"])
    state, _events = when(state, 1, c.Proceed())
    nemedia = province(state, "nemedia")
    assert (nemedia.owner, nemedia.marker) == (-1, "")
    assert (nemedia.campaign_owner, nemedia.campaign_pos) == (0, 0), "a new campaign begins"
    assert state.seats[0].crom == 0, "no army was destroyed: a fallen marker alone earns no Crom"
    assert state.seats[1].ep == opening(2).seats[1].ep, "the defender loses no EP"
    assert isinstance(state.phase, AfterContest) and GAME.legal(state, 0)[0] == c.ForcedMarch()


def test_lost_siege_contest_costs_the_attacker_a_unit_and_attacker_may_withdraw():
    state = _siege(2)
    state, _ = when(state, 0, c.Proceed(), ["BLANK"] * 3)
    state, _ = when(state, 0, c.Proceed())
    state, _ = when(state, 1, c.Proceed(), ["HIT", "BLANK", "BLANK"])
    state, _ = when(state, 1, c.Proceed())
    assert province(state, "nemedia").units[0] == 2
    assert c.ForcedMarch() in GAME.legal(state, 0), "the seed's forced march follows the roll, won or lost"
    state, _ = when(state, 0, c.Withdraw(to="aquilonia"))
    assert province(state, "nemedia").units[0] == 0 and state.seats[1].crom == 1


def test_sword_of_atlantis_wins_military_ties_but_not_at_zero():
    state = _siege(2)
    state = edit_seat(state, 0, artifacts=("sword_of_atlantis",))
    state, _ = when(state, 0, c.Proceed(), ["HIT", "BLANK", "BLANK"])
    state, _ = when(state, 0, c.Proceed())
    state, _ = when(state, 1, c.Proceed(), ["HIT", "BLANK", "BLANK"])
    state, events = when(state, 1, c.Proceed())
    assert of_type(events, ev.ContestResolved)[0].attacker_won


def test_battle_against_another_army_in_a_neutral_province():
    state = opening(2)
    state = set_units(state, "ophir", 1, 1)
    state = _turn(state, 0)
    state, _ = when(state, 0, c.TakeDie(action="military"))
    state, _ = when(state, 0, c.MoveArmy(frm="aquilonia", to="ophir", units=2))
    state, _ = when(state, 0, c.Attack(province="ophir"))
    assert state.phase.kind == "battle"
    state, _ = when(state, 0, c.CommitCard())
    state, _ = when(state, 1, c.CommitCard())
    state, _ = when(state, 0, c.Proceed(), ["HIT", "HIT"])
    state, _ = when(state, 0, c.Proceed())
    state, _ = when(state, 1, c.Proceed(), ["BLANK"])
    state, _ = when(state, 1, c.Proceed())
    ophir = province(state, "ophir")
    assert ophir.units[1] == 0 and ophir.campaign_owner == 0 and state.seats[0].crom == 1


def test_home_provinces_cannot_be_attacked():
    state = opening(2)
    state = set_units(state, "zamora", 0, 3)
    state = _turn(state, 0)
    state, _ = when(state, 0, c.TakeDie(action="military"))
    assert not [x for x in GAME.legal(state, 0) if isinstance(x, c.MoveArmy) and x.to == "turan"]


def test_five_unit_limit_outside_home():
    state = opening(2)
    state = set_units(state, "aquilonia", 0, 9)
    state = set_units(state, "ophir", 0, 3)
    state = _turn(state, 0)
    state, _ = when(state, 0, c.TakeDie(action="military"))
    into_ophir = [x.units for x in GAME.legal(state, 0) if isinstance(x, c.MoveArmy) and x.to == "ophir"]
    assert max(into_ophir) == 2


def test_intrigue_forbidden_in_savage_home_and_occupied_provinces():
    state = opening(2)
    state = set_emissaries(state, "pictish_wilderness", 0, 1)  # savage
    state = set_emissaries(state, "turan", 0, 1)  # another player's home
    state = set_emissaries(state, "ophir", 0, 1)
    state = set_units(state, "ophir", 1, 1)  # another player's army
    state = set_emissaries(state, "zingara", 0, 1)  # allowed
    state = _turn(state, 0)
    state, _ = when(state, 0, c.TakeDie(action="intrigue"))
    targets = {x.province for x in GAME.legal(state, 0) if isinstance(x, c.StartIntrigue)}
    assert targets == {"zingara"}


def test_breaking_an_alliance_defender_rolls_value_plus_one():
    state = opening(2)
    state = edit_province(state, "zingara", owner=1, marker="tower")
    state = set_emissaries(state, "zingara", 0, 1)
    state = _turn(state, 0)
    state, _ = when(state, 0, c.TakeDie(action="intrigue"))
    state, _ = when(state, 0, c.StartIntrigue(province="zingara"))
    state, _ = when(state, 0, c.CommitCard())
    state, _ = when(state, 1, c.CommitCard())
    state, _ = when(state, 0, c.Proceed(), ["BLANK", "BLANK"])
    state, _ = when(state, 0, c.Proceed())
    state, _events = when(state, 1, c.Proceed(), ["BLANK", "BLANK", "BLANK"])
    assert len(state.phase.defender.dice) == 3
    state, _ = when(state, 1, c.Proceed())
    assert province(state, "zingara").emissaries[0] == 0, "a failed break costs the emissary"


def test_collect_gold_from_an_enemy_province():
    state = opening(2)
    state = edit_province(state, "ophir", owner=1, marker="fort")
    state = set_emissaries(state, "ophir", 0, 1)
    state = _turn(state, 0)
    gold = state.seats[0].gold
    for artifacts, extra in (((), 0), (("cobra_crown",), 1)):
        given = edit_seat(state, 0, artifacts=artifacts)
        given, _ = when(given, 0, c.TakeDie(action="intrigue"))
        given, _ = when(given, 0, c.CollectGold(province="ophir"))
        assert given.seats[0].gold == gold + 2 + extra and province(given, "ophir").emissaries[0] == 0


def test_sorcery_rerolls_all_dice_once_before_the_defender_rolls():
    state = _siege(1)
    state = edit_seat(state, 0, sorcery=2)
    state, _ = when(state, 0, c.Proceed(), ["BLANK"] * 3)
    state, _events = when(state, 0, c.Sorcery(), ["HIT"] * 3)
    assert state.phase.attacker.dice == ("HIT",) * 3 and state.seats[0].sorcery == 1
    assert c.Sorcery() not in GAME.legal(state, 0)


def test_battle_defender_may_withdraw_and_the_attacker_campaigns():
    state = opening(2)
    state = set_units(state, "ophir", 1, 3)
    state = edit_province(state, "koth", owner=1, marker="tower")
    state = _turn(state, 0)
    state, _ = when(state, 0, c.TakeDie(action="military"))
    state, _ = when(state, 0, c.MoveArmy(frm="aquilonia", to="ophir", units=3))
    state, _ = when(state, 0, c.Attack(province="ophir"))
    state, _ = when(state, 0, c.CommitCard())
    state, _ = when(state, 1, c.CommitCard())
    state, _ = when(state, 0, c.Proceed(), ["HIT", "HIT", "BLANK"])
    state, _ = when(state, 0, c.Proceed())
    state, _ = when(state, 1, c.Proceed(), ["BLANK", "BLANK", "BLANK"])
    state, _ = when(state, 1, c.Proceed())
    assert GAME.actors(state) == frozenset({1})
    assert c.Withdraw(to="koth") in GAME.legal(state, 1)
    state, _ = when(state, 1, c.Withdraw(to="koth"))
    ophir = province(state, "ophir")
    assert ophir.units[1] == 0 and province(state, "koth").units[1] == 2
    assert ophir.campaign_owner == 0 and state.seats[0].crom == 1
    assert isinstance(state.phase, AfterContest)


def test_army_move_rejections_name_the_reason():
    state = _turn(opening(2), 0)
    state, _ = when(state, 0, c.TakeDie(action="military"))
    for command, code in [
        (c.MoveArmy(frm="aquilonia", to="koth", units=1), "not_adjacent"),
        (c.MoveArmy(frm="aquilonia", to="ophir", units=9), "not_enough_units"),
        (c.MoveArmy(frm="aquilonia", to="atlantis", units=1), "unknown_province"),
    ]:
        with pytest.raises(RuleViolation) as err:
            GAME.decide(state, 0, command, None)
        assert err.value.code == code


def _crowded_ophir(**options):
    # given Turan's and Stygia's armies both in neutral Ophir, Stygia campaigning there
    state = opening(3, **options)
    state = set_units(state, "ophir", 1, 2)
    state = set_units(state, "ophir", 2, 2)
    state = edit_province(state, "ophir", campaign_owner=2, campaign_pos=1)
    state = _turn(state, 0)
    state, _ = when(state, 0, c.TakeDie(action="military"))
    state, _ = when(state, 0, c.MoveArmy(frm="aquilonia", to="ophir", units=4))
    return state


def test_attacker_names_the_defender_among_several_armies():
    state = _crowded_ophir()
    # when Aquilonia attacks, it chooses whom to fight
    attacks = [x for x in GAME.legal(state, 0) if isinstance(x, c.Attack)]
    assert attacks == [c.Attack(province="ophir", defender=1), c.Attack(province="ophir", defender=2)]
    state, _ = when(state, 0, c.Attack(province="ophir", defender=1))
    # then the named army defends, on the first space (it runs no campaign there)
    assert (state.phase.kind, state.phase.defender.seat) == ("battle", 1)
    assert state.phase.terrain == PACK.province("ophir").track[0]
    state, _ = when(state, 0, c.CommitCard())
    state, _ = when(state, 1, c.CommitCard())
    state, _ = when(state, 0, c.Proceed(), ["HIT"] * 4)
    state, _ = when(state, 0, c.Proceed())
    state, _ = when(state, 1, c.Proceed(), ["BLANK"] * 2)
    state, _ = when(state, 1, c.Proceed())
    if isinstance(state.phase, Retreat):
        state, _ = when(state, 1, c.Proceed())
    # and a forced march goes on against the same army, with no new choice
    assert [x for x in GAME.legal(state, 0) if isinstance(x, c.ForcedMarch)] == [c.ForcedMarch()]
    state, _ = when(state, 0, c.ForcedMarch())
    assert state.phase.defender.seat == 1


def test_campaign_owner_defends_under_the_other_option():
    state = _crowded_ophir(battle_defender="campaign_owner")
    attacks = [x for x in GAME.legal(state, 0) if isinstance(x, c.Attack)]
    assert attacks == [c.Attack(province="ophir")]
    state, _ = when(state, 0, c.Attack(province="ophir"))
    assert state.phase.defender.seat == 2
    assert state.phase.terrain == PACK.province("ophir").track[1]


@pytest.mark.parametrize("most", [1, 2])
def test_up_to_n_strategy_cards_are_committed_sealed_and_revealed_together(most):
    # given a siege on plains, the attacker holding three plains cards, N cards allowed
    state = opening(2, strategy_cards_per_contest=most)
    state = edit_province(state, "nemedia", owner=1, marker="fort")
    state = set_units(state, "aquilonia", 0, 3)
    state = edit_seat(state, 0, strategy_hand=("bribed_guards", "desert_raid", "desert_raid"), sorcery=0)
    state = _turn(state, 0)
    state, _ = when(state, 0, c.TakeDie(action="military"))
    state, _ = when(state, 0, c.MoveArmy(frm="aquilonia", to="nemedia", units=3))
    state, _ = when(state, 0, c.Attack(province="nemedia"))
    choices = GAME.legal(state, 0)
    pairs = [c.CommitCard(cards=("bribed_guards", "desert_raid")), c.CommitCard(cards=("desert_raid",) * 2)]
    assert max(len(x.cards) for x in choices) == most
    assert all(p in choices for p in pairs) == (most == 2)
    if most == 1:
        return
    # when the attacker commits two cards
    state, events = when(state, 0, pairs[0])
    # then others learn only how many, and both are revealed together, then discarded
    declared = of_type(events, ev.ContestCardDeclared)[0]
    committed = of_type(events, ev.ContestCardCommitted)[0]
    assert declared.count == 2 and GAME.visibility(declared) == PUBLIC
    assert GAME.visibility(committed) == seat_only(0)
    assert GAME.view(state, 1).me.sealed_cards == () and GAME.view(state, 0).me.sealed_cards == pairs[0].cards
    state, events = when(state, 1, c.CommitCard())
    assert of_type(events, ev.ContestCardsRevealed)[0].cards == (pairs[0].cards, ())
    assert state.seats[0].strategy_hand == ("desert_raid",)
    assert state.phase.attacker.cards == pairs[0].cards
    # and both cards' faces count for that roll: an axe and a shield
    state, _ = when(state, 0, c.Proceed(), ["AXE", "SHIELD", "BLANK"])
    assert successes(state.phase.attacker, True, False) == 2
