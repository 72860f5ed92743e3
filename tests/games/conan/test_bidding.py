"""Bidding for Conan (docs/rules/conan.md §9.4): sealed bids, token rules, tie-breaks, bonus swap."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from shared.games.conan import GAME
from shared.games.conan import commands as c
from shared.games.conan import events as ev
from shared.games.conan.state import Bidding, Turn
from shared.kernel.rejection import RuleViolation
from shared.kernel.rng import Rng
from tests.games.conan.helpers import edit_seat, of_type, opening, when
from tests.games.contract_checks import encoded


def _two_player_bid():
    state = opening(2)
    for seat in (0, 1):
        state = edit_seat(state, seat, strategy_hand=("shield_wall",), bonus=False, artifacts=())
    return replace(state, phases=(Bidding(bidders=(0, 1)),))


def test_all_bidders_awaited_and_bids_stay_sealed():
    state = opening(4)
    assert GAME.actors(state) == frozenset(range(4))
    bid = GAME.legal(state, 0)[0]
    state, events = when(state, 0, bid)
    assert GAME.actors(state) == frozenset({1, 2, 3})
    sealed = of_type(events, ev.BidSealed)
    assert [GAME.visibility(e) for e in sealed] == [GAME.visibility(sealed[0])]
    assert GAME.view(state, None).seats[0].bid_placed
    assert GAME.view(state, 1).me.sealed_bid is None
    assert GAME.view(state, 0).me.sealed_bid is not None
    with pytest.raises(RuleViolation) as err:
        GAME.decide(state, 0, bid, None)
    assert err.value.code == "not_your_turn"


def test_sealed_bid_value_is_invisible_to_others():
    state = opening(4)
    a, _ = when(state, 0, c.PlaceBid(token=6, card=state.seats[0].strategy_hand[0]))
    b, _ = when(state, 0, c.PlaceBid(token=0, card=state.seats[0].strategy_hand[-1]))
    for audience in (None, 1, 2, 3):
        assert encoded(GAME.view(a, audience)) == encoded(GAME.view(b, audience))


def test_highest_bid_wins_and_token_rules():
    state = _two_player_bid()
    state, _ = when(state, 0, c.PlaceBid(token=6, card="shield_wall"))
    state, events = when(state, 1, c.PlaceBid(token=3, card="shield_wall"))
    assert of_type(events, ev.BidsRevealed)[0].bids[0].value == 7
    assert state.conan_player == 0
    assert 6 not in state.seats[0].bid_available and state.seats[0].bid_spent == (6,)
    assert 3 in state.seats[1].bid_available, "the 3 token is never set aside"
    assert state.seats[0].strategy_hand == () and state.seats[1].strategy_hand == ()


def test_zero_token_returns_every_set_aside_token():
    state = _two_player_bid()
    state = edit_seat(state, 0, bid_available=(0, 3, 5), bid_spent=(4, 6))
    state, _ = when(state, 0, c.PlaceBid(token=0, card="shield_wall"))
    state, _ = when(state, 1, c.PlaceBid(token=3, card="shield_wall"))
    assert state.seats[0].bid_available == (0, 3, 4, 5, 6) and state.seats[0].bid_spent == ()


def test_tie_goes_to_fewer_adventure_tokens_then_closest_kingdom():
    state = _two_player_bid()
    state = edit_seat(state, 0, tokens=(1, 2))
    state = edit_seat(state, 1, tokens=(3,))
    state, _ = when(state, 0, c.PlaceBid(token=4, card="shield_wall"))
    state, _ = when(state, 1, c.PlaceBid(token=4, card="shield_wall"))
    assert state.conan_player == 1, "fewer tokens wins the tie"
    state2 = _two_player_bid()
    state2 = replace(state2, conan_at="zamora")  # next to Turan, three steps from Aquilonia
    state2, _ = when(state2, 0, c.PlaceBid(token=4, card="shield_wall"))
    state2, _ = when(state2, 1, c.PlaceBid(token=4, card="shield_wall"))
    assert state2.conan_player == 1, "the kingdom closest to Conan wins the tie"


def test_bonus_card_swaps_the_revealed_card():
    state = _two_player_bid()
    state = edit_seat(state, 1, bonus=True, strategy_hand=("open_charge", "silver_tongue"))
    state, _ = when(state, 0, c.PlaceBid(token=4, card="shield_wall"))  # 4 + 1
    state, _ = when(state, 1, c.PlaceBid(token=4, card="open_charge"))  # 4 + 0
    assert state.phase.step == "swap" and GAME.actors(state) == frozenset({1})
    state, _ = when(state, 1, c.SwapBidCard(card="silver_tongue"))  # 4 + 3
    assert state.conan_player == 1
    assert state.seats[1].strategy_hand == (), "both cards are discarded"


def test_empty_hand_bids_with_card_value_zero():
    state = _two_player_bid()
    state = edit_seat(state, 0, strategy_hand=())
    assert GAME.legal(state, 0)[0] == c.PlaceBid(token=0, card=None)
    state, events = when(state, 0, c.PlaceBid(token=5, card=None))
    state, events = when(state, 1, c.PlaceBid(token=3, card="shield_wall"))
    assert of_type(events, ev.BidsRevealed)[0].bids[0].value == 5


def test_rejections_carry_stable_codes():
    state = _two_player_bid()
    state = edit_seat(state, 0, bid_available=(0, 3))
    for command, code in [
        (c.PlaceBid(token=6, card="shield_wall"), "bid_token_unavailable"),
        (c.PlaceBid(token=3, card="sappers"), "card_not_in_hand"),
        (c.TakeDie(action="military"), "wrong_phase"),
    ]:
        with pytest.raises(RuleViolation) as err:
            GAME.decide(state, 0, command, None)
        assert err.value.code == code and err.value.message


@pytest.mark.parametrize(
    ("rule", "expected"), [("turn_order", 1), ("first_player", 0)], ids=["turn_order", "first_player"]
)
def test_last_bid_tie_follows_the_named_option(rule, expected):
    # given two bids tied on value, token count and distance to Conan, seat 1's turn
    state = _two_player_bid()
    state = replace(
        state,
        options=replace(state.options, bid_last_tiebreak=rule),
        conan_at="koth",  # two steps from both homes
        first_player=0,
        phases=(Turn(seat=1, step="die"), Bidding(bidders=(0, 1))),
    )
    # when both bid 4 + the same card
    state, _ = when(state, 0, c.PlaceBid(token=4, card="shield_wall"))
    state, _ = when(state, 1, c.PlaceBid(token=4, card="shield_wall"))
    # then the option decides: the current player, or the first player token holder
    assert state.conan_player == expected


def test_last_bid_tie_at_random_picks_one_of_the_tied():
    state = _two_player_bid()
    state = replace(state, options=replace(state.options, bid_last_tiebreak="random"), conan_at="koth")
    winners = set()
    for salt in range(12):
        s, _ = when(state, 0, c.PlaceBid(token=4, card="shield_wall"))
        s = GAME.fold(GAME.decide(s, 1, c.PlaceBid(token=4, card="shield_wall"), Rng(b"\x05" * 32, salt)), s)
        winners.add(s.conan_player)
    assert winners == {0, 1}
