"""Progress cards: the general rules and every card's effect (docs/rules/catan.md §12)."""

from __future__ import annotations

from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.legal import actors, legal
from shared.games.catan.state import knight_at
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
)  # fmt: skip

P = cmd.PlayProgress
A, B = corner(0, 0), corner(2, 0)
FIRST_ATTACK = ev.BarbariansAttacked(barbarians=0, knights=0, contributions=(0,) * 4)


def plays(state, seat=0):
    return [c for c in legal(state, seat) if isinstance(c, P)]


def test_vp_cards_are_revealed_at_once_and_never_held():
    state = given(fresh(), ev.ImprovementBought(seat=1, track=1, level=1))
    state = given(
        state,
        ev.DecksShuffled(
            dev=(), progress=(state.decks[0], ("constitution", *state.decks[1]), state.decks[2])
        ),
    )
    from shared.games.catan.evolve import evolve
    from shared.games.catan.rules.progress.draws import draw
    from shared.kernel.fold import Fold
    from shared.kernel.rng import Rng

    f = Fold(state, evolve, Rng(bytes(32), 0))
    draw(f, 1, 1)
    assert f.state.players[1].vp_cards == 1 and f.state.players[1].cards == ()


def test_off_turn_seat_over_the_limit_discards_at_once():
    state = hold(
        given(fresh(), *[ev.ImprovementBought(seat=1, track=2, level=n) for n in range(1, 6)]),
        1,
        *["smith"] * 4,
    )
    state, _ = roll_until(state, lambda d: d.event == "science" and d.yellow + d.red != 7)
    assert state.task.kind == "progress_discard" and actors(state) == frozenset({1})
    state, _ = when(state, 1, legal(state, 1)[0])
    assert len(state.players[1].cards) == 4


def test_active_seat_may_hold_five_until_the_end_of_its_turn():
    state = hold(fresh(), 0, "smith", "smith", "crane", "crane", "mining")
    assert cmd.EndTurn() not in legal(state, 0)
    state, _ = when(state, 0, cmd.DiscardProgress(cards=("mining",)))
    assert cmd.EndTurn() in legal(state, 0)


def test_cards_with_no_possible_effect_cannot_be_played():
    names = [
        "mining",
        "irrigation",
        "warlord",
        "engineer",
        "medicine",
        "crane",
        "bishop",
        "master_merchant",
        "wedding",
        "saboteur",
        "spy",
        "deserter",
        "intrigue",
        "diplomat",
        "commercial_harbor",
        "smith",
    ]
    state = hold(fresh(), 0, *names)
    assert plays(state) == []
    assert {c.card for c in plays(hold(fresh(), 0, "resource_monopoly", "trade_monopoly"))} == {
        "resource_monopoly",
        "trade_monopoly",
    }


def test_alchemist_only_before_the_roll_sets_the_production_dice():
    state = hold(given(fresh(), ev.PhaseSet(phase="roll", active=0, turn=1)), 0, "alchemist")
    assert P(card="alchemist", a=3, b=4) in legal(state, 0)
    state, events = when(state, 0, P(card="alchemist", a=2, b=4))
    dice = of(events, ev.DiceRolled)[0]
    assert (dice.yellow, dice.red) == (2, 4) and dice.event
    assert not [c for c in plays(hold(fresh(), 0, "alchemist")) if c.card == "alchemist"]


def test_inventor_swaps_only_the_allowed_numbers():
    state = hold(fresh(), 0, "inventor")
    pairs = {(c.a, c.b) for c in plays(state)}
    allowed = {3, 4, 5, 9, 10, 11}
    assert all(state.numbers[a] in allowed and state.numbers[b] in allowed for a, b in pairs)
    assert all(state.numbers[a] != state.numbers[b] for a, b in pairs)
    a, b = min(pairs)
    state, _ = when(state, 0, P(card="inventor", a=a, b=b))
    assert (state.numbers[a], state.numbers[b]) == (fresh().numbers[b], fresh().numbers[a])


def test_irrigation_two_grain_per_fields_hex_even_under_the_robber():
    state = hold(
        given(fresh(), town(0, corner(8, 1)), town(0, corner(13, 3)), ev.RobberMoved(hex=8)), 0, "irrigation"
    )
    state, _events = when(state, 0, P(card="irrigation"))
    from shared.games.catan import board
    from shared.games.catan.rules.progress.science import terrain_hexes

    n = len(terrain_hexes(state, 0, board.FIELDS))
    assert n >= 2 and state.players[0].hand == cards(grain=2 * n)


def test_medicine_upgrades_for_two_ore_and_one_grain():
    state = hold(given(fresh(), town(0, A), gain(0, ore=2, grain=1)), 0, "medicine")
    state, _ = when(state, 0, P(card="medicine", a=A))
    assert state.level[A] == 2 and state.players[0].hand == cards()


