"""Military rules as the seed words them (issue 13, points 1-9).

Each test quotes the seed (shared/seeds/001_ae2cc7f66d087cba.txt, Finnish) in
English translation, and docs/rules/conan.md gives the rule in full. Given /
when / then, with scripted dice.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from msgspec.structs import replace

from shared.games.conan import GAME, build
from shared.games.conan import commands as c
from shared.games.conan import events as ev
from shared.games.conan.loader import load_pack
from shared.games.conan.state import AfterContest, AgeChange, Bidding, Contest, GameOver, Military, Turn
from shared.kernel.rejection import RuleViolation
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

ZIGGURAT = Path(__file__).parents[3] / "shared" / "games" / "conan" / "content" / "ziggurat"


def _military(state, seat=0, conan_player=-1):
    """``seat`` takes a Military die on its turn; nobody's cards or sorcery interfere."""
    for s in range(len(state.seats)):
        state = edit_seat(state, s, sorcery=0, kingdom_hand=(), strategy_hand=(), table=(), artifacts=())
    state = replace(
        state,
        phases=(Turn(seat=seat, step="cards", conan_done=True),),
        fate_pool=("MILITARY",),
        conan_player=conan_player,
    )
    return when(state, seat, c.TakeDie(action="military"))[0]


def _roll_off(state, attacker_faces, defender_faces):
    """Play a contest through with no cards: the attacker's dice, then the defender's."""
    contest = state.phase
    assert isinstance(contest, Contest)
    a, d = contest.attacker.seat, contest.defender.seat
    state, _ = when(state, a, c.CommitCard())
    if d != -1:
        state, _ = when(state, d, c.CommitCard())
    state, _ = when(state, a, c.Proceed(), attacker_faces)
    if d == -1:
        return when(state, a, c.Proceed(), defender_faces)
    state, _ = when(state, a, c.Proceed())
    state, _ = when(state, d, c.Proceed(), defender_faces)
    return when(state, d, c.Proceed())


def _moves(state, frm=None):
    return [
        x for x in GAME.legal(state, state.phase.seat) if isinstance(x, c.MoveArmy) and frm in (None, x.frm)
    ]


def _refused(state, seat, command):
    with pytest.raises(RuleViolation) as err:
        GAME.decide(state, seat, command, None)
    return err.value.code


# -- point 1: movement is judged from where the army stands ---------------------------------


def test_moving_into_a_neutral_province_is_an_attack_that_must_be_fought_there():
    """Seed, "3) TAISTELLA" (to fight): "A player may move his armies into a neutral
    (not owned by another player) or hostile (owned by another player) province,
    whereupon the player attacks." """
    # given Aquilonia's Military action
    state = _military(opening(2))
    # when an army moves from home into neutral Ophir
    state, _ = when(state, 0, c.MoveArmy(frm="aquilonia", to="ophir", units=3))
    legal = GAME.legal(state, 0)
    # then the action must fight in Ophir: no ending it, no other target
    assert c.EndAction() not in legal and _refused(state, 0, c.EndAction()) == "must_attack"
    assert [x for x in legal if isinstance(x, c.Attack)] == [c.Attack(province="ophir")]
    # and the army that attacked cannot walk on, not even back home
    assert _moves(state, "ophir") == []
    # and a second attack move may only join it in Ophir (from another province: a split attack)
    assert c.MoveArmy(frm="aquilonia", to="ophir", units=1) in legal
    assert c.MoveArmy(frm="aquilonia", to="zingara", units=1) not in legal
    assert _refused(state, 0, c.MoveArmy(frm="aquilonia", to="zingara", units=1)) == "one_attack_per_action"
    state, _ = when(state, 0, c.Attack(province="ophir"))
    assert (state.phase.kind, state.phase.province) == ("campaign", "ophir")


