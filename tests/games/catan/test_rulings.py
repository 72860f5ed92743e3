"""Timing, supplies and card rulings not covered by the per-concept files (docs/rules/catan.md)."""

from __future__ import annotations

from shared.games.catan import board
from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.legal import actors, legal
from shared.kernel.rng import Rng
from tests.games.catan.helpers import (
    TOP,
    cards,
    corner,
    fresh,
    gain,
    given,
    hold,
    knight,
    of,
    path_spots,
    rejected,
    road,
    roll_until,
    town,
    when,
)

NEAR = ev.BarbarianMoved(position=6)


def test_a_chosen_seven_by_alchemist_still_causes_discards():
    state = hold(given(fresh(), ev.PhaseSet(phase="roll", active=0, turn=1), gain(1, ore=9)), 0, "alchemist")
    for stream in range(1, 50):  # the event die is still rolled; take a gate face
        after, events = when(state, 0, cmd.PlayProgress(card="alchemist", a=3, b=4), stream=stream)
        if of(events, ev.DiceRolled)[0].event != "ship":
            break
    assert (of(events, ev.DiceRolled)[0].yellow, of(events, ev.DiceRolled)[0].red) == (3, 4)
    assert after.task.kind == "discard" and after.task.seats == (1,)


def test_gate_draws_happen_before_the_seven_and_never_count_for_discards():
    state = given(
        fresh(), *[ev.ImprovementBought(seat=1, track=0, level=n) for n in range(1, 6)], gain(1, ore=8)
    )
    state, events = roll_until(state, lambda d: d.event == "trade" and d.yellow + d.red == 7)
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("CardDrawn") < kinds.index("TaskOpened")
    assert state.task.kind == "discard" and state.task.amounts == (4,)


def test_knights_only_act_in_the_action_phase_after_the_roll():
    state = given(fresh(), *(road(0, p) for p in path_spots(*TOP)), gain(0, wool=1, ore=1, grain=1))
    state = given(state, knight(0, TOP[0]), ev.PhaseSet(phase="roll", active=0, turn=1))
    assert rejected(state, 0, cmd.BuildKnight(spot=TOP[2])) == "illegal_move"
    assert rejected(state, 0, cmd.ActivateKnight(spot=TOP[0])) == "illegal_move"


def test_when_nobody_defends_every_seat_with_a_pillageable_city_loses_one():
    spots = (corner(0, 0), corner(2, 0), corner(16, 3))
    state = given(fresh(), NEAR, *(town(s, spot, 2) for s, spot in enumerate(spots)))
    state, events = roll_until(state, lambda d: d.event == "ship")
    assert sorted(e.seat for e in of(events, ev.CityPillaged)) == [0, 1, 2]


def test_defender_points_keep_coming_after_the_six_cards():
    state = given(fresh(), NEAR, knight(2, corner(0, 0), 1, active=True))
    state = state.__class__(
        **{**{f: getattr(state, f) for f in state.__struct_fields__}, "defenders_left": 0}
    )
    state, events = roll_until(state, lambda d: d.event == "ship")
    assert of(events, ev.DefenderAwarded) and state.players[2].defender == 1


def test_bishop_may_go_to_the_desert_and_steal_nothing():
    attacked = ev.BarbariansAttacked(barbarians=0, knights=0, contributions=(0,) * 4)
    state = hold(given(fresh(), attacked, ev.RobberMoved(hex=0)), 0, "bishop")
    desert = fresh().terrain.index(board.DESERT)
    state, events = when(state, 0, cmd.PlayProgress(card="bishop", a=desert))
    assert state.robber == desert and not of(events, ev.CardsTaken)


def test_deserter_against_a_lone_knight_removes_it_at_once():
    state = hold(given(fresh(), knight(1, corner(0, 0), 3)), 0, "deserter")
    state, events = when(state, 0, cmd.PlayProgress(card="deserter", a=1))
    assert of(events, ev.KnightRemoved) and state.task is None  # no road of seat 0: nothing to place


def test_road_building_with_one_legal_spot_places_one_road():
    # Seat 0's only open path leads into seat 1's town, beyond which its network may not grow.
    state = given(fresh(), town(0, 3), road(1, board.path_between(3, 7)), town(1, 0))
    state = hold(state, 0, "road_building")
    state, _ = when(state, 0, cmd.PlayProgress(card="road_building"))
    only = legal(state, 0)
    assert len(only) == 1
    state, _ = when(state, 0, only[0])
    assert state.task is None


