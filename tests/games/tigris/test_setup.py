"""Setup (docs/rules/tigris.md §3): board, bag, hands, start player, and who sees what of it."""

from __future__ import annotations

import msgspec
import pytest

from shared.games.tigris import GAME
from shared.games.tigris import events as ev
from shared.games.tigris.board import STARTING_TEMPLES
from shared.games.tigris.options import Options
from shared.kernel.rng import Rng
from shared.kernel.visibility import SERVER_ONLY, Public, seat_only
from tests.games.tigris.boards import conserved


@pytest.mark.parametrize(("seats", "bag"), [(2, 131), (3, 125), (4, 119)])
def test_opening_position(seats: int, bag: int) -> None:
    opening = GAME.create(Options(), seats, Rng(b"\2" * 32, 0))
    state = GAME.fold(opening)
    assert len(state.bag) == bag and all(sum(h) == 6 for h in state.hands)
    assert state.treasures == STARTING_TEMPLES and conserved(state)
    assert state.catastrophes_left == (2,) * seats and state.active == state.first
    assert all(row == (None,) * 4 for row in state.leaders)
    assert GAME.visibility(opening[1]) == SERVER_ONLY
    drawn = [e for e in opening if isinstance(e, ev.TilesDrawn)]
    assert [GAME.visibility(e) for e in drawn] == [seat_only(e.seat) for e in drawn]
    assert all(isinstance(GAME.visibility(e), Public) for e in opening if isinstance(e, ev.TilesDrawnCount))


def test_start_player_and_bag_come_from_the_seed() -> None:
    firsts = {GAME.fold(GAME.create(Options(), 4, Rng(bytes([i]) * 32, 0))).first for i in range(12)}
    assert len(firsts) > 1
    again = GAME.create(Options(), 3, Rng(b"\5" * 32, 0))
    assert again == GAME.create(Options(), 3, Rng(b"\5" * 32, 0))


def test_table_size_is_checked() -> None:
    with pytest.raises(ValueError):
        GAME.create(Options(), 5, Rng(b"\2" * 32, 0))


def test_options_come_with_the_recommended_defaults_and_refuse_unknown_names() -> None:
    options = GAME.options()
    assert options.allow_pass and options.treasure_timing == "action" and not options.open_scoring
    assert GAME.options({"open_scoring": True}).open_scoring
    with pytest.raises(msgspec.ValidationError):
        GAME.options({"no_such_option": 1})
