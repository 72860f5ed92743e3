"""Every command and event survives JSON and MessagePack as its tagged union."""

from __future__ import annotations

import typing

import msgspec
import pytest

from shared.kernel.rng import Rng
from shared.tournaments.commands import (
    Create,
    Finish,
    OpenTable,
    PairRound,
    Placing,
    RecordResult,
    Register,
    Start,
    TournamentCommandUnion,
    Withdraw,
)
from shared.tournaments.events import TournamentEventUnion
from shared.tournaments.rounds import has_next_round
from shared.tournaments.settings import ClockSettings, SpectatorDelay
from tests.tournaments.helpers import SEED, make, play_round

COMMANDS = [
    Create(
        tournament_id="t",
        name="Spring open",
        game="tigris",
        game_options={"variant": "advanced", "n": 3},
        format="swiss",
        seats_per_table=4,
        min_table_size=3,
        rounds=3,
        clock=ClockSettings(initial_ms=600_000, increment_ms=5_000, policy="forfeit"),
        points=(5, 3, 1, 0),
        bye_points=2,
        delay=SpectatorDelay(moves=5, seconds=30),
        qualifiers=1,
        at_ms=1,
    ),
    Register(player_id="p1", name="Ada", kind="bot", bot="greedy"),
    Withdraw(player_id="p1"),
    Start(),
    PairRound(at_ms=2),
    OpenTable(round=1, table=1, game_id="g"),
    RecordResult(game_id="g", placings=(Placing(seat=0, player_id="p1", place=1, score=7),), reason="r"),
    Finish(),
]


def all_events() -> list[typing.Any]:
    driver = make(7, format="elimination", seats_per_table=3, qualifiers=1)
    rng = Rng(SEED, 9)
    while has_next_round(driver.now):
        play_round(driver, rng)
    round_robin = make(5, format="round_robin", seats_per_table=2)
    play_round(round_robin, rng)
    round_robin.send(Withdraw(player_id="p03"))
    driver.send(Finish())
    return driver.events + round_robin.events


@pytest.mark.parametrize("codec", [msgspec.json, msgspec.msgpack])
def test_every_command_round_trips(codec: typing.Any) -> None:
    assert {type(c) for c in COMMANDS} == set(typing.get_args(TournamentCommandUnion))
    for command in COMMANDS:
        assert codec.decode(codec.encode(command), type=TournamentCommandUnion) == command


@pytest.mark.parametrize("codec", [msgspec.json, msgspec.msgpack])
def test_every_event_round_trips(codec: typing.Any) -> None:
    events = all_events()
    assert {type(e) for e in events} == set(typing.get_args(TournamentEventUnion))
    for event in events:
        assert codec.decode(codec.encode(event), type=TournamentEventUnion) == event


def test_tags_are_namespaced() -> None:
    for kind in (*typing.get_args(TournamentCommandUnion), *typing.get_args(TournamentEventUnion)):
        tag = msgspec.inspect.type_info(kind).tag
        assert tag.startswith("tournament.") and tag == tag.lower()


def test_commands_reject_unknown_fields() -> None:
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(b'{"type":"tournament.start","sneaky":1}', type=TournamentCommandUnion)
