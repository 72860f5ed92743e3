"""Per-concept rules: cards, kingdoms, leaders, playing cards and VP,
connecting, the treasure exchange, catastrophes and passing."""

from __future__ import annotations

import pytest

from shared.games.tigris_cards.cards import (
    PLAIN_COUNTS,
    SHIP_COLOURS,
    TOTAL_CARDS,
    Card,
    count,
    ships_for_series,
)
from shared.games.tigris_cards.commands import (
    Decline,
    Pass,
    PlaceLeader,
    PlayCard,
    PlayCatastrophe,
    PlayConnector,
    ScoreCard,
    TakeTreasure,
    WithdrawLeader,
)
from shared.games.tigris_cards.rules.kingdoms import kingdom
from shared.games.tigris_cards.state import Act, TreasureOffer, VpOffer
from shared.games.tigris_common.colours import Colour, Leader
from shared.kernel.rejection import RuleViolation
from tests.games.tigris_cards.tables import (
    BOW,
    BULL,
    LION,
    Run,
    column_text,
    gap,
    leader_at,
    make_state,
    spot,
)


def _rejects(code: str, run: Run, seat: int, command: object) -> None:
    with pytest.raises(RuleViolation) as caught:
        run.do(seat, command)
    assert caught.value.code == code


def test_the_deck_has_193_cards_in_the_printed_colours() -> None:
    assert TOTAL_CARDS == 193
    assert PLAIN_COUNTS == {Colour.RED: 65, Colour.BLUE: 40, Colour.GREEN: 40, Colour.BLACK: 40}
    assert {c[1] for c in SHIP_COLOURS.values()} == {Colour.BLACK, Colour.GREEN, Colour.RED}
    assert all(c[0] is Colour.BLUE for c in SHIP_COLOURS.values())
    every = tuple(SHIP_COLOURS)
    assert ships_for_series(Colour.BLUE, every) == every
    assert ships_for_series(Colour.GREEN, every) == (Card.SHIP_GREEN,)
    assert ships_for_series(Colour.GREEN, (Card.SHIP_BLACK,)) == ()


def test_kingdoms_are_columns_joined_by_connectors() -> None:
    state = make_state(gaps={1: "R", 2: "B", 5: "G"})
    assert [kingdom(state.table, c) for c in range(8)] == [
        (0, 0), (1, 3), (1, 3), (1, 3), (4, 4), (5, 6), (5, 6), (7, 7)
    ]  # fmt: skip


def test_leaders_stand_on_any_card_but_ships_and_occupied_ones() -> None:
    state = make_state(columns={0: "TB1G"}, leaders={(BULL, Leader.KING): spot(0, 1)}, gaps={0: "R"})
    run = Run(state)
    _rejects("spot_unavailable", run, LION, PlaceLeader(leader=Leader.KING, spot=spot(0, 2)))
    _rejects("spot_unavailable", run, LION, PlaceLeader(leader=Leader.KING, spot=spot(0, 1)))
    _rejects("spot_unavailable", run, LION, PlaceLeader(leader=Leader.KING, spot=spot(5, 1)))
    run.do(LION, PlaceLeader(leader=Leader.PRIEST, spot=gap(0)))  # a connector holds leaders too
    run.do(LION, PlaceLeader(leader=Leader.PRIEST, spot=spot(3, 0)))  # moved onto a head
    assert leader_at(run.state, gap(0)) is None and leader_at(run.state, spot(3, 0)).seat == LION  # type: ignore[union-attr]
    no_connectors = Run(make_state(gaps={0: "R"}, leaders_on_connectors=False))
    _rejects("spot_unavailable", no_connectors, LION, PlaceLeader(leader=Leader.KING, spot=gap(0)))


def test_withdrawal_only_by_option() -> None:
    leaders = {(LION, Leader.KING): spot(0, 0)}
    withdraw = WithdrawLeader(leader=Leader.KING)
    _rejects("withdrawal_not_allowed", Run(make_state(leaders=leaders)), LION, withdraw)
    run = Run(make_state(leaders=leaders, allow_withdrawal=True)).do(LION, WithdrawLeader(leader=Leader.KING))
    assert leader_at(run.state, spot(0, 0)) is None


def test_a_column_takes_eight_cards_below_its_head() -> None:
    full = make_state(columns={2: "T" + "B" * 8}, hands={LION: "B"})
    _rejects("column_full", Run(full), LION, PlayCard(colour=Colour.BLUE, column=2))
    seven = make_state(columns={2: "T" + "RBRBRBR"}, hands={LION: "B"}, column_capacity=7)
    _rejects("column_full", Run(seven), LION, PlayCard(colour=Colour.BLUE, column=2))
    _rejects("card_not_in_hand", Run(seven), LION, PlayCard(colour=Colour.GREEN, column=3))


def test_the_vp_goes_to_the_leaders_owner_who_may_decline() -> None:
    state = make_state(
        leaders={(BULL, Leader.PRIEST): spot(4, 0), (LION, Leader.KING): spot(4, 1)},
        columns={4: "TK"},
        hands={LION: "RR", BULL: "R"},
    )
    run = Run(state).do(LION, PlayCard(colour=Colour.RED, column=4))
    assert run.state.phase == VpOffer(seat=BULL, colour=Colour.RED, reason="card", column=4)
    run.do(BULL, Decline())
    assert run.state.players[BULL].vp == () and run.state.phase == Act(seat=LION)


def test_no_leader_and_no_king_means_no_vp() -> None:
    run = Run(make_state(leaders={(LION, Leader.TRADER): spot(1, 0)}, hands={LION: "RR"}))
    run.do(LION, PlayCard(colour=Colour.RED, column=1))
    assert run.state.phase == Act(seat=LION)


