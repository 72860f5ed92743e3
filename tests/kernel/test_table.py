"""The table layer: generic checks before a game's rules, and the seed reveal."""

import pytest

from shared.kernel import table as tables
from shared.kernel.playout import play
from shared.kernel.rejection import RuleViolation
from shared.kernel.rng import commitment
from shared.kernel.table import TableFinished, TableOpened, TableSealed
from tests.support.highcard import GAME, Play

SEED = b"\x07" * 32


def opened(seats: int = 2) -> tables.Table:
    return tables.fold(GAME, tables.open_table(GAME, seats, {}, SEED, ("h0", "h1")[:seats], 123))


def test_opening_publishes_a_commitment_and_seals_the_seed() -> None:
    events = tables.open_table(GAME, 2, {"hand_size": 2}, SEED, ("h0", "h1"), 123)
    first, sealed = events[0], events[1]
    assert isinstance(first, TableOpened) and first.commitment == commitment(SEED)
    assert SEED.hex() not in repr(first)
    assert isinstance(sealed, TableSealed) and sealed.seed == SEED.hex()
    assert tables.visibility(GAME, sealed).__class__.__name__ == "ServerOnly"
    assert first.options == {"deck_size": 20, "hand_size": 2}


@pytest.mark.parametrize(
    ("seats", "options", "code"),
    [
        (1, {}, "bad_seat_count"),
        (5, {}, "bad_seat_count"),
        (2, {"hand_size": "x"}, "bad_options"),
        (2, {"nope": 1}, "bad_options"),
    ],
)
def test_bad_tables_are_refused_with_a_code(seats: int, options: dict, code: str) -> None:
    with pytest.raises(RuleViolation) as exc:
        tables.open_table(GAME, seats, options, SEED, ("h",) * seats, 0)
    assert exc.value.code == code


def test_out_of_turn_unknown_seat_and_finished_games_are_refused() -> None:
    table = opened()
    with pytest.raises(RuleViolation) as exc:
        tables.decide(GAME, table, 1, Play(card=table.state.hands[1][0]))
    assert exc.value.code == "not_your_turn" and exc.value.details == {"awaited": [0]}
    with pytest.raises(RuleViolation) as exc:
        tables.decide(GAME, table, 9, Play(card=1))
    assert exc.value.code == "unknown_seat"


def test_the_last_move_finishes_the_table_and_reveals_the_seed() -> None:
    table = opened()
    while not table.over:
        seat = min(GAME.actors(table.state))
        events = tables.decide(GAME, table, seat, Play(card=table.state.hands[seat][0]))
        table = tables.fold(GAME, events, table)
    assert isinstance(events[-1], TableFinished)
    assert events[-1].seed == SEED.hex() and events[-1].result == GAME.result(table.state)
    with pytest.raises(RuleViolation) as exc:
        tables.decide(GAME, table, 0, Play(card=1))
    assert exc.value.code == "game_over"


def test_playout_opens_tables_exactly_as_the_platform_does() -> None:
    # Self-play and the reducer must draw the opening from the same stream, or
    # benchmarks and property tests would exercise different games.
    assert play(GAME, 3, SEED).opening == tuple(tables.open_table(GAME, 3, {}, SEED, (), 0)[2:])
