"""Internal and external conflicts: strength, ties, rewards, spoils, order."""

from __future__ import annotations

import pytest

from shared.games.tigris_cards.cards import Card, count
from shared.games.tigris_cards.commands import (
    ChooseConflictColour,
    CommitSupport,
    Decline,
    PlaceLeader,
    PlayConnector,
    ScoreCard,
)
from shared.games.tigris_cards.events import ConflictResolved, SpoilsTaken
from shared.games.tigris_cards.state import Act, Support, VpOffer
from shared.games.tigris_common.colours import Colour, Leader
from shared.kernel.rejection import NOT_YOUR_TURN, WRONG_PHASE, RuleViolation
from tests.games.tigris_cards.tables import BOW, BULL, LION, VASE, Run, gap, leader_at, make_state, spot


def _revolt(lion_on: str = "B", **options: object) -> Run:
    """Lion's priest defends column 2; Bull attacks with his own priest."""
    state = make_state(
        columns={2: "T" + lion_on + "GG"},
        leaders={(LION, Leader.PRIEST): spot(2, 1)},
        hands={BULL: "RRRB", LION: "RRG"},
        active=BULL,
        **options,
    )
    return Run(state).do(BULL, PlaceLeader(leader=Leader.PRIEST, spot=spot(2, 3)))


def test_a_tie_goes_to_the_defender() -> None:
    run = _revolt().do(BULL, CommitSupport(count=2)).do(LION, CommitSupport(count=2))
    [resolved] = run.of_type(ConflictResolved)
    assert (resolved.winner, resolved.loser, resolved.discarded) == (LION, BULL, 3)
    assert leader_at(run.state, spot(2, 3)) is None and leader_at(run.state, spot(2, 1)).seat == LION  # type: ignore[union-attr]
    assert run.state.players[LION].vp == (Card.RED,)
    assert run.state.phase == Act(seat=BULL)


def test_standing_on_red_adds_one_and_a_treasure_is_red() -> None:
    assert (_revolt("R").state.conflict.attacker_base, _revolt("R").state.conflict.defender_base) == (0, 1)  # type: ignore[union-attr]
    state = make_state(
        leaders={(LION, Leader.TRADER): spot(0, 0)}, columns={0: "TB"}, hands={BULL: "R"}, active=BULL
    )
    run = Run(state).do(BULL, PlaceLeader(leader=Leader.TRADER, spot=spot(0, 1)))
    assert run.state.conflict.defender_base == 1 and run.state.conflict.attacker_base == 0  # type: ignore[union-attr]


def test_when_nobody_commits_the_winner_may_score_from_hand() -> None:
    run = _revolt("R").do(BULL, CommitSupport(count=0)).do(LION, CommitSupport(count=0))
    assert run.state.phase == VpOffer(seat=LION, colour=Colour.RED, reason="reward")
    run.do(LION, ScoreCard())
    assert run.state.players[LION].vp == (Card.RED,) and run.state.phase == Act(seat=BULL)


@pytest.mark.parametrize(("rule", "reward"), [("any_played", True), ("winner_played", False)])
def test_reward_when_only_the_loser_committed(rule: str, reward: bool) -> None:
    # Lion stands on red (1) and commits nothing; Bull commits one card (1): a tie.
    run = _revolt("R", internal_reward=rule).do(BULL, CommitSupport(count=1)).do(LION, CommitSupport(count=0))
    [resolved] = run.of_type(ConflictResolved)
    assert resolved.winner == LION and resolved.reward is reward
    assert resolved.discarded == (0 if reward else 1)
    assert isinstance(run.state.phase, VpOffer) is not reward


def test_commits_are_checked_and_ordered() -> None:
    run = _revolt()
    assert run.state.phase == Support(seat=BULL)
    for seat, command, code in [
        (BULL, CommitSupport(count=4), "not_enough_cards"),
        (LION, CommitSupport(count=0), NOT_YOUR_TURN),
        (BULL, Decline(), WRONG_PHASE),
    ]:
        with pytest.raises(RuleViolation) as caught:
            run.do(seat, command)
        assert caught.value.code == code


