"""Maritime and domestic trade (docs/rules/catan.md §6)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from shared.games.catan import board
from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.cards import BRICK, CLOTH, COIN, GRAIN, ORE, PAPER, WOOL
from shared.games.catan.decide import decide
from shared.games.catan.legal import actors, legal
from shared.games.catan.rules.trade import rate
from shared.kernel.rejection import RuleViolation
from shared.kernel.rng import Rng
from tests.games.catan.helpers import cards, corner, fresh, gain, given, of, rejected, town, when

GENERIC_SPOT = board.PATH_ENDS[board.HARBOR_PATHS[0]][0]
CK_GENERIC_SPOT = board.PATH_ENDS[board.HARBOR_PATHS[4]][0]
GRAIN_SPOT = board.PATH_ENDS[board.HARBOR_PATHS[1]][0]


def test_four_to_one_then_harbors():
    state = given(fresh(ck=False), gain(0, ore=4))
    assert rate(state, 0, ORE) == 4
    assert cmd.TradeBank(give=ORE, get=BRICK) in legal(state, 0)
    state, _events = when(state, 0, cmd.TradeBank(give=ORE, get=BRICK))
    assert state.players[0].hand == cards(brick=1)
    generic = given(fresh(ck=False), town(0, GENERIC_SPOT))
    assert rate(generic, 0, ORE) == 3


def test_special_harbor_is_two_to_one_for_its_resource_only():
    state = given(fresh(ck=False), town(0, GRAIN_SPOT))
    assert rate(state, 0, GRAIN) == 2 and rate(state, 0, ORE) == 4


def test_bank_must_hold_the_requested_card():
    state = given(fresh(ck=False), gain(0, ore=4))
    state = replace(state, bank=(0, *state.bank[1:]))
    assert rejected(state, 0, cmd.TradeBank(give=ORE, get=BRICK)) == "illegal_move"


def test_ck_rates_for_commodities():
    state = given(fresh(), gain(0, paper=4))
    assert rate(state, 0, PAPER) == 4
    assert rate(given(state, town(0, CK_GENERIC_SPOT)), 0, PAPER) == 3
    state = given(state, *(ev.ImprovementBought(seat=0, track=0, level=n) for n in (1, 2, 3)))
    assert rate(state, 0, PAPER) == 2 and rate(state, 0, COIN) == 2 and rate(state, 0, ORE) == 4


def test_special_harbor_never_applies_to_commodities():
    state = given(fresh(), town(0, board.PATH_ENDS[board.HARBOR_PATHS[0]][0]))  # C&K beginner: brick 2:1
    assert rate(state, 0, BRICK) == 2 and rate(state, 0, CLOTH) == 4


def test_merchant_and_merchant_fleet_rates():
    state = given(fresh(), town(0, corner(0, 0)), ev.MerchantMoved(seat=0, hex=0))
    kind = board.TERRAIN_RESOURCE[state.terrain[0]]
    assert rate(state, 0, kind) == 2
    state, _ = when(given(state), 0, cmd.EndTurn())
    assert rate(state, 0, kind) == 2  # the merchant is permanent; a fleet is not
    fleet = given(fresh(), ev.EffectsSet(effects=replace(fresh().effects, fleet=(WOOL,))))
    assert rate(fleet, 0, WOOL) == 2


def test_domestic_offer_answers_and_confirmation():
    state = given(fresh(ck=False), gain(0, brick=2), gain(1, ore=1), gain(2, ore=1))
    offer = cmd.OfferTrade(give=cards(brick=2), get=cards(ore=1))
    state, _ = when(state, 0, offer)
    assert actors(state) == frozenset({1, 2, 3})
    assert cmd.Choose(choice=1) not in legal(state, 3)  # seat 3 has no ore
    state, _ = when(state, 1, cmd.Choose(choice=1))
    state, _ = when(state, 2, cmd.Choose(choice=1))
    state, events = when(state, 3, cmd.Choose(choice=0))
    assert of(events, ev.TaskClosed)[0].answers[0].choice == 1
    # Deals are numbered in seat order: 0 is seat 1's acceptance, 1 is seat 2's.
    assert state.task.kind == "trade_confirm" and legal(state, 0) == [
        cmd.Choose(choice=c) for c in (-1, 0, 1)
    ]
    state, events = when(state, 0, cmd.Choose(choice=1))
    assert state.players[0].hand == cards(ore=1) and state.players[2].hand == cards(brick=2)


def test_no_gifts_no_like_for_like_and_only_the_active_seat_trades():
    state = given(fresh(ck=False), gain(0, brick=2), gain(1, ore=1))
    assert rejected(state, 0, cmd.OfferTrade(give=cards(brick=1), get=cards())) == "invalid_trade"
    assert rejected(state, 0, cmd.OfferTrade(give=cards(brick=1), get=cards(brick=1))) == "invalid_trade"
    assert rejected(state, 0, cmd.OfferTrade(give=cards(ore=1), get=cards(brick=1))) == "invalid_trade"
    assert rejected(state, 1, cmd.OfferTrade(give=cards(ore=1), get=cards(brick=1))) == "not_your_turn"


def test_commodities_trade_between_players_in_ck():
    state = given(fresh(), gain(0, coin=1), gain(1, grain=1))
    state, _ = when(state, 0, cmd.OfferTrade(give=cards(coin=1), get=cards(grain=1), to=1))
    assert actors(state) == frozenset({1})
    state, _ = when(state, 1, cmd.Choose(choice=1))
    state, _ = when(state, 0, cmd.Choose(choice=0))
    assert state.players[1].hand == cards(coin=1)


def test_a_counter_offer_can_be_confirmed_instead():
    state = given(fresh(ck=False), gain(0, brick=2, wool=1), gain(1, grain=1))
    state, _ = when(state, 0, cmd.OfferTrade(give=cards(brick=1), get=cards(ore=1), to=1))
    counter = cmd.CounterTrade(give=cards(grain=1), get=cards(brick=1))
    assert counter in legal(state, 1)
    bigger = cmd.CounterTrade(give=cards(grain=1), get=cards(brick=1, wool=1))
    assert bigger not in legal(state, 1)  # outside the listed family, yet a valid counter
    state, events = when(state, 1, bigger)
    assert of(events, ev.TaskClosed)[0].answers[0].counter == cards(brick=1, wool=1)
    state, _ = when(state, 0, cmd.Choose(choice=0))
    assert state.players[0].hand == cards(brick=1, grain=1) and state.players[1].hand == cards(
        brick=1, wool=1
    )


def test_a_counter_the_active_seat_cannot_pay_can_only_be_declined():
    state = given(fresh(ck=False), gain(0, brick=1), gain(1, grain=1))
    state, _ = when(state, 0, cmd.OfferTrade(give=cards(brick=1), get=cards(ore=1), to=1))
    state, _ = when(state, 1, cmd.CounterTrade(give=cards(grain=1), get=cards(wool=1)))
    # Still put to the active seat: dropping it would tell every seat that its hand holds no wool.
    assert state.task is not None and state.task.kind == "trade_confirm"
    assert legal(state, 0) == [cmd.Choose(choice=-1)]
    assert rejected(state, 0, cmd.Choose(choice=0)) == "illegal_move"


def test_any_number_of_domestic_trades_in_a_turn():
    """Domestic trade: "On your turn you may trade with the other players, any number of
    trades, any number of cards." No limit applies unless a table adopts the house rule."""
    state = given(fresh(ck=False), gain(0, brick=6), gain(1, ore=6))
    for n in range(1, 7):
        state, _ = when(state, 0, cmd.OfferTrade(give=cards(brick=1), get=cards(ore=1), to=1))
        state, _ = when(state, 1, cmd.Choose(choice=1))
        state, _ = when(state, 0, cmd.Choose(choice=0))
        assert state.players[0].hand == cards(brick=6 - n, ore=n)
    assert state.effects.trade_offers == 0  # nothing is even counted without the cap


def test_a_cap_on_offers_is_a_house_rule_and_its_rejection_says_so():
    """The cap on trade offers is a tournament's house rule (``trade_offers_per_turn``,
    off by default), not a rule of the game; an offer beyond it is rejected with a code
    and a message that say so. The count starts again with the next turn."""
    state = given(fresh(ck=False, trade_offers_per_turn=2), gain(0, brick=6), gain(1, ore=6))
    offer = cmd.OfferTrade(give=cards(brick=1), get=cards(ore=1), to=1)
    for _ in range(2):
        state, _ = when(state, 0, offer)
        state, _ = when(state, 1, cmd.Choose(choice=0))
    assert not [c for c in legal(state, 0) if isinstance(c, cmd.OfferTrade)]
    with pytest.raises(RuleViolation) as info:
        decide(state, 0, offer, Rng(bytes(32), 1))
    assert info.value.code == "house_rule_offer_cap" and "house rule" in info.value.message
    state, _ = when(state, 0, cmd.EndTurn())
    state = given(state, ev.PhaseSet(phase="main", active=0, turn=state.turn + 3))
    assert [c for c in legal(state, 0) if isinstance(c, cmd.OfferTrade)]
    state, _ = when(state, 0, offer)
    assert state.task.kind == "trade"
