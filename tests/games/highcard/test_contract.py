"""The fixture game passes the generic contract checks every game must pass."""

import msgspec

from shared.kernel.rng import Rng
from tests.fixtures.highcard import GAME, State
from tests.games import contract_checks as cc


def test_fixture_game_passes_the_contract_checks() -> None:
    playouts = cc.check_playouts(GAME, 3, 20)
    cc.check_codec_round_trip(GAME, playouts)
    cc.check_decide_is_pure_and_legal_matches(GAME, playouts)
    cc.check_visibility_total(GAME, playouts)
    cc.check_views_are_canonical(GAME, playouts)


def test_other_hands_and_the_deck_never_reach_a_view() -> None:
    state = cc.check_playouts(GAME, 3, 1)[0].state
    state = msgspec.structs.replace(state, hands=((1, 2), (3, 4), (5, 6)), deck=(7, 8, 9))

    def perturb(s: State, owner: int, rng: Rng) -> State:
        hands = list(s.hands)
        if owner >= 0:
            hands[owner] = tuple(rng.shuffled(range(10, 30)))[:2]
        return msgspec.structs.replace(s, hands=tuple(hands), deck=tuple(rng.shuffled(s.deck)))

    for owner in (None, 0, 1, 2):
        cc.check_non_interference(GAME, state, perturb, owner, seats=3)