def test_an_offer_is_made_even_without_a_matching_card() -> None:
    # Waiting on Bull must not tell the table whether he holds red.
    state = make_state(leaders={(BULL, Leader.PRIEST): spot(4, 0)}, hands={LION: "R"})
    run = Run(state).do(LION, PlayCard(colour=Colour.RED, column=4))
    assert run.state.phase == VpOffer(seat=BULL, colour=Colour.RED, reason="card", column=4)
    _rejects("card_not_in_hand", run, BULL, ScoreCard())
    run.do(BULL, Decline())


def test_connecting_needs_three_cards_under_both_columns() -> None:
    state = make_state(columns={0: "TRRR", 1: "TRR"}, hands={LION: "GG"})
    _rejects("cannot_connect", Run(state), LION, PlayConnector(colour=Colour.GREEN, gap=0))
    joined = make_state(columns={0: "TRRR", 1: "TRRR", 2: "TBBB"}, gaps={0: "K"}, hands={LION: "G"})
    _rejects("cannot_connect", Run(joined), LION, PlayConnector(colour=Colour.GREEN, gap=0))
    with_ship = make_state(columns={0: "TRRR", 1: "TRR1"}, hands={LION: "G"})
    Run(with_ship).do(LION, PlayConnector(colour=Colour.GREEN, gap=0))
    ships_off = make_state(columns={0: "TRRR", 1: "TRR1"}, hands={LION: "G"}, ship_counts_for_threshold=False)
    _rejects("cannot_connect", Run(ships_off), LION, PlayConnector(colour=Colour.GREEN, gap=0))


def test_the_finnish_threshold_counts_whole_kingdoms() -> None:
    state = make_state(
        columns={0: "TR", 1: "TRR", 2: "TRRR"}, gaps={0: "B"}, hands={LION: "G"}, connect_rule="kingdoms"
    )
    Run(state).do(LION, PlayConnector(colour=Colour.GREEN, gap=1))  # 1 + 2 + connector = 4 on the left


def _exchange_table(**options: object) -> Run:
    state = make_state(
        columns={1: "TRRB", 2: "TKKG"},
        leaders={(BULL, Leader.TRADER): spot(2, 0), (LION, Leader.KING): spot(1, 1)},
        hands={LION: "K", BULL: "RR"},
        **options,
    )
    return Run(state).do(LION, PlayConnector(colour=Colour.BLACK, gap=1))


def test_the_trader_of_another_player_may_exchange_and_its_leader_stays() -> None:
    run = _exchange_table()
    assert run.state.phase == TreasureOffer(seat=BULL, columns=(1, 2))
    run.do(BULL, TakeTreasure(column=2))
    assert run.state.table.columns[2][0].card is Card.RED
    assert leader_at(run.state, spot(2, 0)).seat == BULL  # type: ignore[union-attr]
    assert run.state.players[BULL].vp == (Card.TREASURE,)


def test_exchange_options() -> None:
    run = _exchange_table(exchange_keeps_leader=False).do(BULL, TakeTreasure(column=2))
    assert leader_at(run.state, spot(2, 0)) is None
    assert _exchange_table(inactive_trader_exchanges=False).state.phase == Act(seat=LION)


def test_the_king_cannot_exchange_and_replacements_are_no_treasures() -> None:
    king_only = make_state(
        columns={1: "TRRB", 2: "TKKG"}, leaders={(LION, Leader.KING): spot(1, 1)}, hands={LION: "KR"}
    )
    assert Run(king_only).do(LION, PlayConnector(colour=Colour.BLACK, gap=1)).state.phase == Act(seat=LION)
    replaced = make_state(
        columns={1: "RRRB", 2: "TKKG"}, leaders={(LION, Leader.TRADER): spot(1, 1)}, hands={LION: "KR"}
    )
    assert Run(replaced).do(LION, PlayConnector(colour=Colour.BLACK, gap=1)).state.phase == Act(seat=LION)


def test_no_exchange_when_a_trader_walks_into_a_rich_kingdom() -> None:
    state = make_state(columns={1: "TRRB", 2: "TKKG"}, gaps={1: "K"}, hands={LION: "RR"})
    run = Run(state).do(LION, PlaceLeader(leader=Leader.TRADER, spot=spot(1, 1)))
    assert run.state.phase == Act(seat=LION)


def test_catastrophe_rules() -> None:
    state = make_state(
        columns={3: "TRGB1K"}, leaders={(BOW, Leader.KING): spot(3, 2), (BULL, Leader.PRIEST): spot(3, 3)}
    )
    run = Run(state)
    for protected in (spot(3, 0), spot(3, 2), spot(3, 4), spot(3, 9)):
        _rejects("card_protected", run, LION, PlayCatastrophe(spot=protected))
    run.do(LION, PlayCatastrophe(spot=spot(3, 1)))
    assert column_text(run.state, 3) == "TGB1K"
    assert leader_at(run.state, spot(3, 1)).seat == BOW  # type: ignore[union-attr]
    assert leader_at(run.state, spot(3, 2)).seat == BULL  # type: ignore[union-attr]
    _rejects("catastrophe_used", run, LION, PlayCatastrophe(spot=spot(3, 3)))
    assert count(run.state.discard, Colour.RED) == 1


def test_passing_is_an_option_or_a_last_resort() -> None:
    _rejects("pass_not_allowed", Run(make_state()), LION, Pass())
    run = Run(make_state(allow_pass=True)).do(LION, Pass(), Pass())
    assert run.state.active == BULL