def test_an_army_on_campaign_may_fall_back_but_never_walk_on_into_another_neutral_province():
    """Seed, "2) SIIRTÄÄ ARMEIJAYKSIKÖITÄ YSTÄVÄLLISIIN PROVINSSEIHIN": ordinary movement is
    "the player may move two of his friendly armies ... into his friendly provinces";
    moving into a neutral province is an attack (see above), made where the army stands."""
    # given Aquilonia campaigning alone in neutral Ophir, on a later turn
    state = set_units(opening(2), "ophir", 0, 3)
    state = edit_province(state, "ophir", campaign_owner=0, campaign_pos=1)
    state = _military(state)
    # then the army may not move on into neutral Koth or Nemedia (home -> neutral -> neutral)
    from_ophir = {(x.to, x.units) for x in _moves(state, "ophir")}
    assert {to for to, _ in from_ophir} == {"aquilonia"}, "only back into a friendly province"
    assert _refused(state, 0, c.MoveArmy(frm="ophir", to="koth", units=3)) == "army_engaged"
    # and it may go on fighting where it stands, without new units
    assert c.Attack(province="ophir") in GAME.legal(state, 0)
    # when the whole army falls back home, its campaign ends with it
    state, _ = when(state, 0, c.MoveArmy(frm="ophir", to="aquilonia", units=3))
    assert province(state, "ophir").campaign_owner == -1


@pytest.mark.parametrize("sequence", ["redeploy_then_continue", "redeploy_join_continue", "join_continue"])
def test_the_seeds_three_ways_to_combine_movement_and_an_earlier_attack(sequence):
    """Seed, "LIIKKEEN JA TAISTELUN YHDISTÄMINEN" (combining movement and fighting):
    1) move an army from a friendly province to another friendly one, then continue an
    earlier fight in a hostile/neutral province; 2) move A -> B, then from B into C "where a
    campaign is going on", then continue the campaign in C; 3) move from B straight into C
    and go on fighting in C."""
    # given Aquilonia's ally Zingara (B) and its campaign in Ophir (C) on the second space
    state = edit_province(opening(2), "zingara", owner=0, marker="tower")
    state = set_units(state, "zingara", 0, 2)
    state = set_units(state, "ophir", 0, 2)
    state = edit_province(state, "ophir", campaign_owner=0, campaign_pos=1)
    state = _military(state)
    moves = {
        "redeploy_then_continue": [c.MoveArmy(frm="aquilonia", to="zingara", units=3)],
        "redeploy_join_continue": [
            c.MoveArmy(frm="aquilonia", to="zingara", units=3),
            c.MoveArmy(frm="zingara", to="ophir", units=2),
        ],
        "join_continue": [c.MoveArmy(frm="zingara", to="ophir", units=2)],
    }[sequence]
    for move in moves:
        state, _ = when(state, 0, move)
    # then the campaign in Ophir goes on from its second space
    state, _ = when(state, 0, c.Attack(province="ophir"))
    assert (state.phase.kind, state.phase.terrain) == ("campaign", PACK.province("ophir").track[1])


def _siege_standing(defender_units=1, **options):
    # given Turan's fort in Nemedia and Aquilonia's army besieging it since an earlier turn
    state = edit_province(opening(2, **options), "nemedia", owner=1, marker="fort")
    state = set_units(state, "nemedia", 1, defender_units)
    return set_units(state, "nemedia", 0, 3)


def test_a_besieging_army_leaves_only_by_withdrawing_and_the_defender_takes_crom():
    """Seed, "PIIRITYS" (siege): "The siege ends when 1) the attacker pulls his army out,
    breaking off the siege"; "CROM! COUNT THE DEAD!": "The defender also gets this marker
    when the attacker withdraws from the province." """
    state = _military(_siege_standing())
    # then no plain move leaves Nemedia
    assert _moves(state, "nemedia") == []
    assert _refused(state, 0, c.MoveArmy(frm="nemedia", to="aquilonia", units=3)) == "army_engaged"
    # when the army withdraws, whole, as one of the action's movements
    assert c.Withdraw(to="aquilonia", frm="nemedia") in GAME.legal(state, 0)
    state, events = when(state, 0, c.Withdraw(to="aquilonia", frm="nemedia"))
    # then the defender takes Crom and the action goes on with one movement left
    assert [e.seat for e in of_type(events, ev.ResourcesChanged) if e.crom] == [1]
    assert province(state, "nemedia").units[0] == 0 and province(state, "aquilonia").units[0] == 8
    assert isinstance(state.phase, Military) and state.phase.moves_left == 1
    assert c.EndAction() in GAME.legal(state, 0)


