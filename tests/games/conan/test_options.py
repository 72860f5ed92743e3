"""Every non-default option still gives complete, invariant-keeping games."""

from __future__ import annotations

import pytest

from shared.games.conan import GAME
from shared.games.conan import commands as c
from shared.games.conan.options import Options
from shared.games.conan.state import Turn
from tests.games.conan.helpers import opening, when
from tests.games.conan.invariants import check, check_steps
from tests.games.contract_checks import check_decide_is_pure_and_legal_matches, check_playouts

VARIANTS = [
    {"bid_immediately": False},
    {"conan_move_first": False},
    {"redeploy_adjacent_only": False, "one_army_two_moves": False},
    {"majorities_by_value": False, "coronation_tie_succeeds": True},
    {"recommended_kingdoms": False},
    {"fate_faces": ["MILITARY", "INTRIGUE", "MILITARY_INTRIGUE", "COURT_CONAN", "COURT", "WILD"]},
    {"hand_limit": 3, "strategy_cards_per_contest": 0, "negative_ep": False},
    {"sideways_move_discards": False, "leaving_destination_discards": False, "raiders_in_home": False},
    {"raiders_out_of_play": True, "bid_tokens_reset_each_age": True},
    {"bid_last_tiebreak": "random", "bonus_last_tiebreak": "random", "battle_defender": "campaign_owner"},
    {"strategy_cards_per_contest": 3, "raise_at_home": False, "campaign_marker_unit_rolls": False},
    {"withdraw_anywhere": True, "raids_count_home": False, "final_last_tiebreak": "first_player"},
    {"replace_objectives": False, "ep_per_fort": 1, "ep_per_city": 2, "final_flat_income": False},
    {"bonus_card_small_games": False, "emissary_purchase_anywhere": False, "may_decline_action": False},
    {"forced_march_after_split_attack": True, "crom_when_marker_falls": True, "collect_gold_extra": 1},
    {"forced_march_after_loss": False, "bid_requires_card": False, "raiders_aid_battle_defender": False},
    {
        "intrigue_counts_emissaries": False,
        "reroll_pool_at_age_start": False,
        "conan_enters_out_of_play": False,
    },
]


def test_every_option_field_is_exercised_here():
    named = {k for v in VARIANTS for k in v} | {
        "pack",
        "empty_hand_bid_value",
        "max_dice",
        "units_lost_per_contest",
    }
    assert named == set(Options.__struct_fields__)


@pytest.mark.parametrize("overrides", VARIANTS, ids=lambda v: ",".join(v))
def test_variant_games_finish(overrides):
    for p in check_playouts(GAME, 3, games=1, invariant=check, options=overrides):
        assert GAME.is_over(p.state)
        check_steps(GAME, p)


def test_conan_move_after_table_cards_blocks_the_die_until_moved():
    state = opening(2, conan_move_first=False)
    from msgspec.structs import replace

    state = replace(state, phases=(Turn(seat=0, step="cards"),), conan_player=0, fate_pool=("MILITARY",))
    legal = GAME.legal(state, 0)
    assert c.MoveConan(to=None) in legal and c.TakeDie(action="military") not in legal
    state, _ = when(state, 0, c.MoveConan(to=None))
    while 0 in GAME.actors(state) and not isinstance(state.phase, Turn):
        state, _ = when(state, 0, GAME.legal(state, 0)[0])
    assert c.TakeDie(action="military") in GAME.legal(state, 0)


def test_bad_options_are_refused_at_creation():
    from shared.kernel.rng import Rng

    with pytest.raises(ValueError, match="fate faces"):
        GAME.create(GAME.options({"fate_faces": ["SKULL"]}), 2, Rng(b"\x00" * 32, 0))


def test_legal_and_decide_agree_under_the_non_default_choices():
    # given games with several strategy cards per contest and the campaign owner defending
    overrides = {
        "strategy_cards_per_contest": 2,
        "battle_defender": "campaign_owner",
        "withdraw_anywhere": True,
    }
    playouts = check_playouts(GAME, 4, games=1, invariant=check, options=overrides)
    # then every legal command is accepted and nothing else is
    check_decide_is_pure_and_legal_matches(GAME, playouts, samples=60)
