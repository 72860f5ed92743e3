"""Barbarians: the attack, pillage, Defender of Catan, tied defenders (docs/rules/catan.md §10)."""

from __future__ import annotations

from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.legal import actors, legal
from shared.games.catan.rules.barbarians import strength
from tests.games.catan.helpers import corner, fresh, given, knight, of, roll_until, town, when

SHIP = lambda d: d.event == "ship"  # noqa: E731
NEAR = ev.BarbarianMoved(position=6)
A, B, C, D = corner(0, 0), corner(2, 0), corner(16, 3), corner(18, 3)


def test_strength_counts_cities_and_metropolises_once_but_not_settlements_or_tipped():
    state = given(fresh(), town(0, A, 2), town(1, B, 2), town(2, C), ev.MetropolisPlaced(track=0, spot=A))
    assert strength(state) == 2
    assert strength(given(state, ev.CityPillaged(seat=1, spot=B, tipped=True))) == 1


def test_ship_advances_and_the_seventh_move_attacks_then_resets():
    state, events = roll_until(given(fresh(), NEAR), SHIP)
    assert of(events, ev.BarbariansAttacked) and state.barbarian == 0 and state.attacks == 1


def test_all_knights_are_deactivated_after_an_attack_whatever_the_outcome():
    state = given(fresh(), NEAR, knight(0, A, 2, active=True), knight(1, B, 1, active=True))
    state, _ = roll_until(state, SHIP)
    assert not any(k.active for k in state.knights)


def test_weakest_contributors_all_lose_a_city_and_walls_go_with_it():
    state = given(fresh(), NEAR, town(0, A, 2), town(1, B, 2), town(2, C, 2), town(3, D, 2))
    state = given(state, knight(0, corner(4, 0), 1, active=True), ev.WallPlaced(seat=1, spot=B))
    state, events = roll_until(state, SHIP)
    lost = sorted(e.seat for e in of(events, ev.CityPillaged))
    assert lost == [1, 2, 3] and state.level[A] == 2 and state.level[B] == 1 and B not in state.walls


def test_metropolis_only_players_are_skipped_and_the_next_lowest_lose():
    state = given(fresh(), NEAR, town(0, A, 2), ev.MetropolisPlaced(track=0, spot=A), town(1, B, 2))
    state = given(state, town(2, C, 2), town(3, D, 2), knight(1, corner(4, 0), 1, active=True))
    state = given(state, knight(2, corner(13, 3), 1, active=True), knight(3, corner(10, 0), 2, active=True))
    state = given(state, knight(3, corner(12, 3), 2, active=True))
    state, events = roll_until(state, SHIP)
    # 4 cities vs 6 knights: the knights win here, so rebuild with fewer knights.
    assert not of(events, ev.CityPillaged)
    weak = given(fresh(), NEAR, town(0, A, 2), ev.MetropolisPlaced(track=0, spot=A), town(1, B, 2))
    weak = given(weak, town(2, C, 2), knight(2, corner(13, 3), 1, active=True))
    weak, events = roll_until(weak, SHIP)
    assert [e.seat for e in of(events, ev.CityPillaged)] == [1]


def test_owner_chooses_which_city_is_pillaged():
    state = given(fresh(), NEAR, town(1, A, 2), town(1, B, 2))
    state, _ = roll_until(state, SHIP)
    assert state.task.kind == "pillage" and actors(state) == frozenset({1})
    assert {c.choice for c in legal(state, 1)} == {A, B}
    state, _ = when(state, 1, cmd.Choose(choice=B))
    assert state.level[B] == 1 and state.level[A] == 2


def test_with_no_settlement_piece_left_the_city_is_tipped():
    spots = [corner(h, 3) for h in (7, 12, 13, 14, 15)]
    state = given(fresh(), NEAR, town(1, A, 2), *(town(1, s) for s in spots))
    state, events = roll_until(state, SHIP)
    assert of(events, ev.CityPillaged)[0].tipped and A in state.tipped


def test_unique_best_defender_gets_a_defender_of_catan_point():
    state = given(fresh(), NEAR, town(0, A, 2), knight(0, B, 1, active=True), knight(1, C, 2, active=True))
    state, events = roll_until(state, SHIP)
    assert [e.seat for e in of(events, ev.DefenderAwarded)] == [1]
    assert state.players[1].defender == 1