def test_a_besieged_defender_cannot_leave():
    """Seed, "PIIRITYS": "NOTE! The defender cannot withdraw from a siege!" """
    # given Turan's army of 2 in its besieged fort, with Turan to act
    state = _military(_siege_standing(2), seat=1)
    # then it can neither move nor withdraw out of Nemedia
    assert _moves(state, "nemedia") == []
    assert not [x for x in GAME.legal(state, 1) if isinstance(x, c.Withdraw)]
    assert _refused(state, 1, c.MoveArmy(frm="nemedia", to="corinthia", units=1)) == "army_besieged"


def _battle_standing(owner_units=2, other_units=2, pos=1):
    # given Turan campaigning in Ophir on the second space and Aquilonia's army there too,
    # their battle undecided since an earlier turn
    state = set_units(opening(2), "ophir", 1, owner_units)
    state = edit_province(state, "ophir", campaign_owner=1, campaign_pos=pos)
    return set_units(state, "ophir", 0, other_units)


def test_an_army_in_a_battle_leaves_only_by_withdrawing_and_the_other_army_takes_crom():
    """Seed, "TAISTELU" (battle): "The battle is fought normally until one side's army is
    destroyed or withdraws to a friendly province"; "After the battle the winner gets the
    CROM! COUNT THE DEAD! marker." """
    state = _military(_battle_standing())
    assert _moves(state, "ophir") == []
    state, events = when(state, 0, c.Withdraw(to="aquilonia", frm="ophir"))
    assert [e.seat for e in of_type(events, ev.ResourcesChanged) if e.crom] == [1]
    ophir = province(state, "ophir")
    assert (ophir.units[0], ophir.campaign_owner, ophir.campaign_pos) == (0, 1, 1), (
        "the winner's campaign goes on"
    )


# -- point 2: however the attacker leaves a siege, the defender takes Crom ------------------


@pytest.mark.parametrize("when_", ["after_the_roll", "on_a_later_action"])
def test_every_way_out_of_a_siege_is_a_withdrawal(when_):
    """Seed, "CROM! COUNT THE DEAD!": "The defender also gets this marker when the attacker
    withdraws from the province." """
    state = _military(_siege_standing())
    if when_ == "after_the_roll":
        state, _ = when(state, 0, c.Attack(province="nemedia"))
        state, _ = _roll_off(state, ["BLANK"] * 3, ["BLANK"] * 3)
        assert isinstance(state.phase, AfterContest)
        state, _ = when(state, 0, c.Withdraw(to="aquilonia"))
    else:
        state, _ = when(state, 0, c.Withdraw(to="aquilonia", frm="nemedia"))
    assert state.seats[1].crom == 1 and province(state, "nemedia").units[0] == 0


# -- point 3: a battle goes on turn after turn --------------------------------------------


@pytest.mark.parametrize("acting", [0, 1])
def test_either_army_in_a_battle_may_attack_again_without_new_units(acting):
    """Seed, "TAISTELU": "The battle is fought normally until one side's army is destroyed
    or withdraws to a friendly province." """
    # given the undecided battle in Ophir, on a later Military action of either side
    state = _military(_battle_standing(), seat=acting)
    # when that side attacks where it stands, bringing no one
    assert c.Attack(province="ophir") in GAME.legal(state, acting)
    state, _ = when(state, acting, c.Attack(province="ophir"))
    # then it is the same battle, on the campaign's current space
    assert (state.phase.kind, state.phase.defender.seat) == ("battle", 1 - acting)
    assert state.phase.terrain == PACK.province("ophir").track[1]


# -- point 4: a campaign owner that wins a battle keeps its place ---------------------------