def test_engineer_builds_a_free_wall_and_smith_promotes_two_knights():
    state = hold(given(fresh(), town(0, A, 2), knight(0, TOP[0]), knight(0, TOP[1])), 0, "engineer", "smith")
    state, _ = when(state, 0, P(card="engineer", a=A))
    assert state.walls == (A,)
    state, _ = when(state, 0, P(card="smith", a=min(TOP[0], TOP[1]), b=max(TOP[0], TOP[1])))
    assert [k.strength for k in state.knights] == [2, 2]


def test_road_building_places_two_free_roads():
    state = hold(given(fresh(), town(0, TOP[0])), 0, "road_building")
    state, _ = when(state, 0, P(card="road_building"))
    paths = path_spots(*TOP)
    state, _ = when(state, 0, cmd.BuildRoad(path=paths[0]))
    state, _ = when(state, 0, cmd.BuildRoad(path=paths[1]))
    assert state.task is None and state.roads.count(0) == 2 and state.players[0].hand == cards()


def test_bishop_steals_one_card_from_each_adjacent_opponent_after_the_first_attack():
    state = hold(
        given(fresh(), town(1, corner(4, 0)), town(2, corner(4, 3)), gain(1, ore=2), gain(2, wool=1)),
        0,
        "bishop",
    )
    assert plays(state) == []
    state, _ = when(given(state, FIRST_ATTACK), 0, P(card="bishop", a=4))
    assert sum(state.players[0].hand) == 2 and state.robber == 4


def test_diplomat_removes_one_open_road_and_may_replace_ones_own():
    state = hold(given(fresh(), town(1, TOP[0]), *(road(1, p) for p in path_spots(*TOP[:3]))), 0, "diplomat")
    assert {c.a for c in plays(state)} == {path_spots(*TOP)[1]}  # the road touching the town is closed
    own = hold(given(fresh(), town(0, TOP[0]), *(road(0, p) for p in path_spots(*TOP[:3]))), 0, "diplomat")
    state, _ = when(own, 0, P(card="diplomat", a=path_spots(*TOP)[1]))
    assert state.task.kind == "diplomat" and cmd.Choose(choice=path_spots(*TOP)[1]) not in legal(state, 0)
    state, _ = when(state, 0, legal(state, 0)[1])
    assert state.roads.count(0) == 2


def test_deserter_target_chooses_and_the_player_places_the_same_strength_with_its_status():
    state = given(
        fresh(), *(road(0, p) for p in path_spots(*TOP)), knight(1, A, 2, active=True), knight(1, B, 1)
    )
    state = hold(state, 0, "deserter")
    state, _ = when(state, 0, P(card="deserter", a=1))
    assert actors(state) == frozenset({1})
    state, _ = when(state, 1, cmd.Choose(choice=A))
    assert state.task.kind == "deserter_place"
    state, _ = when(state, 0, cmd.Choose(choice=TOP[2]))
    k = knight_at(state, TOP[2])
    assert (k.owner, k.strength, k.active) == (0, 2, True)


def test_intrigue_displaces_a_knight_on_ones_road_without_a_knight():
    state = given(fresh(), *(road(0, p) for p in path_spots(*TOP[:3])), knight(1, TOP[2], 3))
    state, _ = when(hold(state, 0, "intrigue"), 0, P(card="intrigue", a=TOP[2]))
    assert knight_at(state, TOP[2]) is None


def test_saboteur_hits_seats_with_at_least_as_many_points():
    state = given(
        fresh(),
        town(0, A),
        town(1, B),
        town(2, corner(16, 3), 2),
        gain(1, ore=5),
        gain(2, ore=4),
        gain(3, ore=4),
    )
    state, _ = when(hold(state, 0, "saboteur"), 0, P(card="saboteur"))
    assert dict(zip(state.task.seats, state.task.amounts, strict=True)) == {1: 2, 2: 2}


def test_spy_looks_and_may_take_a_spy():
    state = hold(hold(fresh(), 0, "spy"), 1, "spy", "crane")
    state, events = when(state, 0, P(card="spy", a=1))
    assert of(events, ev.ProgressShown)[0].cards == ("crane", "spy")
    state, _ = when(state, 0, cmd.TakeCard(card="spy"))
    assert state.players[0].cards == ("spy",) and state.players[1].cards == ("crane",)


