"""The fixture game passes the generic contract checks every game must pass."""

import msgspec

from tests.games import contract_checks as cc
from tests.support.highcard import GAME


def test_fixture_game_passes_the_contract_checks() -> None:
    playouts = cc.check_playouts(GAME, 3, 20)
    cc.check_codec_round_trip(GAME, playouts)
    cc.check_decide_is_pure_and_legal_matches(GAME, playouts)
    cc.check_visibility_total(GAME, playouts)
    cc.check_views_are_canonical(GAME, playouts)


def test_other_hands_and_the_deck_never_reach_a_view() -> None:
    state = cc.check_playouts(GAME, 3, 1)[0].state
    state = msgspec.structs.replace(state, hands=((1, 2), (3, 4), (5, 6)), deck=(7, 8, 9))
    for owner in (0, 1, 2):
        varied = cc.check_non_interference(GAME, state, owner)
        assert any(s.hands[owner] != state.hands[owner] for s in varied)
        assert all(sorted(s.deck + s.hands[owner]) == sorted(state.deck + state.hands[owner]) for s in varied)
    assert any(s.deck != state.deck for s in cc.check_non_interference(GAME, state, None))
