"""Ships, ship income, refilling, the end of the game and final scoring."""

from __future__ import annotations

import msgspec
import pytest

from shared.games.tigris_cards import GAME
from shared.games.tigris_cards.cards import Card, count
from shared.games.tigris_cards.commands import (
    BuildShip,
    Decline,
    PlaceLeader,
    PlayCard,
    PlayCatastrophe,
    ScoreCard,
)
from shared.games.tigris_cards.state import Act, Over, ShipOffer, VpOffer
from shared.games.tigris_common.colours import Colour, Leader
from shared.kernel.rejection import RuleViolation
from shared.kernel.rng import Rng
from tests.games.tigris_cards.tables import (
    BOW,
    BULL,
    LION,
    VASE,
    Run,
    column_text,
    leader_at,
    make_state,
    spot,
)


def _series(column: str, colour: str = "G", **options: object) -> Run:
    state = make_state(columns={6: column}, hands={LION: colour * 3}, **options)
    return Run(state).do(LION, PlayCard(colour={"G": Colour.GREEN, "R": Colour.RED}[colour], column=6))


def test_a_green_series_buys_only_the_blue_green_ship() -> None:
    run = _series("TBGGG")
    assert run.state.phase == ShipOffer(seat=LION, column=6, colour=Colour.GREEN, ships=(Card.SHIP_GREEN,))
    with pytest.raises(RuleViolation):
        run.do(LION, BuildShip(ship=Card.SHIP_BLACK))
    run.do(LION, BuildShip(ship=Card.SHIP_GREEN))
    assert column_text(run.state, 6) == "TB2" and Card.SHIP_GREEN not in run.state.table.ships
    assert count(run.state.discard, Colour.GREEN) == 4


def test_no_ship_when_its_ship_is_gone_or_the_run_is_broken() -> None:
    assert _series("TGG2GG").state.phase == Act(seat=LION)  # the ship itself breaks the run
    assert _series("TGBGG").state.phase == Act(seat=LION)


def test_the_head_joins_a_series_only_by_option() -> None:
    assert _series("TRR", "R").state.phase == Act(seat=LION)
    run = _series("TRR", "R", head_in_ship_series=True)
    assert isinstance(run.state.phase, ShipOffer)
    run.do(LION, BuildShip(ship=Card.SHIP_RED))
    assert column_text(run.state, 6) == "T3"


def test_a_longer_run_buys_a_ship_unless_the_option_says_no() -> None:
    assert isinstance(_series("TGGGG").state.phase, ShipOffer)
    assert _series("TGGGG", ship_on_longer_run=False).state.phase == Act(seat=LION)


def test_leaders_on_the_series_go_home_and_ships_are_untouchable() -> None:
    state = make_state(
        columns={6: "TKBBB"},
        leaders={(BULL, Leader.FARMER): spot(6, 3)},
        hands={LION: "B"},
        vp_before_ship=False,
    )
    run = Run(state).do(LION, PlayCard(colour=Colour.BLUE, column=6))
    assert isinstance(run.state.phase, ShipOffer)  # ship before VP with this option
    run.do(LION, BuildShip(ship=Card.SHIP_RED))
    assert leader_at(run.state, spot(6, 2)) is None and column_text(run.state, 6) == "TK3"
    assert run.state.phase == Act(seat=LION)  # Bull's farmer left with the series: no VP
    for command in (PlaceLeader(leader=Leader.KING, spot=spot(6, 2)), PlayCatastrophe(spot=spot(6, 2))):
        with pytest.raises(RuleViolation):
            run.do(LION, command)


def test_ship_income_needs_a_ship_colour_leader_and_the_king_is_no_joker() -> None:
    state = make_state(
        columns={2: "TB2", 3: "TK1"},
        gaps={2: "R"},
        leaders={
            (LION, Leader.KING): spot(2, 1),
            (LION, Leader.TRADER): spot(3, 1),
            (BULL, Leader.FARMER): spot(2, 0),
        },
        hands={LION: "RRG"},
    )
    run = Run(state).do(LION, PlayCard(colour=Colour.RED, column=0), PlayCard(colour=Colour.RED, column=0))
    # One kingdom, two ships: the trader earns green from the blue/green ship and
    # the king black from the blue/black one; the king earns nothing from the
    # blue/green ship (no joker), and nobody here earns blue.
    assert run.state.phase == VpOffer(seat=LION, colour=Colour.GREEN, reason="income", queue=(Colour.BLACK,))
    run.do(LION, ScoreCard())
    assert run.state.phase == VpOffer(seat=LION, colour=Colour.BLACK, reason="income")
    run.do(LION, Decline())
    assert run.state.active == BULL and run.state.players[LION].vp == (Card.GREEN,)


