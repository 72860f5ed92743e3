"""Kingdom cards (docs/rules/conan.md §2.3): table cards, instants, events, the Heart of Tammuz."""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.conan import GAME
from shared.games.conan import commands as c
from shared.games.conan import events as ev
from shared.games.conan.state import TableCard, Turn
from tests.games.conan.helpers import edit_seat, of_type, opening, province, set_units, when


def _turn(state, seat=0, pool=("MILITARY", "COURT_CONAN")):
    return replace(
        state, phases=(Turn(seat=seat, step="cards", conan_done=True),), fate_pool=pool, conan_player=1
    )


def test_table_card_paid_at_turn_start_then_used_once_in_a_contest():
    state = _turn(opening(2))
    state = edit_seat(state, 0, kingdom_hand=("aq_black_legion",), gold=5, artifacts=())
    state, _ = when(state, 0, c.PlayTableCard(card="aq_black_legion"))
    assert state.seats[0].gold == 3 and state.seats[0].table == (TableCard(card="aq_black_legion"),)
    state, _ = when(state, 0, c.TakeDie(action="military"))
    state, _ = when(state, 0, c.MoveArmy(frm="aquilonia", to="ophir", units=3))
    state, _ = when(state, 0, c.Attack(province="ophir"))
    state, _ = when(state, 0, c.CommitCard())
    assert c.UseCard(card="aq_black_legion") in GAME.legal(state, 0)
    state, _ = when(state, 0, c.UseCard(card="aq_black_legion"))
    assert state.seats[0].table[0].exhausted
    assert c.UseCard(card="aq_black_legion") not in GAME.legal(state, 0)
    state, _ = when(state, 0, c.Proceed(), ["AXE", "BLANK", "BLANK"])
    _, events = when(state, 0, c.Proceed(), ["HIT", "BLANK"])
    assert of_type(events, ev.ContestResolved)[0].attacker_successes == 2


def test_refresh_costs_gold_and_heart_of_tammuz_discounts_to_at_least_one():
    state = _turn(opening(2))
    state = edit_seat(state, 0, table=(TableCard(card="aq_knights", exhausted=True),), gold=3, artifacts=())
    paid, _ = when(state, 0, c.RefreshTableCard(card="aq_knights"))
    assert paid.seats[0].gold == 0 and not paid.seats[0].table[0].exhausted
    heart = edit_seat(state, 0, artifacts=("heart_of_tammuz",))
    paid, _ = when(heart, 0, c.RefreshTableCard(card="aq_knights"))
    assert paid.seats[0].gold == 1
    cheap = edit_seat(heart, 0, kingdom_hand=("aq_black_legion",), table=(), gold=1)
    paid, _ = when(cheap, 0, c.PlayTableCard(card="aq_black_legion"))
    assert paid.seats[0].gold == 0, "never less than 1 gold"


def test_instant_adds_a_die_only_for_a_contest_participant():
    state = _turn(opening(2))
    state = edit_seat(state, 0, kingdom_hand=("aq_noble_commander",))
    state = set_units(state, "aquilonia", 0, 3)
    state, _ = when(state, 0, c.TakeDie(action="military"))
    state, _ = when(state, 0, c.MoveArmy(frm="aquilonia", to="ophir", units=2))
    state, _ = when(state, 0, c.Attack(province="ophir"))
    state, _ = when(state, 0, c.CommitCard())
    assert GAME.legal(state, 1) == []
    state, _ = when(state, 0, c.UseCard(card="aq_noble_commander"))
    state, events = when(state, 0, c.Proceed(), ["BLANK"] * 3)
    assert len(of_type(events, ev.ContestRolled)[0].faces) == 3
    assert "aq_noble_commander" in state.seats[0].kingdom_discard


def test_event_cards_only_through_the_court_action():
    state = _turn(opening(2))
    state = edit_seat(state, 0, kingdom_hand=("aq_tax_collectors",))
    assert c.PlayEvent(card="aq_tax_collectors") not in GAME.legal(state, 0)
    gold = state.seats[0].gold
    state, _ = when(state, 0, c.TakeDie(action="court"))
    while not any(isinstance(x, c.PlayEvent) for x in GAME.legal(state, 0)):
        state, _ = when(state, 0, c.ChooseToken(keep="keep"))
    state, _ = when(state, 0, c.PlayEvent(card="aq_tax_collectors"))
    assert state.seats[0].gold == gold + 3


def test_royal_levy_raises_units_at_home():
    state = _turn(opening(2), pool=("WILD",))
    state = edit_seat(state, 0, kingdom_hand=("aq_royal_levy",))
    before = province(state, "aquilonia").units[0]
    state, _ = when(state, 0, c.TakeDie(action="court"))
    state, _ = when(state, 0, c.PlayEvent(card="aq_royal_levy"))
    assert province(state, "aquilonia").units[0] == before + 2


def test_court_draws_strategy_and_kingdom():
    state = _turn(opening(2), pool=("WILD",))
    hand = state.seats[0]
    state, events = when(state, 0, c.TakeDie(action="court"))
    state, events = when(state, 0, c.CourtDraw(option="strategy_kingdom"))
    assert len(state.seats[0].strategy_hand) == len(hand.strategy_hand) + 1
    assert len(state.seats[0].kingdom_hand) == len(hand.kingdom_hand) + 1
    drawn = of_type(events, ev.CardsDrawn)
    assert {GAME.visibility(e).seats for e in drawn} == {frozenset({0})}


def test_strategy_deck_reshuffles_its_discards():
    state = _turn(opening(2), pool=("WILD",))
    state = replace(state, strategy_discard=state.strategy_deck[1:], strategy_deck=state.strategy_deck[:1])
    state, _ = when(state, 0, c.TakeDie(action="court"))
    state, events = when(state, 0, c.CourtDraw(option="two_strategy"))
    assert of_type(events, ev.DeckShuffled) and len(of_type(events, ev.CardsDrawn)) == 2
