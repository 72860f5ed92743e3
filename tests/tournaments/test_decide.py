"""The rules: rejections with stable codes, idempotent results, purity."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.infra.settings import Settings
from shared.kernel.contract import Result, Standing
from shared.kernel.rejection import RuleViolation
from shared.kernel.rng import Rng
from shared.tournaments import codes
from shared.tournaments.commands import (
    Create,
    Finish,
    OpenTable,
    PairRound,
    Placing,
    RecordResult,
    Register,
    Start,
    Withdraw,
)
from shared.tournaments.decide import MAX_ENTRIES, decide
from shared.tournaments.events import Created, ResultRecorded, RoundCompleted
from shared.tournaments.evolve import evolve
from shared.tournaments.results import record_command
from shared.tournaments.settings import ClockSettings
from shared.tournaments.state import current_round
from tests.tournaments.helpers import SEED, Driver, encode, make, play_round, random_placings


def rejects(driver: Driver, command: Any, code: str) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        driver.send(command)
    assert info.value.code == code, info.value
    assert info.value.message
    return info.value


@pytest.mark.parametrize(
    ("overrides", "problem"),
    [
        ({"seats_per_table": 5}, "seats per table"),
        ({"seats_per_table": 1}, "seats per table"),
        ({"format": "swiss", "rounds": 0}, "at least one round"),
        ({"points": (1, 2)}, "never grow"),
        ({"points": (3, 2, 1)}, "one value per seat"),
        ({"format": "elimination", "qualifiers": 2}, "qualifiers"),
        ({"clock": ClockSettings(initial_ms=0, per_move_ms=0)}, "initial time or a per-move limit"),
        ({"clock": ClockSettings(initial_ms=-5)}, "negative"),
        ({"min_table_size": 3}, "minimum table size"),
    ],
)
def test_bad_settings_are_rejected_with_every_reason(overrides: dict[str, Any], problem: str) -> None:
    request = {"tournament_id": "t", "game": "highcard", "rounds": 3, **overrides}
    error = rejects(Driver(), Create(**request), codes.INVALID_SETTINGS)
    assert any(problem in p for p in error.details["problems"])


def test_defaults_are_resolved_into_the_created_event() -> None:
    for seats, points, bye in [(2, (1, 0), 1), (3, (2, 1, 0), 1), (4, (3, 2, 1, 0), 2)]:
        (event,) = decide(
            None, Create(tournament_id="t", game="g", seats_per_table=seats, rounds=1), Rng(SEED, 0)
        )
        assert isinstance(event, Created)
        assert (event.settings.points, event.settings.bye_points) == (points, bye)
        assert event.settings.min_table_size == seats


def test_lifecycle_rejections() -> None:
    driver = Driver()
    rejects(driver, Start(), codes.NO_TOURNAMENT)
    driver.send(Create(tournament_id="t", game="g", rounds=2))
    rejects(driver, Create(tournament_id="t", game="g", rounds=2), codes.ALREADY_CREATED)
    rejects(driver, PairRound(), codes.NOT_STARTED)
    driver.send(Register(player_id="a", name="Ada"))
    rejects(driver, Register(player_id="a", name="Ada again"), codes.ALREADY_REGISTERED)
    rejects(driver, Register(player_id="b", name="Bot", kind="bot"), codes.INVALID_PLAYER)
    rejects(driver, Register(player_id="b", name="  "), codes.INVALID_PLAYER)
    rejects(driver, Start(), codes.NOT_ENOUGH_PLAYERS)
    rejects(driver, Withdraw(player_id="zed"), codes.UNKNOWN_PLAYER)
    driver.send(Register(player_id="b", name="Bot", kind="bot", bot="random"))
    driver.send(Register(player_id="c", name="Cy"))
    driver.send(Start())
    rejects(driver, Start(), codes.ALREADY_STARTED)
    rejects(driver, Register(player_id="d", name="Late"), codes.ALREADY_STARTED)
    driver.send(PairRound())
    rejects(driver, PairRound(), codes.ROUND_RUNNING)
    rejects(driver, Finish(), codes.ROUND_RUNNING)
    play_round_rest(driver)
    driver.send(Withdraw(player_id="c"))
    rejects(driver, Withdraw(player_id="c"), codes.ALREADY_WITHDRAWN)
    driver.send(PairRound())
    rnd = current_round(driver.now)
    assert rnd is not None and "c" not in {p for t in rnd.tables for p in t.players} | set(rnd.byes)
    play_round_rest(driver)
    rejects(driver, PairRound(), codes.NO_MORE_ROUNDS)
    driver.send(Finish())
    rejects(driver, Register(player_id="e", name="Eve"), codes.FINISHED)


def play_round_rest(driver: Driver) -> None:
    rnd = current_round(driver.now)
    assert rnd is not None
    for table in rnd.tables:
        game_id = f"g{rnd.number}.{table.table}"
        driver.send(OpenTable(round=rnd.number, table=table.table, game_id=game_id))
        driver.send(RecordResult(game_id=game_id, placings=random_placings(table.players, Rng(SEED, 7))))


def test_tables_open_once() -> None:
    driver = make(4, seats_per_table=2, rounds=2)
    driver.send(PairRound())
    rejects(driver, OpenTable(round=2, table=1, game_id="x"), codes.WRONG_ROUND)
    rejects(driver, OpenTable(round=1, table=9, game_id="x"), codes.UNKNOWN_TABLE)
    assert driver.send(OpenTable(round=1, table=1, game_id="x"))
    assert driver.send(OpenTable(round=1, table=1, game_id="x")) == [], "redelivery is a no-op"
    rejects(driver, OpenTable(round=1, table=1, game_id="y"), codes.TABLE_ALREADY_OPEN)
    rejects(driver, OpenTable(round=1, table=2, game_id="x"), codes.GAME_IN_USE)


def test_recording_a_result_is_idempotent_and_conflicts_are_rejected() -> None:
    driver = make(4, seats_per_table=2, rounds=1)
    driver.send(PairRound())
    rnd = current_round(driver.now)
    assert rnd is not None
    (t1, t2) = rnd.tables
    driver.send(OpenTable(round=1, table=1, game_id="g1"))
    driver.send(OpenTable(round=1, table=2, game_id="g2"))
    rejects(driver, RecordResult(game_id="nope", placings=()), codes.UNKNOWN_GAME)
    a, b = t1.players
    win = (Placing(seat=0, player_id=a, place=1, score=3), Placing(seat=1, player_id=b, place=2, score=1))
    wrong_player = (win[0], Placing(seat=1, player_id=a, place=2, score=1))
    rejects(driver, RecordResult(game_id="g1", placings=wrong_player), codes.INVALID_RESULT)
    rejects(driver, RecordResult(game_id="g1", placings=win[:1]), codes.INVALID_RESULT)
    bad_places = (win[0], Placing(seat=1, player_id=b, place=3, score=1))
    rejects(driver, RecordResult(game_id="g1", placings=bad_places), codes.INVALID_RESULT)
    events = driver.send(RecordResult(game_id="g1", placings=win))
    assert [type(e) for e in events] == [ResultRecorded]
    before = encode(driver.now)
    assert driver.send(RecordResult(game_id="g1", placings=win)) == []
    assert driver.send(RecordResult(game_id="g1", placings=win[::-1])) == [], "seat order does not matter"
    assert encode(driver.now) == before
    flipped = (Placing(seat=0, player_id=a, place=2, score=1), Placing(seat=1, player_id=b, place=1, score=3))
    rejects(driver, RecordResult(game_id="g1", placings=flipped), codes.RESULT_CONFLICT)
    c, d = t2.players
    shared = (Placing(seat=0, player_id=c, place=1, score=2), Placing(seat=1, player_id=d, place=1, score=2))
    events = driver.send(RecordResult(game_id="g2", placings=shared))
    assert [type(e) for e in events] == [ResultRecorded, RoundCompleted]


def test_a_game_result_maps_to_a_record_command() -> None:
    driver = make(3, seats_per_table=3, rounds=1)
    driver.send(PairRound())
    rnd = current_round(driver.now)
    assert rnd is not None
    driver.send(OpenTable(round=1, table=1, game_id="g1"))
    result = Result(
        standings=(
            Standing(seat=2, place=1, score=9),
            Standing(seat=0, place=2, score=4),
            Standing(seat=1, place=2, score=4),
        ),
        reason="hands_empty",
    )
    command = record_command(driver.now, "g1", result, at_ms=1234)
    assert command is not None
    assert [(p.seat, p.player_id, p.place) for p in command.placings] == [
        (i, p, (2, 2, 1)[i]) for i, p in enumerate(rnd.tables[0].players)
    ]
    assert command.reason == "hands_empty" and command.at_ms == 1234
    assert record_command(driver.now, "other", result) is None
    driver.send(command)
    assert driver.now.status == "running" and driver.now.rounds[0].complete


commands = st.one_of(
    st.builds(Register, player_id=st.sampled_from(["p01", "p02", "x"]), name=st.just("N")),
    st.builds(Withdraw, player_id=st.sampled_from(["p01", "p05", "x"])),
    st.just(Start()),
    st.just(PairRound()),
    st.just(Finish()),
    st.builds(
        OpenTable,
        round=st.integers(1, 3),
        table=st.integers(1, 3),
        game_id=st.sampled_from(["g1", "g2", "g3"]),
    ),
    st.builds(RecordResult, game_id=st.sampled_from(["g1", "g2"]), placings=st.just(())),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(commands, max_size=12), st.integers(0, 2))
def test_decide_never_mutates_and_is_deterministic(script: list[Any], rounds_played: int) -> None:
    driver = make(8, seats_per_table=4, rounds=3)
    for _ in range(rounds_played):
        play_round(driver, Rng(SEED, 3))
    for command in script:
        state = driver.now
        before = encode(state)
        try:
            first = decide(state, command, Rng(SEED, 42))
        except RuleViolation as violation:
            assert violation.code and violation.message
            assert encode(state) == before
            continue
        assert encode(state) == before
        assert encode(decide(state, command, Rng(SEED, 42))) == encode(first)
        driver.send(command)


def test_a_tournament_takes_at_most_its_entries_and_a_withdrawal_frees_none() -> None:
    state = Driver()
    state.send(Create(tournament_id="t", game="highcard", rounds=1))
    bound = 3
    for i in range(bound):
        decided = decide(state.now, Register(player_id=f"p{i}", name="P"), Rng(SEED, i), bound)
        for event in decided:
            state.state = evolve(state.state, event)
    before = state.now
    with pytest.raises(RuleViolation) as full:
        decide(state.now, Register(player_id="late", name="Late"), Rng(SEED, 9), bound)
    assert (full.value.code, full.value.details) == (codes.FULL, {"limit": bound})
    assert state.now is before  # pure: nothing changed
    # A withdrawn entry stays in the state (it was paired, it has standings): still full.
    for event in decide(state.now, Withdraw(player_id="p0"), Rng(SEED, 10), bound):
        state.state = evolve(state.state, event)
    with pytest.raises(RuleViolation) as still:
        decide(state.now, Register(player_id="late", name="Late"), Rng(SEED, 11), bound)
    assert still.value.code == codes.FULL
    # A repeated registration still says what it is, full or not.
    with pytest.raises(RuleViolation) as again:
        decide(state.now, Register(player_id="p1", name="P"), Rng(SEED, 12), bound)
    assert again.value.code == codes.ALREADY_REGISTERED


def test_the_default_entry_bound_is_the_setting_default() -> None:
    assert Settings().max_tournament_entries == MAX_ENTRIES
    state = Driver()
    state.send(Create(tournament_id="t", game="highcard", rounds=1))
    for i in range(MAX_ENTRIES):
        state.send(Register(player_id=f"p{i}", name="P"))
    rejects(state, Register(player_id="one-more", name="P"), codes.FULL)