@pytest.mark.parametrize("owner_attacks", [False, True])
def test_the_campaign_owner_that_wins_the_battle_keeps_its_campaign_where_it_was(owner_attacks):
    """Seed, "TAISTELU": "IF THE DEFENDER wins, he continues the campaign from the point on
    the campaign track where he was before the battle"; the battle "is fought on the terrain
    where the defending player's unit stands on the campaign track (so not necessarily the
    first/leftmost one!)"."""
    # given Turan's campaign in Ophir on the second space, and Aquilonia's one unit there
    state = _battle_standing(owner_units=3, other_units=1)
    if owner_attacks:
        # when Turan attacks in turn and wins: the attacker fights on its own space
        state = _military(state, seat=1)
        state, _ = when(state, 1, c.Attack(province="ophir"))
        assert state.phase.terrain == PACK.province("ophir").track[1]
        state, _ = _roll_off(state, ["HIT", "BLANK", "BLANK"], ["BLANK"])
    else:
        # when Aquilonia attacks and loses its only unit
        state = _military(state, seat=0)
        state, _ = when(state, 0, c.Attack(province="ophir"))
        state, _ = _roll_off(state, ["BLANK"], ["HIT", "BLANK", "BLANK"])
    # then Turan's campaign stays on its second space, and Turan counts the dead
    ophir = province(state, "ophir")
    assert (ophir.units[0], ophir.campaign_owner, ophir.campaign_pos) == (0, 1, 1)
    assert state.seats[1].crom == 1
    if owner_attacks:
        # and a forced march goes on with the campaign from that space
        state, _ = when(state, 1, c.ForcedMarch())
        assert (state.phase.kind, state.phase.terrain) == ("campaign", PACK.province("ophir").track[1])


# -- point 5: a campaign ends when its army is destroyed -----------------------------------


@pytest.mark.parametrize("destroyed_in", ["campaign_contest", "battle_it_started", "battle_it_defended"])
def test_a_campaign_ends_when_its_army_is_destroyed_whatever_destroyed_it(destroyed_in):
    """Seed, "KAMPANJA": a lost contest costs the attacker a unit; "TAISTELU": the battle goes
    on "until one side's army is destroyed". With no army left nobody holds the campaign's
    place on the track (docs/rules/conan.md §7.1)."""
    if destroyed_in == "campaign_contest":
        # given Turan campaigning alone in Ophir with one unit, attacking and losing
        state = edit_province(set_units(opening(2), "ophir", 1, 1), "ophir", campaign_owner=1, campaign_pos=1)
        state = _military(state, seat=1)
        state, _ = when(state, 1, c.Attack(province="ophir"))
        state, _ = _roll_off(state, ["BLANK"], ["BLANK", "BLANK"])
        winner = -1
    elif destroyed_in == "battle_it_started":
        # given the battle in Ophir, Turan (the campaign) attacking with its last unit and losing
        state = _military(_battle_standing(owner_units=1, other_units=3), seat=1)
        state, _ = when(state, 1, c.Attack(province="ophir"))
        state, _ = _roll_off(state, ["BLANK"], ["HIT", "BLANK", "BLANK"])
        winner = 0
    else:
        # given Aquilonia attacking Turan's last unit and winning
        state = _military(_battle_standing(owner_units=1, other_units=3), seat=0)
        state, _ = when(state, 0, c.Attack(province="ophir"))
        state, _ = _roll_off(state, ["HIT", "BLANK", "BLANK"], ["BLANK"])
        winner = 0
    # then Turan's campaign is over; a battle's winner begins its own on the first space
    ophir = province(state, "ophir")
    assert ophir.units[1] == 0
    assert (ophir.campaign_owner, ophir.campaign_pos) == (winner, 0)


# -- point 6: Crom when either army in a siege or battle is destroyed ----------------------


@pytest.mark.parametrize(("by_marker", "crom_after_army", "crom_after_marker"), [(False, 1, 1), (True, 0, 1)])
def test_destroying_the_defending_army_earns_crom_though_the_marker_still_stands(
    by_marker, crom_after_army, crom_after_marker
):
    """Seed, "CROM! COUNT THE DEAD!": "When either army is destroyed, the winning player gets
    the CROM! COUNT THE DEAD! marker." The default follows it; ``crom_when_marker_falls``
    is the reading in which the marker is the defence's last life."""
    # given Aquilonia besieging Turan's fort in Nemedia, one defending unit left
    state = _military(_siege_standing(1, crom_when_marker_falls=by_marker))
    state, _ = when(state, 0, c.Attack(province="nemedia"))
    # when the attacker wins: the defending army is destroyed, the fort still stands
    state, _ = _roll_off(state, ["HIT", "HIT", "BLANK"], ["BLANK"] * 3)
    assert province(state, "nemedia").marker == "fort"
    assert state.seats[0].crom == crom_after_army
    # when a forced march takes the fort too
    state, _ = when(state, 0, c.ForcedMarch())
    state, _ = _roll_off(state, ["HIT", "HIT"], ["BLANK"] * 3)
    # then one Crom in all, and the siege has turned into a campaign
    assert province(state, "nemedia").owner == -1 and state.seats[0].crom == crom_after_marker


