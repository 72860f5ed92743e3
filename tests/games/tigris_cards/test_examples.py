"""The seeds' worked examples as given/when/then tests (docs/rules/tigris-cards.md §19)."""

from __future__ import annotations

import msgspec
import pytest

from shared.games.tigris_cards import GAME
from shared.games.tigris_cards.cards import Card, count
from shared.games.tigris_cards.commands import (
    BuildShip,
    ChooseConflictColour,
    CommitSupport,
    PlaceLeader,
    PlayCard,
    PlayCatastrophe,
    PlayConnector,
    ScoreCard,
    TakeTreasure,
)
from shared.games.tigris_cards.events import ConflictResolved, SpoilsTaken
from shared.games.tigris_cards.rules.kingdoms import kingdom
from shared.games.tigris_cards.state import (
    Act,
    ChooseConflict,
    Over,
    ShipOffer,
    Support,
    TreasureOffer,
    VpOffer,
)
from shared.games.tigris_common.colours import Colour, Leader
from shared.kernel.rng import Rng
from tests.games.tigris_cards.tables import (
    BOW,
    BULL,
    LION,
    VASE,
    Run,
    column_text,
    gap,
    leader_at,
    make_state,
    spot,
)


def test_c1_basic_vp_for_a_matching_leader() -> None:
    given = make_state(columns={3: "TRK"}, hands={LION: "GGRB"})
    run = Run(given).do(LION, PlaceLeader(leader=Leader.TRADER, spot=spot(3, 1)))
    run.do(LION, PlayCard(colour=Colour.GREEN, column=3))
    assert run.state.phase == VpOffer(seat=LION, colour=Colour.GREEN, reason="card", column=3)
    run.do(LION, ScoreCard())
    assert run.state.players[LION].vp == (Card.GREEN,)
    # Both actions are done: the turn passes after Lion refilled (2 played, 8 again).
    assert run.state.active == BULL and sum(run.state.players[LION].hand) == 8


def test_c2_the_king_is_a_joker_for_a_missing_leader() -> None:
    given = make_state(columns={5: "TB"}, leaders={(LION, Leader.KING): spot(5, 1)}, hands={LION: "GGGG"})
    run = Run(given)
    for _ in range(2):
        run.do(LION, PlayCard(colour=Colour.GREEN, column=5))
        assert isinstance(run.state.phase, VpOffer) and run.state.phase.seat == LION
        run.do(LION, ScoreCard())
    assert run.state.players[LION].vp == (Card.GREEN, Card.GREEN)
    assert column_text(run.state, 5) == "TBGG"


def test_c3_treasure_exchange_after_a_connection() -> None:
    given = make_state(
        columns={1: "TRRB", 2: "TKKG"},
        leaders={(LION, Leader.TRADER): spot(1, 2)},
        hands={LION: "KRR"},
    )
    run = Run(given).do(LION, PlayConnector(colour=Colour.BLACK, gap=1))
    assert run.state.table.gaps[1].card is Card.BLACK  # type: ignore[union-attr]
    assert run.state.phase == TreasureOffer(seat=LION, columns=(1, 2))
    assert run.state.players[LION].vp == ()  # no VP for the connector
    run.do(LION, TakeTreasure(column=2))
    assert run.state.players[LION].vp == (Card.TREASURE,)
    assert run.state.table.columns[2][0].card is Card.RED
    assert count(run.state.players[LION].hand, Colour.RED) == 1


def test_c4_catastrophe_on_a_connector_splits_the_kingdom() -> None:
    given = make_state(columns={3: "TRRR", 4: "TGGG"}, gaps={3: "B"})
    assert kingdom(given.table, 3) == (3, 4)
    run = Run(given).do(LION, PlayCatastrophe(spot=gap(3)))
    assert run.state.table.gaps[3] is None
    assert kingdom(run.state.table, 3) == (3, 3) and kingdom(run.state.table, 4) == (4, 4)
    assert not run.state.players[LION].catastrophe
    assert count(run.state.discard, Colour.BLUE) == 1


