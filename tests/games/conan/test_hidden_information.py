"""Non-interference on each kind of hidden fact, and replay determinism."""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.conan import GAME
from shared.games.conan import commands as c
from shared.games.conan.state import AgeChange, Bid, Turn
from shared.kernel.playout import play
from tests.games.conan.helpers import edit_province, edit_seat, opening, when
from tests.games.contract_checks import check_non_interference, encoded, seeds


def _perturb_seat(**fields):
    def perturb(state, owner, rng):
        changes = {k: (v(state, owner, rng) if callable(v) else v) for k, v in fields.items()}
        return edit_seat(state, owner, **changes)

    return perturb


def test_sealed_bid_is_hidden_until_all_are_in():
    state = opening(4)
    state, _ = when(state, 2, GAME.legal(state, 2)[0])
    hand = state.seats[2].strategy_hand
    perturb = _perturb_seat(
        sealed_bid=lambda s, o, r: Bid(token=r.choice((0, 3, 4, 5, 6)), card=r.choice(hand))
    )
    check_non_interference(GAME, state, perturb, 2, 4)


def test_hands_and_kingdom_deck_order_are_hidden():
    state = opening(3)
    perturb = _perturb_seat(
        kingdom_hand=lambda s, o, r: tuple(sorted(r.shuffled(s.seats[o].kingdom_deck)[:2])),
        kingdom_deck=lambda s, o, r: tuple(r.shuffled(s.seats[o].kingdom_deck)),
    )
    check_non_interference(GAME, state, perturb, 1, 3)


def test_server_only_orders_are_hidden_from_everyone():
    state = opening(4)

    def perturb(s, owner, rng):
        return replace(
            s,
            strategy_deck=tuple(rng.shuffled(s.strategy_deck)),
            adventure_deck=tuple(rng.shuffled(s.adventure_deck)),
            container=tuple(rng.shuffled(s.container)),
            objective_deck=tuple(rng.shuffled(s.objective_deck)),
        )

    check_non_interference(GAME, state, perturb, None, 4)


def test_committed_contest_card_is_hidden_until_revealed():
    state = opening(2)
    state = edit_province(state, "nemedia", owner=1, marker="fort")
    state = replace(state, phases=(Turn(seat=0, step="cards", conan_done=True),), fate_pool=("MILITARY",))
    state, _ = when(state, 0, c.TakeDie(action="military"))
    state, _ = when(state, 0, c.MoveArmy(frm="aquilonia", to="nemedia", units=3))
    state, _ = when(state, 0, c.Attack(province="nemedia"))
    state = edit_seat(state, 0, strategy_hand=("open_charge", "sappers"))
    state, _ = when(state, 0, c.CommitCard(cards=("open_charge",)))
    check_non_interference(GAME, state, _perturb_seat(sealed_cards=("sappers",)), 0, 2, trials=1)


def test_adventure_tokens_and_secret_category_are_hidden():
    state = opening(2)
    state = replace(state, phases=(AgeChange(step=5),))
    state = edit_seat(state, 0, tokens=(1, 2, 3))
    state, _ = when(state, 0, c.ChooseCategory(category="women"))
    perturb = _perturb_seat(
        sealed_category=lambda s, o, r: r.choice(("monsters", "treasures", "women")),
        tokens=lambda s, o, r: tuple(sorted(r.shuffled(range(40, 66))[:3])),
    )
    check_non_interference(GAME, state, perturb, 0, 2)


def test_replay_is_deterministic():
    seed = seeds(1, salt=11)[0]
    a = play(GAME, 3, seed)
    b = play(GAME, 3, seed)
    assert [encoded(e) for e in a.events] == [encoded(e) for e in b.events]
    assert encoded(GAME.fold(a.events)) == encoded(a.state)


def test_spectator_sees_counts_not_cards():
    state = opening(4)
    spectator = GAME.view(state, None)
    assert spectator.me is None
    assert [s.strategy_cards for s in spectator.seats] == [len(s.strategy_hand) for s in state.seats]
    assert GAME.view(state, 1).me.kingdom_hand == state.seats[1].kingdom_hand