def _war(active: int, bow_trader_row: int = 2, **options: object) -> Run:
    """Green leaders of Lion (column 0) and Bow (column 1) meet."""
    state = make_state(
        columns={0: "TGGK1", 1: "TGRGB"},
        leaders={
            (LION, Leader.TRADER): spot(0, 3),
            (BOW, Leader.TRADER): spot(1, bow_trader_row),
            (BOW, Leader.KING): spot(1, 1),
        },
        hands={active: "GG", LION: "G", BOW: "G"},
        active=active,
        **options,
    )
    return Run(state).do(active, PlayConnector(colour=Colour.GREEN, gap=0))


@pytest.mark.parametrize(("active", "attacker"), [(LION, LION), (BULL, BOW), (VASE, LION)])
def test_the_attacker_is_the_active_player_or_the_next_clockwise(active: int, attacker: int) -> None:
    conflict = _war(active).state.conflict
    assert conflict is not None and conflict.attacker == attacker
    assert conflict.defender == ({LION, BOW} - {attacker}).pop()


def test_strength_counts_the_colour_in_each_former_kingdom_but_not_ships_or_the_connector() -> None:
    conflict = _war(BULL).state.conflict
    assert conflict is not None
    # Two greens a side: the ship and the face-down green connector count for nobody.
    assert (conflict.attacker_base, conflict.defender_base) == (2, 2)


def test_spoils_spare_heads_and_cards_with_leaders() -> None:
    run = _war(BULL).do(BOW, CommitSupport(count=0)).do(LION, CommitSupport(count=1))
    [resolved] = run.of_type(ConflictResolved)
    assert resolved.winner == LION and resolved.reward and resolved.discarded == 0
    [spoils] = run.of_type(SpoilsTaken)
    assert spoils.spots == (spot(1, 3),)  # the green under Bow's king stays
    assert run.state.players[LION].vp == (Card.GREEN, Card.GREEN)
    assert run.state.table.gaps[0].card is Card.GREEN  # type: ignore[union-attr]


@pytest.mark.parametrize(("first", "taken"), [(True, (spot(1, 3),)), (False, ())])
def test_the_losing_leader_leaves_before_the_spoils_by_default(first: bool, taken: tuple) -> None:
    run = _war(BULL, bow_trader_row=3, loser_leader_first=first)
    run.do(BOW, CommitSupport(count=0)).do(LION, CommitSupport(count=1))
    [spoils] = run.of_type(SpoilsTaken)
    assert spoils.spots == taken
    assert all(t.seat != BOW or t.leader is Leader.KING for t in _tokens(run))


def _tokens(run: Run) -> list:
    return [s.leader for c in run.state.table.columns for s in c if s.leader]


def test_several_conflicts_are_ordered_by_the_active_player() -> None:
    state = make_state(
        columns={0: "TRRR", 1: "TBBB"},
        leaders={
            (LION, Leader.KING): spot(0, 1),
            (LION, Leader.FARMER): spot(0, 2),
            (BULL, Leader.KING): spot(1, 1),
            (BULL, Leader.FARMER): spot(1, 2),
        },
        hands={BOW: "R"},
        active=BOW,
    )
    run = Run(state).do(BOW, PlayConnector(colour=Colour.RED, gap=0))
    assert run.state.phase.colours == (Colour.BLUE, Colour.BLACK)  # type: ignore[union-attr]
    run.do(BOW, ChooseConflictColour(colour=Colour.BLACK))
    assert run.state.conflict.colour is Colour.BLACK  # type: ignore[union-attr]
    run.do(LION, CommitSupport(count=0)).do(BULL, CommitSupport(count=0))
    run.do(BULL, Decline())  # the reward from hand
    assert run.state.conflict.colour is Colour.BLUE  # type: ignore[union-attr]
    assert run.state.union is not None and run.state.table.gaps[0] is None
    run.do(LION, CommitSupport(count=0)).do(BULL, CommitSupport(count=0)).do(BULL, Decline())
    assert run.state.table.gaps[0] is not None and run.state.phase == Act(seat=BOW)
    assert count(run.state.players[BOW].hand, Colour.RED) == 0 and gap(0) is not None