def test_everybody_refills_to_eight_after_the_turn() -> None:
    state = make_state(hands={LION: "RRRRRRRR", BULL: "BBB", BOW: "GGGGGGGG", VASE: ""})
    run = Run(state).do(LION, PlayCard(colour=Colour.RED, column=0), PlayCard(colour=Colour.RED, column=1))
    assert [sum(p.hand) for p in run.state.players] == [8, 8, 8, 8]
    assert len(run.state.deck) == 80 - 2 - 5 - 8
    assert run.state.active == BULL and run.state.actions_left == 2


def test_the_game_ends_when_the_pile_cannot_refill_everybody() -> None:
    state = make_state(hands={LION: "RR", BULL: "B" * 8}, seats=2, deck="RBGKRB")
    run = Run(state).do(LION, PlayCard(colour=Colour.RED, column=0), PlayCard(colour=Colour.RED, column=1))
    assert run.state.phase == Over(reason="cards")
    assert GAME.result(run.state) is not None and GAME.legal(run.state, BULL) == []


def test_the_game_ends_when_one_treasure_is_left() -> None:
    state = make_state(columns={c: "R" for c in range(1, 8)}, hands={LION: "RR"}, seats=2)
    run = Run(state).do(LION, PlayCard(colour=Colour.RED, column=0), PlayCard(colour=Colour.RED, column=1))
    assert run.state.phase == Over(reason="treasures")


def test_a_table_where_nobody_spends_a_card_ends_in_stalemate() -> None:
    state = make_state(hands={LION: "B" * 8, BULL: "B" * 8}, seats=2, allow_pass=True, stalemate_rounds=2)
    run = Run(state)
    for _ in range(4):
        run.do(run.state.active, *[GAME.legal(run.state, run.state.active)[-1]] * 2)
    assert run.state.phase == Over(reason="stalemate")


def test_scoring_uses_treasures_as_jokers_and_shares_exact_ties() -> None:
    piles = {LION: "RRBBGGKT", BULL: "RRBBGGKK", BOW: "RRRRBBGG"}
    state = msgspec.structs.replace(make_state(vp=piles, seats=3), phase=Over(reason="treasures"))
    result = GAME.result(state)
    assert result is not None and result.reason == "treasures"
    places = {s.seat: (s.place, s.score) for s in result.standings}
    assert places == {LION: (1, 2), BULL: (1, 2), BOW: (3, 0)}


@pytest.mark.parametrize("on", [False, True])
def test_a_series_closed_up_by_a_catastrophe_buys_a_ship_only_by_option(on: bool) -> None:
    state = make_state(columns={5: "TGGRGG"}, ship_after_slide=on)
    run = Run(state).do(LION, PlayCatastrophe(spot=spot(5, 3)))
    if not on:
        assert run.state.phase == Act(seat=LION)
        return
    assert run.state.phase == ShipOffer(
        seat=LION, column=5, colour=Colour.GREEN, ships=(Card.SHIP_GREEN,), slid=True
    )
    run.do(LION, BuildShip(ship=Card.SHIP_GREEN))
    assert column_text(run.state, 5) == "T2" and run.state.phase == Act(seat=LION)
    # Removing the bottom card slides nothing, so it builds nothing.
    bottom = Run(make_state(columns={5: "TGGGGR"}, ship_after_slide=True))
    assert bottom.do(LION, PlayCatastrophe(spot=spot(5, 5))).state.phase == Act(seat=LION)


def test_the_start_player_is_drawn_unless_fixed() -> None:
    firsts = {GAME.fold(GAME.create(GAME.options(), 4, Rng(bytes([i]) * 32, 0))).active for i in range(12)}
    assert len(firsts) > 1
    fixed = GAME.fold(GAME.create(GAME.options({"first_seat": 2}), 3, Rng(b"\x01" * 32, 0)))
    assert fixed.active == 2 and fixed.phase == Act(seat=2)
