"""Victory and the base game's development cards (docs/rules/catan.md §13, §14)."""

from __future__ import annotations

from shared.games.catan import CATAN
from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.legal import legal
from shared.games.catan.rules.victory import points, public_points
from tests.games.catan.helpers import cards, corner, fresh, gain, given, hold, of, rejected, town, when

SPOTS = [corner(h, 0) for h in (0, 2, 7, 11, 18)] + [corner(h, 3) for h in (12, 14, 16)]


def towns(seat, n, level=2):
    return [town(seat, s, level) for s in SPOTS[:n]]


def test_reaching_the_target_on_anothers_turn_wins_only_at_the_start_of_ones_own():
    state = given(fresh(ck=False), *towns(1, 5))
    assert points(state, 1) == 10 and state.phase == "main"
    state, events = when(state, 0, cmd.EndTurn())
    assert of(events, ev.GameWon)[0].seat == 1 and CATAN.result(state).standings[0].seat == 1


def test_the_active_seat_wins_the_moment_it_reaches_the_target():
    settlements = [town(0, s) for s in SPOTS[3:6]]
    state = given(fresh(ck=False), *towns(0, 3), *settlements, gain(0, grain=2, ore=3))
    assert points(state, 0) == 9
    state, events = when(state, 0, cmd.BuildCity(spot=SPOTS[4]))
    assert of(events, ev.GameWon) and state.phase == "over" and legal(state, 0) == []
    assert rejected(state, 0, cmd.EndTurn()) == "game_over"


def test_hidden_victory_point_cards_count_for_their_owner_only():
    state = hold(given(fresh(ck=False), *towns(0, 4)), 0, "victory_point")
    assert public_points(state, 0) == 8 and points(state, 0) == 9


def test_ck_needs_thirteen_points():
    state = given(fresh(), *towns(1, 5))
    state, events = when(state, 0, cmd.EndTurn())
    assert not of(events, ev.GameWon)
    state = given(
        fresh(), *towns(1, 4), ev.MetropolisPlaced(track=0, spot=SPOTS[0]), ev.DefenderAwarded(seat=1)
    )
    state = hold(given(state, ev.MerchantMoved(seat=1, hex=0)), 1, "printer")
    state = given(state, ev.CardRevealed(seat=1, card="printer"))
    assert public_points(state, 1) == 8 + 2 + 1 + 1 + 1


def test_bought_development_card_waits_a_turn_and_only_one_is_played_per_turn():
    state = given(fresh(ck=False), gain(0, ore=1, wool=1, grain=1))
    state, events = when(state, 0, cmd.BuyDevCard())
    card = of(events, ev.CardDrawn)[0].card
    assert not [c for c in legal(state, 0) if isinstance(c, cmd.PlayDevCard)]
    state = hold(state, 0, "monopoly", "year_of_plenty")
    state, _ = when(state, 0, cmd.PlayDevCard(card="monopoly", kinds=(0,)))
    assert not [c for c in legal(state, 0) if isinstance(c, cmd.PlayDevCard)]
    assert card in state.players[0].cards


def test_knight_moves_the_robber_and_the_third_takes_largest_army():
    state = given(fresh(ck=False), ev.PhaseSet(phase="roll", active=0, turn=1))
    state = hold(state, 0, "knight", "knight", "knight")
    state = given(state, ev.CardPlayed(seat=0, card="knight"), ev.CardPlayed(seat=0, card="knight"))
    state, _ = when(state, 0, cmd.PlayDevCard(card="knight"))
    assert state.largest_army == 0 and state.task.kind == "robber"
    state, _ = when(state, 0, legal(state, 0)[0])
    assert state.phase == "roll" and cmd.RollDice() in legal(state, 0)


def test_road_building_year_of_plenty_and_monopoly():
    state = hold(given(fresh(ck=False), town(0, 3), gain(1, ore=3), gain(2, ore=1)), 0, "road_building")
    state, _ = when(state, 0, cmd.PlayDevCard(card="road_building"))
    for _ in range(2):
        state, _ = when(state, 0, legal(state, 0)[0])
    assert state.roads.count(0) == 2 and state.task is None
    state = hold(
        given(state, ev.EffectsSet(effects=state.effects.__class__())), 0, "year_of_plenty", "monopoly"
    )
    state, _ = when(state, 0, cmd.PlayDevCard(card="year_of_plenty", kinds=(0, 3)))
    assert state.players[0].hand == cards(brick=1, grain=1)
    state = given(state, ev.EffectsSet(effects=state.effects.__class__()))
    state, _ = when(state, 0, cmd.PlayDevCard(card="monopoly", kinds=(4,)))
    assert state.players[0].hand == cards(brick=1, grain=1, ore=4)


def _plenty(bank):
    from msgspec.structs import replace

    return hold(replace(fresh(ck=False), bank=bank), 0, "year_of_plenty")


def _plenty_plays(state):
    return [c.kinds for c in legal(state, 0) if isinstance(c, cmd.PlayDevCard)]


def test_year_of_plenty_offers_any_two_cards_the_bank_holds():
    state = _plenty(cards(brick=1, ore=5))
    assert _plenty_plays(state) == [(0, 4), (4, 4)]
    assert rejected(state, 0, cmd.PlayDevCard(card="year_of_plenty", kinds=(0, 0))) == "illegal_move"


def test_year_of_plenty_from_a_bank_with_one_card_takes_what_exists():
    state = _plenty(cards(wool=1))
    assert _plenty_plays(state) == [(2,)]
    state, _ = when(state, 0, cmd.PlayDevCard(card="year_of_plenty", kinds=(2,)))
    assert state.players[0].hand == cards(wool=1) and state.bank == cards()


def test_year_of_plenty_from_an_empty_bank_takes_nothing():
    state = _plenty(cards())
    assert _plenty_plays(state) == [()]
    state, events = when(state, 0, cmd.PlayDevCard(card="year_of_plenty", kinds=()))
    assert not of(events, ev.CardsGained) and "year_of_plenty" not in state.players[0].cards