def test_a_destroyed_besieging_army_gives_the_defender_crom():
    """Seed, "CROM! COUNT THE DEAD!": "When either army is destroyed, the winning player gets
    the marker." """
    state = _military(set_units(_siege_standing(2), "nemedia", 0, 1))
    state, _ = when(state, 0, c.Attack(province="nemedia"))
    state, _ = _roll_off(state, ["BLANK"], ["HIT", "BLANK", "BLANK"])
    assert province(state, "nemedia").units[0] == 0 and state.seats[1].crom == 1


# -- point 7: a card that makes Conan count as present follows Conan's rule ----------------


@pytest.mark.parametrize(
    ("case", "helped"),
    [
        ("non_conan_attacker_in_neutral", "defender"),
        ("conan_player_attacks", "attacker"),
        ("siege_against_the_conan_player", "defender"),
        ("siege_between_two_others", ""),
    ],
)
def test_a_card_that_makes_conan_present_helps_whom_conan_would(case, helped):
    """Seed, "CONAN!": "A] If the Conan player starts a campaign in a province where Conan is
    present (or has an effect through some card, note!), the player rolls one extra die ...
    B] If a non-Conan player acts in a neutral province where Conan is present, [Conan] plays
    against him! The defender rolls one extra die ..."; "If neither player is the Conan player,
    Conan in the province does not affect the rolls." """
    # given Stygia (seat 2), holding Shadow Walk, and Conan far away in Cimmeria
    state = replace(opening(3), conan_at="cimmeria")
    conan = {"conan_player_attacks": 2, "siege_against_the_conan_player": 1}.get(case, 0)
    if case.startswith("siege"):
        state = edit_province(state, "shem", owner=1, marker="tower")
    state = set_units(state, "stygia", 2, 3)
    state = _military(state, seat=2, conan_player=conan)
    state = edit_seat(state, 2, kingdom_hand=("st_shadow_walk",))
    state, _ = when(state, 2, c.MoveArmy(frm="stygia", to="shem", units=3))
    state, _ = when(state, 2, c.Attack(province="shem"))
    state, _ = when(state, 2, c.CommitCard())
    if state.phase.defender.seat != -1:
        state, _ = when(state, 1, c.CommitCard())
    # when Stygia plays the card before its roll
    state, _ = when(state, 2, c.UseCard(card="st_shadow_walk"))
    # then Conan's help goes where his own rule sends it, and nowhere else
    contest = state.phase
    assert (contest.attacker.conan, contest.defender.conan) == (helped == "attacker", helped == "defender")


# -- point 8: forced march after a lost contest; a strategy card in every bid --------------


@pytest.mark.parametrize("after_loss", [True, False])
def test_a_forced_march_follows_the_roll_won_or_lost(after_loss):
    """Seed, glossary: "forced march: after the roll the player may continue fighting by
    removing one unit of his army and rolling the dice again." ``forced_march_after_loss=False``
    is the reading that asks for a won contest."""
    # given Aquilonia's 3 units attacking neutral Ophir
    state = _military(opening(2, forced_march_after_loss=after_loss))
    state, _ = when(state, 0, c.MoveArmy(frm="aquilonia", to="ophir", units=3))
    state, _ = when(state, 0, c.Attack(province="ophir"))
    # when the contest is lost
    state, _ = _roll_off(state, ["BLANK"] * 3, ["HIT", "BLANK"])
    assert province(state, "ophir").units[0] == 2
    if not after_loss:
        assert not isinstance(state.phase, AfterContest)
        return
    # then a forced march costs one more unit and fights the same space again
    assert c.ForcedMarch() in GAME.legal(state, 0)
    state, _ = when(state, 0, c.ForcedMarch())
    assert province(state, "ophir").units[0] == 1
    assert (state.phase.kind, state.phase.terrain) == ("campaign", PACK.province("ophir").track[0])


