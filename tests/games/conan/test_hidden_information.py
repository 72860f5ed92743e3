"""Non-interference on each kind of hidden fact, and replay determinism."""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.conan import GAME
from shared.games.conan import commands as c
from shared.games.conan.state import AgeChange, Turn
from shared.kernel.playout import play
from tests.games.conan.helpers import edit_province, edit_seat, opening, when
from tests.games.contract_checks import check_non_interference, encoded, seeds


def _varied(state, owner, field, trials=8):
    """Non-interference for ``owner``'s secrets, and that ``field`` of its seat did vary."""
    out = check_non_interference(GAME, state, owner, trials=trials)
    assert any(getattr(s.seats[owner], field) != getattr(state.seats[owner], field) for s in out), field
    return out


def test_sealed_bid_is_hidden_until_all_are_in():
    state = opening(4)
    state, _ = when(state, 2, GAME.legal(state, 2)[0])
    assert state.seats[2].sealed_bid is not None
    for s in _varied(state, 2, "sealed_bid"):
        bid = s.seats[2].sealed_bid
        assert bid.token in s.seats[2].bid_available and bid.card in s.seats[2].strategy_hand


def test_hands_and_kingdom_deck_order_are_hidden():
    state = opening(3)
    _varied(state, 1, "kingdom_hand")
    _varied(state, 1, "strategy_hand")
    others = check_non_interference(GAME, state, None)
    assert any(s.seats[1].kingdom_deck != state.seats[1].kingdom_deck for s in others)


def test_server_only_orders_are_hidden_from_everyone():
    state = opening(4)
    varied = check_non_interference(GAME, state, None)
    for name in ("strategy_deck", "adventure_deck", "objective_deck"):
        assert any(getattr(s, name) != getattr(state, name) for s in varied), name
        assert all(sorted(getattr(s, name)) == sorted(getattr(state, name)) for s in varied), name
    # Face-down tokens trade places between the track and the container.
    assert any(s.container != state.container for s in varied)
    for s in varied:
        assert (len(s.container), len(s.track)) == (len(state.container), len(state.track))
        assert sorted(s.container + s.track) == sorted(state.container + state.track)


def test_committed_contest_card_is_hidden_until_revealed():
    state = opening(2)
    state = edit_province(state, "nemedia", owner=1, marker="fort")
    state = replace(state, phases=(Turn(seat=0, step="cards", conan_done=True),), fate_pool=("MILITARY",))
    state, _ = when(state, 0, c.TakeDie(action="military"))
    state, _ = when(state, 0, c.MoveArmy(frm="aquilonia", to="nemedia", units=3))
    state, _ = when(state, 0, c.Attack(province="nemedia"))
    state = edit_seat(state, 0, strategy_hand=("desert_raid", "open_charge", "sappers"))
    state, _ = when(state, 0, c.CommitCard(cards=("open_charge",)))
    for s in _varied(state, 0, "sealed_cards", trials=12):
        assert len(s.seats[0].sealed_cards) == 1 and s.seats[0].sealed_cards[0] in s.seats[0].strategy_hand


def test_adventure_tokens_and_secret_category_are_hidden():
    state = opening(2)
    state = replace(state, phases=(AgeChange(step=5),))
    state = edit_seat(state, 0, tokens=(1, 2, 3))
    state = replace(state, container=tuple(t for t in state.container if t not in (1, 2, 3)))
    state, _ = when(state, 0, c.ChooseCategory(category="women"))
    _varied(state, 0, "sealed_category")
    _varied(state, 0, "tokens")


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
