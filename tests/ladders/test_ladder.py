"""A game's ladder: a pure fold of its rated tables, equal to the tournaments' own OpenSkill."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from shared.ladders import (
    PROVISIONAL_GAMES,
    Rated,
    RatedPlacing,
    evolve,
    fold,
    leaderboard,
    player_ladder,
    prior,
)
from shared.ladders.ladder import LadderState
from shared.tournaments.commands import Placing
from shared.tournaments.ratings import ratings

PLAYERS = [f"p{i}" for i in range(6)]


@st.composite
def tables(draw: st.DrawFn) -> list[Rated]:
    out = []
    for n in range(draw(st.integers(0, 12))):
        who = draw(st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=4, unique=True))
        places = sorted(draw(st.lists(st.integers(1, len(who)), min_size=len(who), max_size=len(who))))
        # Competition ranking: a place is one more than the number of players ahead.
        ranked = [1 + sum(q < p for q in places) for p in places]
        out.append(
            Rated(
                table_id=f"t{n}",
                source="casual",
                placings=tuple(RatedPlacing(player_id=w, place=p) for w, p in zip(who, ranked, strict=True)),
                at_ms=n,
            )
        )
    return out


@given(tables())
def test_the_ladder_equals_the_tournaments_ratings_replayed_in_the_same_order(log: list[Rated]) -> None:
    state = fold("g", log)
    batch = ratings(
        [
            tuple(
                Placing(seat=i, player_id=p.player_id, place=p.place, score=0)
                for i, p in enumerate(t.placings)
            )
            for t in log
        ]
    )
    played = {p.player_id for t in log for p in t.placings}
    assert set(state.entries) == played
    for pid in played:
        entry = state.entries[pid]
        assert (entry.mu, entry.sigma) == (batch[pid].mu, batch[pid].sigma)
        assert entry.games == batch[pid].games == len(entry.history)


@given(tables(), st.data())
def test_a_table_rated_again_changes_nothing(log: list[Rated], data: st.DataObject) -> None:
    state = fold("g", log)
    if log:
        again = data.draw(st.sampled_from(log))
        assert evolve(state, again) == state
    # Folding in two parts (a restart from a cached state) gives the same ladder.
    cut = data.draw(st.integers(0, len(log)))
    assert fold("g", log) == _fold_from(fold("g", log[:cut]), log[cut:])


def _fold_from(state: LadderState, rest: list[Rated]) -> LadderState:
    for event in rest:
        state = evolve(state, event)
    return state


@given(tables())
def test_the_leaderboard_is_ordered_and_marks_provisional_players(log: list[Rated]) -> None:
    state = fold("g", log)
    board = leaderboard(state, {"p0": "Zero"}, {"p1": True})
    assert [line.rank for line in board.lines] == list(range(1, len(board.lines) + 1))
    assert [line.rating for line in board.lines] == sorted(
        (line.rating for line in board.lines), reverse=True
    )
    assert board.tables == len(log)
    for line in board.lines:
        assert line.provisional == (line.games < PROVISIONAL_GAMES)
        assert line.name == ("Zero" if line.player_id == "p0" else line.player_id)
        assert line.bot == (line.player_id == "p1")
        mine = player_ladder(state, line.player_id)
        assert (
            mine is not None
            and mine.rating == line.rating
            and prior(state, line.player_id) == (mine.mu, mine.sigma)
        )
        assert line.wins == sum(1 for point in mine.history if point.place == 1)


def test_a_one_player_table_rates_nobody() -> None:
    lonely = Rated(table_id="t", source="casual", placings=(RatedPlacing(player_id="a", place=1),))
    assert fold("g", [lonely]) == LadderState(game="g")
    assert prior(LadderState(game="g"), "a") is None