def test_spy_takes_one_of_the_cards_it_looks_at():
    """Spy (seed, politics cards): "Choose a player to see all their progress cards and
    steal one of them." The seed's reading is the default: one card is taken. The
    almanac's "you may take one" is the option ``spy_take: optional``."""
    state = hold(hold(fresh(), 0, "spy"), 1, "crane", "smith")
    looking, _ = when(state, 0, P(card="spy", a=1))
    assert legal(looking, 0) == [cmd.TakeCard(card="crane"), cmd.TakeCard(card="smith")]
    assert rejected(looking, 0, cmd.TakeCard(card="")) == "illegal_move"
    optional = hold(hold(fresh(spy_take="optional"), 0, "spy"), 1, "crane")
    optional, _ = when(optional, 0, P(card="spy", a=1))
    assert cmd.TakeCard(card="") in legal(optional, 0)
    optional, _ = when(optional, 0, cmd.TakeCard(card=""))
    assert optional.task is None and optional.players[1].cards == ("crane",)


def test_wedding_and_master_merchant_need_strictly_richer_seats():
    state = given(
        fresh(),
        town(0, A),
        town(1, B),
        town(1, corner(16, 3)),
        gain(1, ore=1, wool=3),
        town(2, corner(18, 3)),
    )
    state = hold(state, 0, "wedding", "master_merchant")
    assert {(c.card, c.a) for c in plays(state)} == {("wedding", -1), ("master_merchant", 1)}
    wed, _ = when(state, 0, P(card="wedding"))
    assert wed.task.seats == (1,) and wed.task.amounts == (2,)
    wed, _ = when(wed, 1, cmd.SelectCards(cards=cards(wool=2)))
    assert wed.players[0].hand == cards(wool=2)
    mm, _ = when(state, 0, P(card="master_merchant", a=1))
    mm, _ = when(mm, 0, cmd.SelectCards(cards=cards(ore=1, wool=1)))
    assert mm.players[0].hand == cards(ore=1, wool=1)


def test_monopolies_take_at_most_two_resources_or_one_commodity_each():
    state = given(fresh(), gain(1, ore=5), gain(2, ore=1), gain(1, coin=3))
    state, _ = when(
        hold(state, 0, "resource_monopoly", "trade_monopoly"), 0, P(card="resource_monopoly", a=4)
    )
    assert state.players[0].hand == cards(ore=3)
    state, _ = when(state, 0, P(card="trade_monopoly", a=7))
    assert state.players[0].hand == cards(ore=3, coin=1)


def test_commercial_harbor_swaps_a_resource_for_a_commodity_of_their_choice():
    state = given(fresh(), gain(0, brick=2), gain(1, cloth=1, paper=1))
    state, _ = when(hold(state, 0, "commercial_harbor"), 0, P(card="commercial_harbor"))
    state, _ = when(state, 0, cmd.HarborExchange(seat=1, kind=0))
    assert actors(state) == frozenset({1}) and {c.choice for c in legal(state, 1)} == {5, 6}
    state, _ = when(state, 1, cmd.Choose(choice=6))
    assert state.players[0].hand == cards(brick=1, cloth=1)
    assert cmd.HarborExchange(seat=1, kind=0) not in legal(state, 0)


def test_merchant_gives_a_point_and_moves_only_by_another_card():
    state = hold(given(fresh(), town(0, A), town(1, B)), 0, "merchant", "merchant")
    state, _ = when(state, 0, P(card="merchant", a=0))
    assert (state.merchant, state.merchant_owner) == (0, 0)
    assert P(card="merchant", a=0) not in legal(state, 0)
    from shared.games.catan.rules.victory import public_points

    assert public_points(state, 0) == 2


def test_warlord_activates_every_knight_but_they_cannot_act_this_turn():
    state = given(fresh(), *(road(0, p) for p in path_spots(*TOP)), knight(0, TOP[0]), knight(0, TOP[1], 2))
    state, _ = when(hold(state, 0, "warlord"), 0, P(card="warlord"))
    assert all(k.active for k in state.knights)
    assert not [c for c in legal(state, 0) if isinstance(c, cmd.MoveKnight)]


def test_merchant_fleet_names_one_kind_for_this_turn():
    state, _ = when(
        hold(given(fresh(), gain(0, coin=2)), 0, "merchant_fleet"), 0, P(card="merchant_fleet", a=7)
    )
    assert cmd.TradeBank(give=7, get=0) in legal(state, 0)
    state, _ = when(state, 0, cmd.EndTurn())
    assert state.effects.fleet == ()


def test_crane_is_playable_only_when_a_discounted_improvement_is_affordable():
    state = hold(
        given(fresh(), town(0, A, 2), gain(0, cloth=1), ev.ImprovementBought(seat=0, track=0, level=1)),
        0,
        "crane",
    )
    assert [c.card for c in plays(state)] == ["crane"]
    state, _ = when(state, 0, P(card="crane"))
    state, _ = when(state, 0, cmd.BuyImprovement(track=0))
    assert state.players[0].levels[0] == 2


def test_progress_cards_are_not_playable_on_another_seats_turn():
    state = hold(fresh(), 1, "resource_monopoly")
    assert rejected(state, 1, P(card="resource_monopoly", a=0)) == "not_your_turn"


