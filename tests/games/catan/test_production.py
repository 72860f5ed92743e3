"""Production, commodities, the bank shortage and the Aqueduct (docs/rules/catan.md §5, §11.1)."""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.catan import events as ev
from shared.games.catan.cards import bundle
from tests.games.catan.helpers import cards, corner, fresh, gain, given, of, produce, town

# Base beginner board: hex 4 is hills 6, hex 0 mountains 10, hex 2 forest 9, hex 5 pasture 4.


def gained(events):
    return {e.seat: e.cards for e in of(events, ev.CardsGained)}


def test_settlement_one_city_two_in_the_base_game():
    state = given(fresh(ck=False), town(0, corner(4, 0)), town(1, corner(4, 2), level=2))
    assert gained(produce(state, 6)) == {0: cards(brick=1), 1: cards(brick=2)}


def test_robber_hex_produces_nothing():
    state = given(fresh(ck=False), town(0, corner(4, 0)), ev.RobberMoved(hex=4))
    assert gained(produce(state, 6)) == {}


def test_ck_city_gives_a_commodity_on_forest_pasture_mountains_but_two_on_hills():
    state = given(fresh(ck=False), town(0, corner(4, 0)))
    state = replace(state, options=replace(state.options, expansion="ck"), bank=(19,) * 5 + (12,) * 3)
    state = given(
        state, town(1, corner(2, 3), level=2), town(2, corner(4, 2), level=2), town(3, corner(0, 5))
    )
    assert gained(produce(state, 9)) == {1: cards(lumber=1, paper=1)}
    assert gained(produce(state, 6)) == {0: cards(brick=1), 2: cards(brick=2)}
    assert gained(produce(state, 10)) == {0: cards(ore=1), 1: cards(brick=2), 3: cards(ore=1)}


def test_bank_shortage_pays_nobody_of_that_kind_but_a_lone_recipient_takes_the_rest():
    state = given(fresh(ck=False), town(0, corner(4, 0)), town(1, corner(4, 2), level=2))
    state = replace(state, bank=bundle(brick=2, lumber=19, wool=19, grain=19, ore=19))
    assert gained(produce(state, 6)) == {}
    lone = given(fresh(ck=False), town(1, corner(4, 2), level=2))
    lone = replace(lone, bank=bundle(brick=1, lumber=19, wool=19, grain=19, ore=19))
    assert gained(produce(lone, 6)) == {1: cards(brick=1)}
    strict = replace(lone, options=replace(lone.options, bank_shortage="nobody"))
    assert gained(produce(strict, 6)) == {}


def test_aqueduct_offers_a_resource_to_a_level_three_scientist_who_got_nothing():
    state = given(fresh(), town(0, corner(4, 0)), town(1, corner(12, 3)))
    for level in (1, 2, 3):
        state = given(state, ev.ImprovementBought(seat=1, track=2, level=level))
    events = produce(state, 6)
    opened = of(events, ev.TaskOpened)
    assert opened and opened[0].task.kind == "aqueduct" and opened[0].task.seats == (1,)


def test_aqueduct_not_triggered_when_the_roll_paid_something():
    state = given(fresh(), town(1, corner(12, 3)), gain(1, grain=2))
    for level in (1, 2, 3):
        state = given(state, ev.ImprovementBought(seat=1, track=2, level=level))
    # Hex 12 is pasture 10 on the C&K beginner board.
    assert gained(produce(state, 10)) == {1: cards(wool=1)}
    assert not of(produce(state, 10), ev.TaskOpened)


def _two_aqueducts(bank):
    from msgspec.structs import replace as rep

    state = given(fresh(), town(1, corner(12, 3)), town(2, corner(2, 0)))
    for seat in (1, 2):
        state = given(state, *(ev.ImprovementBought(seat=seat, track=2, level=n) for n in (1, 2, 3)))
    state = rep(state, bank=bank)
    return given(state, *produce(rep(state, phase="main"), 12))


def test_aqueducts_are_chosen_one_at_a_time_so_no_later_seat_is_left_without():
    """Aqueduct: "When a production roll other than 7 gives you nothing, you may take one
    resource of your choice from the bank." With several eligible seats each takes one,
    in order (clockwise from the roller), choosing among what the bank holds after the
    seats before it: the bank's last ore going to seat 1 leaves seat 2 the other kinds."""
    from shared.games.catan import commands as cmd
    from shared.games.catan.legal import actors, legal
    from tests.games.catan.helpers import when

    state = _two_aqueducts((19, 19, 19, 19, 1, 12, 12, 12))
    assert state.task.kind == "aqueduct" and actors(state) == frozenset({1})
    state, _ = when(state, 1, cmd.Choose(choice=4))
    assert state.task.kind == "aqueduct" and actors(state) == frozenset({2})
    assert cmd.Choose(choice=4) not in legal(state, 2) and cmd.Choose(choice=3) in legal(state, 2)
    state, _ = when(state, 2, cmd.Choose(choice=3))
    assert state.task is None and state.bank[4] == 0
    assert state.players[1].hand == cards(ore=1) and state.players[2].hand == cards(grain=1)


def test_aqueducts_stop_when_the_bank_holds_no_resource():
    """The Aqueduct takes a resource, never a commodity: once the bank's resources are gone
    the seats still waiting take nothing (the commodities left do not count)."""
    from shared.games.catan import commands as cmd
    from tests.games.catan.helpers import when

    state = _two_aqueducts((0, 0, 0, 0, 1, 12, 12, 12))
    state, _ = when(state, 1, cmd.Choose(choice=4))
    assert state.task is None and state.players[2].hand == cards()