def test_immediate_progress_limit_option_makes_the_active_seat_discard_at_once():
    state = given(
        fresh(own_turn_progress_limit="immediate"),
        *[ev.ImprovementBought(seat=0, track=2, level=n) for n in range(1, 6)],
    )
    state = hold(state, 0, *["smith"] * 4)
    state, _ = roll_until(state, lambda d: d.event == "science" and d.yellow + d.red != 7)
    assert state.task.kind == "progress_discard" and actors(state) == frozenset({0})


def test_house_rules_for_shuffled_numbers():
    for i in range(10):
        _, numbers, _ = board.variable_layout(Rng(bytes(32), i), False, True, True)
        assert board.house_ok(numbers, True, True) and board.reds_apart(numbers)


def test_nobody_acts_while_others_decide():
    state = given(fresh(), gain(1, ore=9), gain(0, wool=1, ore=1))
    state, _ = roll_until(state, lambda d: d.event != "ship" and d.yellow + d.red == 7)
    assert actors(state) == frozenset({1}) and legal(state, 0) == []
    assert rejected(state, 0, cmd.EndTurn()) == "not_your_turn"


def test_a_promoted_knight_keeps_its_right_to_act_unless_the_option_forbids():
    def setup(**options):
        s = given(fresh(**options), *(road(0, p) for p in path_spots(*TOP)), gain(0, wool=1, ore=1))
        s = given(s, knight(0, TOP[0], 1, active=True))
        s, _ = when(s, 0, cmd.PromoteKnight(spot=TOP[0]))
        return [c for c in legal(s, 0) if isinstance(c, cmd.MoveKnight)]

    assert setup()
    assert not setup(promoted_knight_may_act=False)


def test_at_most_three_walls():
    spots = [corner(h, 0) for h in (0, 2, 7, 11)]
    state = given(fresh(), *(town(0, s, 2) for s in spots), gain(0, brick=2))
    state = given(state, *(ev.WallPlaced(seat=0, spot=s) for s in spots[:3]))
    assert not [c for c in legal(state, 0) if isinstance(c, cmd.BuildWall)]


# Others' decisions interrupt the active seat (docs/rules/catan.md §4); all progress draws come before any
# off-turn hand-limit discard, and every seat over the limit discards at the same time.


def _scientists(state, *seats):
    return given(state, *(ev.ImprovementBought(seat=s, track=2, level=n) for s in seats for n in range(1, 6)))


def test_all_draws_resolve_first_then_every_seat_over_the_limit_discards_at_once():
    state = _scientists(fresh(), 1, 2, 3)
    science = ("crane", "smith", "mining", "irrigation", "medicine", "engineer")
    state = given(state, ev.DecksShuffled(dev=(), progress=(state.decks[0], state.decks[1], science)))
    state = hold(hold(state, 1, *["smith"] * 4), 2, *["crane"] * 4)
    state, events = roll_until(state, lambda d: d.event == "science" and d.yellow + d.red != 7)
    kinds = [type(e).__name__ for e in events]
    assert [e.seat for e in of(events, ev.CardDrawn)] == [1, 2, 3]
    assert max(i for i, k in enumerate(kinds) if k == "CardDrawn") < kinds.index("TaskOpened")
    assert state.task.kind == "progress_discard" and state.task.seats == (1, 2)
    assert actors(state) == frozenset({1, 2}) and legal(state, 0) == []
    state, _ = when(state, 2, cmd.DiscardProgress(cards=("crane",)))
    assert actors(state) == frozenset({1})  # the active seat stays blocked until the last answer
    state, _ = when(state, 1, cmd.DiscardProgress(cards=("smith",)))
    # Then the roll goes on: production, where the building-less level-3 scientists get an Aqueduct.
    assert state.task.kind == "aqueduct" and 0 not in actors(state)


def test_discards_on_a_seven_are_awaited_from_all_seats_at_once_and_block_the_active_seat():
    state = given(fresh(), gain(1, ore=8), gain(3, wool=9), gain(0, grain=9))
    state, _ = roll_until(state, lambda d: d.event != "ship" and d.yellow + d.red == 7)
    assert state.task.kind == "discard" and state.task.seats == (0, 1, 3)
    state, _ = when(state, 0, cmd.SelectCards(cards=(0, 0, 0, 4, 0, 0, 0, 0)))
    assert actors(state) == frozenset({1, 3})
    assert rejected(state, 0, cmd.EndTurn()) == "not_your_turn"