@pytest.mark.parametrize(("lion_commits", "discarded"), [(0, 2), (1, 3)], ids=["finnish", "hungarian"])
def test_c5_internal_conflict(lion_commits: int, discarded: int) -> None:
    given = make_state(
        columns={2: "TRGB"},
        leaders={(LION, Leader.TRADER): spot(2, 1)},
        hands={BOW: "RRRG", LION: "RBB"},
        active=BOW,
    )
    run = Run(given).do(BOW, PlaceLeader(leader=Leader.TRADER, spot=spot(2, 3)))
    conflict = run.state.conflict
    assert conflict is not None and (conflict.attacker_base, conflict.defender_base) == (0, 1)
    run.do(BOW, CommitSupport(count=3)).do(LION, CommitSupport(count=lion_commits))
    [resolved] = run.of_type(ConflictResolved)
    assert resolved.winner == BOW and resolved.reward and resolved.discarded == discarded
    assert run.state.players[BOW].vp == (Card.RED,)
    assert leader_at(run.state, spot(2, 1)) is None
    assert run.state.phase == Act(seat=BOW)


def _c6_table(bow_column: int) -> object:
    # Kingdom 1 = columns 0-1 joined by a green connector, kingdom 2 = column 2
    # (its treasure was exchanged earlier, so its head is a red card).
    return make_state(
        columns={0: "TGRB", 1: "TGBK", 2: "RGRB"},
        gaps={0: "G"},
        leaders={
            (LION, Leader.TRADER): spot(1, 2),
            (BOW, Leader.PRIEST): spot(bow_column, 3),
            (BULL, Leader.TRADER): spot(2, 1),
            (VASE, Leader.PRIEST): spot(2, 2),
        },
        hands={VASE: "GRRR", LION: "GGG", BULL: "GGGGB", BOW: "R"},
        active=VASE,
    )


def _c6_green(bow_column: int) -> Run:
    run = Run(_c6_table(bow_column)).do(VASE, PlayConnector(colour=Colour.GREEN, gap=1))
    assert run.state.phase == ChooseConflict(seat=VASE, colours=(Colour.RED, Colour.GREEN))
    assert run.state.table.gaps[1] is None  # face down: not yet part of the table
    run.do(VASE, ChooseConflictColour(colour=Colour.GREEN))
    conflict = run.state.conflict
    assert conflict is not None
    assert (conflict.attacker, conflict.defender) == (LION, BULL)  # Lion is first clockwise from Vase
    assert (conflict.attacker_base, conflict.defender_base) == (3, 1)
    return run.do(LION, CommitSupport(count=2)).do(BULL, CommitSupport(count=4))


def test_c6_external_conflicts_in_the_chosen_order() -> None:
    run = _c6_green(bow_column=1)
    [resolved] = run.of_type(ConflictResolved)
    assert resolved.winner == BULL and resolved.reward and resolved.discarded == 5
    [spoils] = run.of_type(SpoilsTaken)
    assert spoils.seat == BULL and set(spoils.spots) == {spot(0, 1), spot(1, 1), gap(0)}
    assert run.state.players[BULL].vp == (Card.GREEN,) * 4
    assert column_text(run.state, 1) == "TBK"  # blue and black slid up
    assert run.state.table.gaps[0] is None  # kingdom 1 split in two
    assert all(t.seat != LION for t in _leaders(run.state))
    # The red conflict follows: Vase is involved, so Vase attacks.
    assert run.state.phase == Support(seat=VASE)
    conflict = run.state.conflict
    assert conflict is not None and (conflict.attacker, conflict.defender) == (VASE, BOW)
    assert (conflict.attacker_base, conflict.defender_base) == (2, 1)  # treasures count red
    run.do(VASE, CommitSupport(count=0)).do(BOW, CommitSupport(count=0))
    assert run.state.phase == VpOffer(seat=VASE, colour=Colour.RED, reason="reward")
    run.do(VASE, ScoreCard())
    # Finally the connector is turned up; one treasure only, so no exchange.
    assert run.state.table.gaps[1].card is Card.GREEN  # type: ignore[union-attr]
    assert run.state.phase == Act(seat=VASE) and run.state.union is None


