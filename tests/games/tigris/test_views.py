"""Views: own hand and score only; spectators see the public table (docs/rules/tigris.md §18)."""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from shared.games.tigris import GAME
from shared.games.tigris.views import Score
from tests.games.tigris.boards import build, counts, with_options


def _state():
    state = build("r K0", origin="E4", hands={0: "rrk", 1: "gg"}, bag="kkk")
    return replace(state, points=((1, 0, 2, 0), (0, 3, 0, 0)), treasures_won=(0, 2))


def test_a_seat_sees_its_own_hand_and_score_only() -> None:
    view = GAME.view(_state(), 0)
    assert view.hand == counts("rrk") and view.hand_counts == (3, 2) and view.bag_count == 3
    assert view.scores == (Score(seat=0, points=(1, 0, 2, 0), treasures=0),)


def test_spectators_see_no_hand_and_no_score() -> None:
    view = GAME.view(_state(), None)
    assert view.hand is None and view.scores == ()
    encoded = msgspec.json.decode(msgspec.json.encode(view))
    assert set(encoded) == {
        "seats", "active", "actions_done", "phase", "tiles", "monuments", "treasures",
        "catastrophes", "marker", "leaders", "catastrophes_left", "hand_counts", "bag_count",
        "seat", "hand", "scores",
    }  # fmt: skip


def test_open_scoring_shows_everyone_everything_but_hands() -> None:
    state = with_options(_state(), open_scoring=True)
    assert len(GAME.view(state, None).scores) == 2
    assert GAME.view(state, 1).scores[0] == Score(seat=0, points=(1, 0, 2, 0), treasures=0)
    assert GAME.view(state, 1).hand == counts("gg")