@pytest.mark.parametrize("required", [True, False])
def test_a_bid_lays_down_a_token_and_a_strategy_card(required):
    """Seed, "HUUTOKAUPPA CONANISTA": "Each draws one new strategy card into his hand and then
    chooses one unused bidding token and one strategy card and places these face down."
    ``bid_requires_card=False`` is the reading where the card may be kept."""
    state = opening(2, bid_requires_card=required)
    state = edit_seat(edit_seat(state, 0, strategy_hand=("shield_wall",)), 1, strategy_hand=())
    state = replace(state, phases=(Bidding(bidders=(0, 1)),))
    token_only = {x.token for x in GAME.legal(state, 0) if x.card is None}
    assert bool(token_only) == (not required)
    # a bidder with no strategy card bids its token alone either way
    assert all(x.card is None for x in GAME.legal(state, 1))


# -- point 9: raiders in a battle; final points for forts and cities ------------------------


@pytest.mark.parametrize("aid", [True, False])
def test_raiders_in_a_neutral_province_aid_a_battles_defender(aid):
    """Seed, "RAIDER-TOKENIT": "They take effect when the province is neutral. Then the
    defending player counts the axes he rolls as successes. After the roll (contest) one raider
    token is removed from the province." ``raiders_aid_battle_defender=False`` is the reading
    in which raiders help only the province itself."""
    # given the battle in Ophir with two raiders there, Aquilonia attacking
    state = _battle_standing(owner_units=2, other_units=2)
    state = edit_province(state, "ophir", raiders=2)
    state = replace(state, options=replace(state.options, raiders_aid_battle_defender=aid))
    state = _military(state)
    state, _ = when(state, 0, c.Attack(province="ophir"))
    # when the attacker scores one hit and the defending army one hit and one axe
    state, events = _roll_off(state, ["HIT", "BLANK"], ["HIT", "AXE"])
    (resolved,) = of_type(events, ev.ContestResolved)
    # then the axe counts for the defender, and one raider leaves, only when raiders aid it
    assert resolved.defender_successes == (2 if aid else 1)
    assert province(state, "ophir").raiders == (1 if aid else 2)


def _final_scoring(tmp_path, per_fort, per_city, **options):
    target = tmp_path / f"scored{len(list(tmp_path.iterdir()))}"
    shutil.copytree(ZIGGURAT, target)
    header = yaml.safe_load((target / "pack.yaml").read_text())
    header.update(final_ep_per_fort=per_fort, final_ep_per_city=per_city)
    (target / "pack.yaml").write_text(yaml.safe_dump(header))
    game = build({"scored": load_pack(target)})
    state = opening(2, game=game, pack="scored", **options)
    state = edit_province(state, "ophir", owner=0, marker="fort", raiders=1)
    state = set_units(state, "ophir", 0, 1)
    state = edit_province(state, "nemedia", owner=0, marker="city")
    state = replace(state, phases=(AgeChange(final=True),), first_player=0, age=3)
    state, events = when(state, 0, c.ResolveRaids(sacrifice_in=("ophir",)), game=game)
    assert isinstance(state.phase, GameOver)
    return [e.ep for e in of_type(events, ev.ResourcesChanged) if e.reason == "final_markers" and e.seat == 0]


def test_forts_and_cities_score_what_the_content_pack_says(tmp_path):
    """Seed, "Loppupisteytys" (final scoring): "2) Every player gets points per province holding
    a city or a fort" -- no amount is named, so the bundled pack says 0 (docs/rules/conan.md
    §12) and a pack that knows the amount carries it."""
    assert (PACK.header.final_ep_per_fort, PACK.header.final_ep_per_city) == (0, 0)
    assert _final_scoring(tmp_path, 2, 3) == [5]
    assert _final_scoring(tmp_path, 2, 3, ep_per_fort=1, ep_per_city=0) == [1], "an option overrides the pack"
    assert _final_scoring(tmp_path, 0, 0) == []