def test_c6_a_split_cancels_the_other_conflict() -> None:
    run = _c6_green(bow_column=0)
    assert run.state.table.gaps[1].card is Card.GREEN  # type: ignore[union-attr]
    assert run.state.conflict is None and run.state.phase == Act(seat=VASE)


def _leaders(state: object) -> list:
    return [s.leader for c in state.table.columns for s in c if s.leader]  # type: ignore[attr-defined]


def test_c7_ship_and_its_income() -> None:
    given = make_state(
        columns={4: "TRBBB"},
        leaders={(BULL, Leader.KING): spot(4, 1)},
        hands={BULL: "BKKB", LION: "BB"},
        active=BULL,
    )
    run = Run(given).do(BULL, PlayCard(colour=Colour.BLUE, column=4))
    run.do(BULL, ScoreCard())  # the king is the joker for the blue card
    assert run.state.phase == ShipOffer(
        seat=BULL, column=4, colour=Colour.BLUE, ships=(Card.SHIP_BLACK, Card.SHIP_GREEN, Card.SHIP_RED)
    )
    run.do(BULL, BuildShip(ship=Card.SHIP_BLACK))
    assert column_text(run.state, 4) == "TR1"
    run.do(BULL, PlaceLeader(leader=Leader.PRIEST, spot=spot(4, 0)))
    # End of Bull's turn: his king beside the blue/black ship earns one black card.
    assert run.state.phase == VpOffer(seat=BULL, colour=Colour.BLACK, reason="income")
    run.do(BULL, ScoreCard())
    assert run.state.players[BULL].vp[-1] is Card.BLACK
    assert run.state.active == (BULL + 1) % 4
    # Later Lion brings a farmer and collects blue at the end of his own turn.
    run.state = make_state(
        columns={4: "TR1"},
        leaders={(BULL, Leader.KING): spot(4, 1)},
        hands={LION: "BBB"},
        active=LION,
    )
    run.do(LION, PlaceLeader(leader=Leader.FARMER, spot=spot(4, 0)))
    run.do(LION, PlayCard(colour=Colour.BLUE, column=0))
    assert run.state.phase == VpOffer(seat=LION, colour=Colour.BLUE, reason="income")


def test_c8_final_scoring_table() -> None:
    piles = {
        BOW: "G" * 5 + "R" * 7 + "B" * 6 + "K" * 5,
        LION: "G" * 6 + "R" * 4 + "B" * 6 + "K" * 6,
        BULL: "G" * 4 + "R" * 9 + "B" * 5 + "K" * 6,
        VASE: "G" * 9 + "R" * 7 + "B" * 8 + "K" * 3,
    }
    state = make_state(vp=piles)
    state = msgspec.structs.replace(state, phase=Over(reason="cards"))
    result = GAME.result(state)
    assert result is not None
    assert [s.seat for s in result.standings] == [BOW, LION, BULL, VASE]
    assert [s.score for s in result.standings] == [5, 4, 4, 3]
    assert result.standings[1].tiebreak[0] == 6 and result.standings[2].tiebreak[0] == 5


@pytest.mark.parametrize(("seats", "pile"), [(4, 153), (3, 161), (2, 139)])
def test_c9_setup_sizes(seats: int, pile: int) -> None:
    state = GAME.fold(GAME.create(GAME.options(), seats, Rng(b"\x03" * 32, 0)))
    assert len(state.deck) == pile
    assert all(sum(p.hand) == 8 for p in state.players)
    assert len(state.boxed) == (30 if seats == 2 else 0)
    assert [len(c) for c in state.table.columns] == [1] * 8
    assert all(c[0].card is Card.TREASURE for c in state.table.columns)