# No seat may react to a roll or an attack (docs/rules/catan.md §4) (activate knights, play cards, trade).


def test_nobody_reacts_to_an_attack():
    state = given(fresh(), NEAR, town(1, corner(0, 0), 2), town(1, corner(2, 0), 2))
    state = given(state, *(road(0, p) for p in path_spots(*TOP)), knight(0, TOP[3]), knight(2, corner(16, 3)))
    state = given(state, gain(0, grain=2, wool=2, ore=2), gain(2, grain=2, ore=1))
    state = hold(hold(state, 0, "warlord"), 2, "warlord")
    state, _ = roll_until(state, lambda d: d.event == "ship")
    assert state.task.kind == "pillage" and actors(state) == frozenset({1})
    assert legal(state, 0) == [] and legal(state, 2) == []
    assert all(isinstance(c, cmd.Choose) for c in legal(state, 1))
    assert rejected(state, 0, cmd.ActivateKnight(spot=TOP[3])) == "not_your_turn"
    assert rejected(state, 2, cmd.PlayProgress(card="warlord")) == "not_your_turn"
    offer = cmd.OfferTrade(give=(0, 0, 0, 1, 0, 0, 0, 0), get=(0, 0, 1, 0, 0, 0, 0, 0))
    assert rejected(state, 0, offer) == "not_your_turn"


def test_nobody_reacts_to_a_roll_that_opens_no_decision():
    state = given(fresh(), knight(2, corner(16, 3)), gain(2, grain=2))
    state = hold(state, 2, "warlord")
    state, _ = roll_until(state, lambda d: d.event != "ship" and d.yellow + d.red != 7)
    assert state.task is None and actors(state) == frozenset({0})
    assert (
        legal(state, 2) == []
        and rejected(state, 2, cmd.ActivateKnight(spot=corner(16, 3))) == "not_your_turn"
    )


# Every attack deactivates every knight (docs/rules/catan.md §10); the board counted is the one at the attack.


def test_a_lost_attack_counts_the_cities_of_that_instant_and_deactivates_every_knight():
    a, b, c = corner(0, 0), corner(2, 0), corner(16, 3)
    state = given(fresh(), NEAR, town(0, a, 2), ev.MetropolisPlaced(track=0, spot=a), town(1, b, 2))
    state = given(state, town(2, c, 2), *(town(1, corner(h, 3)) for h in range(5, 10)))
    state = given(state, knight(0, corner(4, 0), 1, active=True), knight(3, corner(18, 3), 1, active=True))
    state, events = roll_until(state, lambda d: d.event == "ship")
    attack = of(events, ev.BarbariansAttacked)[0]
    assert (attack.barbarians, attack.knights) == (3, 2)  # the metropolis counts as a city
    pillaged = {e.seat: e.tipped for e in of(events, ev.CityPillaged)}
    # Both zero-strength seats lose a city, although the first loss already weakens the barbarians;
    # seat 1 had all five settlements on the board at the attack, so its city lies on its side.
    assert pillaged == {1: True, 2: False}
    assert not any(k.active for k in state.knights)


def test_a_won_attack_deactivates_every_knight_too():
    state = given(fresh(), NEAR, town(1, corner(2, 0), 2), knight(0, corner(4, 0), 2, active=True))
    state = given(state, knight(1, corner(16, 3), 1, active=True))
    state, events = roll_until(state, lambda d: d.event == "ship")
    assert of(events, ev.DefenderAwarded)[0].seat == 0
    assert not any(k.active for k in state.knights)


# One Crane discounts exactly one improvement purchase, by one commodity (docs/rules/catan.md §12.4).


def _craning(*levels):
    state = given(fresh(), town(0, corner(0, 0), 2), gain(0, cloth=2, coin=1, paper=1))
    state = given(state, *(ev.ImprovementBought(seat=0, track=0, level=n) for n in range(1, levels[0] + 1)))
    return hold(state, 0, "crane", "crane")


def test_two_cranes_never_stack_on_one_purchase():
    state = _craning(2)  # trade level 3 costs 3 cloth; two cranes would bring it to 1
    state, _ = when(state, 0, cmd.PlayProgress(card="crane"))
    state, _ = when(state, 0, cmd.PlayProgress(card="crane"))
    assert state.effects.cranes == 2
    state, events = when(state, 0, cmd.BuyImprovement(track=0))
    assert of(events, ev.CardsPaid)[0].cards == cards(cloth=2) and state.effects.cranes == 1


