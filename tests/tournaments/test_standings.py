"""Standings: placing points, every tie-break level, elimination order."""

from __future__ import annotations

from collections.abc import Sequence

from shared.kernel.rng import Rng
from shared.tournaments.commands import Create, Placing
from shared.tournaments.setup import resolve
from shared.tournaments.standings import placing_points, points, standings
from shared.tournaments.state import Player, Round, Table, TournamentState
from tests.tournaments.helpers import SEED, make, play_round

Game = tuple[tuple[str, int, int], ...]  # (player, place, score) in seat order


def state_of(seeds: Sequence[str], rounds: Sequence[tuple[Sequence[Game], Sequence[str]]], **opts: object):
    settings = resolve(Create(tournament_id="t", game="g", rounds=len(rounds) or 1, **opts))  # type: ignore[arg-type]
    players = tuple(
        Player(player_id=p, name=p.upper(), kind="human", bot=None, seed=i) for i, p in enumerate(seeds, 1)
    )
    built = tuple(
        Round(
            number=n,
            tables=tuple(
                Table(
                    table=i,
                    players=tuple(p for p, _, _ in game),
                    game_id=f"g{n}.{i}",
                    placings=tuple(
                        Placing(seat=s, player_id=p, place=pl, score=sc) for s, (p, pl, sc) in enumerate(game)
                    ),
                )
                for i, game in enumerate(games, 1)
            ),
            byes=tuple(byes),
            complete=True,
        )
        for n, (games, byes) in enumerate(rounds, 1)
    )
    return TournamentState(
        tournament_id="t", settings=settings, status="running", players=players, rounds=built
    )


def order(state: TournamentState) -> list[str]:
    return [line.player_id for line in standings(state)]


def test_placing_points_spread_over_short_tables() -> None:
    four = (3, 2, 1, 0)
    assert [placing_points(four, p, 4) for p in (1, 2, 3, 4)] == [3, 2, 1, 0]
    assert [placing_points(four, p, 3) for p in (1, 2, 3)] == [3, 2, 0]
    assert [placing_points(four, p, 2) for p in (1, 2)] == [3, 0]
    assert [placing_points(four, p, 4) for p in (1, 1, 3, 3)] == [3, 3, 1, 1], "shared places"


def test_points_then_opponents_points() -> None:
    # a and c both have one point; a beat b (who later won), c beat d (who did not).
    state = state_of(
        ["c", "a", "b", "d"],
        [
            ([(("a", 1, 0), ("b", 2, 0)), (("c", 1, 0), ("d", 2, 0))], []),
            ([(("b", 1, 0), ("d", 2, 0))], ["a", "c"]),
        ],
        seats_per_table=2,
        bye_points=0,
    )
    assert points(state) == {"a": 1, "b": 1, "c": 1, "d": 0}
    lines = {line.player_id: line for line in standings(state)}
    assert (lines["a"].opponents_points, lines["c"].opponents_points) == (1, 0)
    assert order(state)[:2] == ["a", "b"] and order(state)[2:] == ["c", "d"]
    assert lines["a"].byes == 1 and lines["a"].games == 1


def test_game_score_then_head_to_head_then_seed() -> None:
    # Everybody ends on one point with two points of opposition: the game
    # score splits {x, y} from {u, v}; head to head then beats seed order.
    state = state_of(
        ["y", "u", "v", "x"],
        [
            ([(("x", 1, 5), ("y", 2, 0)), (("v", 1, 3), ("u", 2, 0))], []),
            ([(("y", 1, 5), ("v", 2, 0)), (("u", 1, 3), ("x", 2, 0))], []),
        ],
        seats_per_table=2,
    )
    assert {line.points for line in standings(state)} == {1}
    assert {line.opponents_points for line in standings(state)} == {2}
    assert order(state) == ["x", "y", "v", "u"]


def test_seed_is_the_last_word() -> None:
    state = state_of(["b", "a"], [([(("a", 1, 0), ("b", 1, 0))], [])], seats_per_table=2)
    assert order(state) == ["b", "a"]
    assert [line.rank for line in standings(state)] == [1, 2]


def test_elimination_ranks_by_round_reached_first() -> None:
    driver = make(8, format="elimination", seats_per_table=4, qualifiers=2)
    rng = Rng(SEED, 5)
    play_round(driver, rng)
    play_round(driver, rng)
    final = driver.now.rounds[-1]
    assert len(final.tables) == 1 and len(final.tables[0].players) == 4
    placings = final.tables[0].placings
    assert placings is not None
    place = {p.player_id: p.place for p in placings}
    top = order(driver.now)[:4]
    assert set(top) == set(place)
    assert [place[p] for p in top] == sorted(place.values()), "the final's places decide the top"
    assert {line.reached for line in standings(driver.now)[:4]} == {2}
    assert {line.reached for line in standings(driver.now)[4:]} == {1}