def test_gate_draws_follow_the_red_die_and_the_level_clockwise_from_the_roller():
    levels = [
        ev.ImprovementBought(seat=s, track=2, level=n)
        for s, top in ((1, 1), (2, 3), (3, 5))
        for n in range(1, top + 1)
    ]
    state = given(fresh(), *levels)
    for red in range(1, 7):
        _, events = roll_until(
            state, lambda d, r=red: d.event == "science" and d.red == r and d.yellow + d.red != 7
        )
        drawn = [e.seat for e in of(events, ev.CardDrawnShadow)]
        expected = [s for s, level in ((1, 1), (2, 3), (3, 5)) if red <= level + 1]
        assert drawn == expected, red


def test_aqueduct_choice_takes_a_resource_or_declines():
    state = given(
        fresh(), town(1, corner(12, 3)), *(ev.ImprovementBought(seat=1, track=2, level=n) for n in (1, 2, 3))
    )
    state, _ = roll_until(state, lambda d: d.event != "ship" and d.yellow + d.red not in (7, 9, 10))
    assert state.task.kind == "aqueduct" and cmd.Choose(choice=-1) in legal(state, 1)
    state, _ = when(state, 1, cmd.Choose(choice=4))
    assert state.players[1].hand[4] == 1


def _deserting(**options):
    state = given(fresh(**options), *(road(0, p) for p in path_spots(*TOP)), knight(1, A, 3, active=True))
    return hold(state, 0, "deserter")


def test_deserter_same_or_lower_lets_the_player_choose_the_replacement_strength():
    state, _ = when(_deserting(deserter_replacement="same_or_lower"), 0, P(card="deserter", a=1))
    assert state.task.kind == "deserter_strength" and actors(state) == frozenset({0})
    assert legal(state, 0) == [cmd.Choose(choice=3), cmd.Choose(choice=2), cmd.Choose(choice=1)]
    assert rejected(state, 0, cmd.Choose(choice=4)) == "illegal_move"
    state, _ = when(state, 0, cmd.Choose(choice=2))
    assert state.task.kind == "deserter_place" and cmd.Choose(choice=-1) in legal(state, 0)
    state, _ = when(state, 0, cmd.Choose(choice=TOP[2]))
    k = knight_at(state, TOP[2])
    assert (k.owner, k.strength, k.active) == (0, 2, True) and state.task is None


def test_deserter_same_or_lower_offers_only_strengths_with_a_piece_left():
    state = given(
        _deserting(deserter_replacement="same_or_lower"), knight(0, TOP[4], 2), knight(0, TOP[6], 2)
    )
    state, _ = when(state, 0, P(card="deserter", a=1))
    assert [c.choice for c in legal(state, 0)] == [3, 1]
    state = given(state, knight(0, TOP[0], 3), knight(0, TOP[1], 3))  # now only basic pieces remain
    from shared.games.catan.rules.progress.politics import deserter_strengths

    assert deserter_strengths(state, 0, 3) == [1]


def test_deserter_same_strength_option_has_no_strength_choice():
    state, _ = when(_deserting(), 0, P(card="deserter", a=1))
    assert state.task.kind == "deserter_place" and state.task.data[0] == 3


def test_two_commercial_harbors_give_two_exchanges_with_each_opponent():
    """Commercial Harbor: "During this turn you may offer each opponent one resource card,
    face down; the opponent gives you one commodity of their choice." Each card gives its
    own exchange with each opponent: two cards in one turn, two exchanges with each."""
    state = given(fresh(), gain(0, brick=4), gain(1, cloth=2), gain(2, paper=1))
    state = hold(state, 0, "commercial_harbor", "commercial_harbor")
    state, _ = when(state, 0, P(card="commercial_harbor"))
    state, _ = when(state, 0, P(card="commercial_harbor"))
    for _ in range(2):
        state, _ = when(state, 0, cmd.HarborExchange(seat=1, kind=0))
        state, _ = when(state, 1, cmd.Choose(choice=6))
    assert state.players[1].hand == cards(brick=2) and state.players[0].hand == cards(brick=2, cloth=2)
    assert cmd.HarborExchange(seat=1, kind=0) not in legal(state, 0)  # two cards, two exchanges
    assert cmd.HarborExchange(seat=2, kind=0) in legal(state, 0)
    state, _ = when(state, 0, cmd.HarborExchange(seat=2, kind=0))
    state, _ = when(state, 2, cmd.Choose(choice=5))
    # Seat 2 holds no commodity for the second exchange: it is void and seat 0 keeps its card.
    state, events = when(state, 0, cmd.HarborExchange(seat=2, kind=0))
    assert state.task is None and not of(events, ev.CardsTaken) and state.players[0].hand[0] == 1
    assert state.effects.harbor_targets == (3,) * 2