def test_a_second_crane_discounts_a_different_purchase_and_each_crane_one_only():
    state = _craning(0)
    state, _ = when(state, 0, cmd.PlayProgress(card="crane"))
    state, _ = when(state, 0, cmd.PlayProgress(card="crane"))
    state, first = when(state, 0, cmd.BuyImprovement(track=0))  # level 1: 1 - 1 = nothing to pay
    state, second = when(state, 0, cmd.BuyImprovement(track=1))  # level 1 politics, crane two
    assert not of(first, ev.CardsPaid) and not of(second, ev.CardsPaid)
    assert state.effects.cranes == 0
    state, third = when(state, 0, cmd.BuyImprovement(track=0))  # level 2: full price now
    assert of(third, ev.CardsPaid)[0].cards == cards(cloth=2)


# Road Building places two free roads, or one if only one can be placed (docs/rules/catan.md §12.4).


def test_road_building_places_two_free_roads():
    state = hold(given(fresh(), town(0, corner(4, 0))), 0, "road_building")
    state, _ = when(state, 0, cmd.PlayProgress(card="road_building"))
    placed = []
    while state.task is not None:
        state, events = when(state, 0, legal(state, 0)[0])
        placed += of(events, ev.RoadPlaced)
    assert (
        len(placed) == 2 and not of(placed, ev.CardsPaid) and state.players[0].hand == fresh().players[0].hand
    )


def test_road_building_with_a_single_road_piece_left_places_one():
    trail = path_spots(*TOP)
    others = [p for p in range(board.N_PATHS) if p not in trail][:8]
    state = given(fresh(), town(0, TOP[0]), *(road(0, p) for p in trail + others))
    assert state.roads.count(0) == 15 - 1
    state, _ = when(hold(state, 0, "road_building"), 0, cmd.PlayProgress(card="road_building"))
    assert state.task.amounts == (1,)
    state, _ = when(state, 0, legal(state, 0)[0])
    assert state.task is None and state.roads.count(0) == 15


# An exhausted supply stops building; commodity stacks obey the shortage rule (docs/rules/catan.md §7.1, §5).


def test_no_settlement_city_or_road_without_a_piece():
    rich = gain(0, brick=9, lumber=9, wool=9, grain=9, ore=9)
    five = [corner(h, 3) for h in (0, 2, 7, 9, 11)]
    state = given(fresh(), rich, *(town(0, s) for s in five), road(0, board.SPOT_PATHS[five[0]][0]))
    assert not [c for c in legal(state, 0) if isinstance(c, cmd.BuildSettlement)]
    four = given(fresh(), rich, *(town(0, s, 2) for s in five[:4]), town(0, five[4]))
    assert not [c for c in legal(four, 0) if isinstance(c, cmd.BuildCity)]
    trail = path_spots(*TOP)
    roads = trail + [p for p in range(board.N_PATHS) if p not in trail][:9]
    full = given(fresh(), rich, town(0, TOP[0]), *(road(0, p) for p in roads))
    assert not [c for c in legal(full, 0) if isinstance(c, cmd.BuildRoad)]


def test_two_knights_per_strength():
    state = given(fresh(), *(road(0, p) for p in path_spots(*TOP)), gain(0, wool=3, ore=3))
    state = given(state, knight(0, TOP[0]))
    assert [c for c in legal(state, 0) if isinstance(c, cmd.BuildKnight)]
    state = given(state, knight(0, TOP[2]))
    assert not [c for c in legal(state, 0) if isinstance(c, cmd.BuildKnight)]
    state = given(state, knight(0, TOP[4], 2), knight(0, TOP[6], 2))
    assert not [c for c in legal(state, 0) if isinstance(c, cmd.PromoteKnight) and c.spot in (TOP[0], TOP[2])]


def test_a_short_commodity_stack_pays_nobody_of_that_commodity():
    from msgspec.structs import replace

    from tests.games.catan.helpers import produce

    # Hex 12 is pasture 10 on the C&K beginner board: each city is owed a wool and a cloth.
    state = given(fresh(), town(1, corner(12, 0), 2), town(2, corner(12, 3), 2))
    state = replace(state, bank=(19, 19, 19, 19, 19, 12, 1, 12))
    paid = {e.seat: e.cards for e in of(produce(state, 10), ev.CardsGained)}
    assert paid == {1: cards(wool=1), 2: cards(wool=1)}