def test_tied_defenders_each_draw_from_a_deck_of_their_choice():
    state = given(fresh(), NEAR, town(0, A, 2), knight(0, B, 1, active=True), knight(1, C, 1, active=True))
    state, _ = roll_until(state, SHIP)
    assert state.task.kind == "defender_draw" and actors(state) == frozenset({0})
    state, first = when(state, 0, cmd.Choose(choice=2))
    assert actors(state) == frozenset({1})
    state, second = when(state, 1, cmd.Choose(choice=0))
    assert [e.deck for e in of(first + second, ev.CardDrawnShadow)] == [2, 0]


def test_tied_defenders_draw_one_at_a_time_from_the_decks_that_still_hold_cards():
    """Tied defenders: "If several players tie for the highest strength, each of them, in
    turn clockwise from the roller, draws a progress card from a deck of their choice."
    Each chooses among the decks that hold cards when its turn to draw comes, so no tied
    player ends with nothing while a deck has cards; with one deck left there is no choice."""
    state = given(
        fresh(), NEAR, town(0, A, 2), *(knight(s, spot, 1, active=True) for s, spot in enumerate((B, C, D)))
    )
    state = given(state, ev.DecksShuffled(dev=(), progress=(("merchant",), ("spy",), state.decks[2])))
    state, _ = roll_until(state, lambda d: SHIP(d) and d.yellow + d.red != 7)
    assert actors(state) == frozenset({0}) and len(legal(state, 0)) == 3
    state, _ = when(state, 0, cmd.Choose(choice=0))  # the trade deck's last card
    assert actors(state) == frozenset({1}) and legal(state, 1) == [cmd.Choose(choice=1), cmd.Choose(choice=2)]
    state, events = when(state, 1, cmd.Choose(choice=1))  # the politics deck's last card
    # Seat 2 is left the science deck alone: it draws from it without being asked.
    assert [(e.seat, e.deck) for e in of(events, ev.CardDrawnShadow)] == [(1, 1), (2, 2)]
    assert all(len(state.players[s].cards) == 1 for s in (0, 1, 2))


def test_no_cities_means_everybody_ties_at_zero_unless_the_option_says_none():
    state, _ = roll_until(given(fresh(), NEAR), SHIP)
    assert state.task.kind == "defender_draw" and state.task.seats == (0,) and state.task.data == (1, 2, 3)
    off, _ = roll_until(
        given(fresh(zero_strength_defense_reward="none"), NEAR), lambda d: SHIP(d) and d.yellow + d.red != 7
    )
    assert off.task is None


def test_first_attack_activates_the_robber_for_the_same_rolls_seven():
    state = given(fresh(), NEAR, town(1, corner(4, 0)))
    state, _ = roll_until(state, lambda d: SHIP(d) and d.yellow + d.red == 7)
    while state.task is not None and state.task.kind == "defender_draw":
        seat = min(actors(state))
        state, _ = when(state, seat, legal(state, seat)[0])
    assert state.task.kind == "robber"


def test_event_die_resolves_before_production():
    # C&K beginner: hex 0 is hills 6. A city pillaged by this roll produces as a settlement.
    state = given(fresh(), NEAR, town(1, corner(0, 3), 2))
    state, events = roll_until(state, lambda d: SHIP(d) and d.yellow + d.red == 6)
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("CityPillaged") < kinds.index("CardsGained")
    assert of(events, ev.CardsGained)[0].cards[0] == 1


def test_meanies_variant_lets_each_seat_pick_its_fighters_and_only_they_rest():
    state = given(fresh(meanies_variant=True), NEAR, town(0, A, 2), knight(0, B, 1, active=True))
    state = given(state, knight(1, C, 2, active=True), knight(1, D, 1, active=True))
    state, _ = roll_until(state, lambda d: SHIP(d) and d.yellow + d.red != 7)
    assert state.task.kind == "muster" and actors(state) == frozenset({0, 1})
    assert len(legal(state, 1)) == 4
    state, _ = when(state, 0, cmd.Choose(choice=1))
    first = min(C, D)
    state, events = when(state, 1, cmd.Choose(choice=1))  # only seat 1's knight on the lower spot fights
    attack = of(events, ev.BarbariansAttacked)[0]
    assert attack.fighters == tuple(sorted((B, first)))
    resting = [k for k in state.knights if k.active]
    assert [k.spot for k in resting] == [max(C, D)]
