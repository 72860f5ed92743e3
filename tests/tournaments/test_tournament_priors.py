"""A player account enters a tournament with its ladder rating: the tournament's ratings start there."""

from __future__ import annotations

from shared.tournaments.commands import Create, Register
from shared.tournaments.ratings import tournament_ratings
from tests.tournaments.helpers import Driver


def test_an_account_starts_from_its_ladder_rating_and_a_newcomer_from_the_default() -> None:
    t = Driver()
    t.send(Create(tournament_id="t", game="highcard", rounds=1))
    t.send(Register(player_id="pl1", name="Ada", account=True, rating=(31.5, 4.25)))
    t.send(Register(player_id="p2", name="Bob"))
    assert t.state is not None
    (ada,) = [p for p in t.state.players if p.player_id == "pl1"]
    assert ada.account and ada.rating == (31.5, 4.25)
    rated = tournament_ratings(t.state)
    assert (rated["pl1"].mu, rated["pl1"].sigma) == (31.5, 4.25)
    assert (rated["p2"].mu, rated["p2"].sigma) == (25.0, 25.0 / 3)
