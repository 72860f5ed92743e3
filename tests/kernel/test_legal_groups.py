"""The compact legal list of view documents: its expansion, the generic grouping,
and the contract check that holds every game's groups to its ``legal``."""

from __future__ import annotations

import dataclasses
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.kernel.legal_groups import LegalGroup, expand, one_each, runs, without
from shared.kernel.messages import Command, Record
from tests.games import contract_checks as cc
from tests.support.highcard import GAME


class Spot(Record, frozen=True):
    row: int
    column: int


class Put(Command, tag="test.put"):
    piece: str
    square: int


class Route(Command, tag="test.route"):
    piece: str
    path: tuple[int, ...] = ()


class Aim(Command, tag="test.aim"):
    piece: str
    spot: Spot | None = None


class Stop(Command, tag="test.stop"):
    pass


class Halt(Command, tag="test.halt"):
    pass


def as_json(value: object) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value))


def test_an_empty_list_expands_to_nothing() -> None:
    assert expand([]) == []
    assert one_each([]) == [] and runs([]) == []


def test_a_group_without_each_is_its_one_command() -> None:
    group = as_json(one_each([Stop()]))
    assert group == [{"command": {"type": "test.stop"}}]  # no "each", no "values" on the wire
    assert expand(group) == [{"type": "test.stop"}]


def test_a_group_over_a_field_sets_it_to_each_value_in_order() -> None:
    group = {"command": {"type": "test.put", "piece": "priest"}, "each": "square", "values": [9, 11, 14]}
    assert expand([group]) == [{"type": "test.put", "piece": "priest", "square": s} for s in (9, 11, 14)]
    assert msgspec.json.encode(expand([group])[0]) == msgspec.json.encode(Put(piece="priest", square=9))


def test_values_may_be_lists_and_objects() -> None:
    lists = {"command": {"type": "test.route", "piece": "a"}, "each": "path", "values": [[], [1, 2]]}
    objects = {
        "command": {"type": "test.aim", "piece": "a"},
        "each": "spot",
        "values": [{"row": 0, "column": 2}, None],
    }
    assert [c["path"] for c in expand([lists])] == [[], [1, 2]]
    assert [c["spot"] for c in expand([objects])] == [{"row": 0, "column": 2}, None]
    decode = msgspec.json.Decoder(Aim).decode
    assert decode(msgspec.json.encode(expand([objects])[0])).spot == Spot(row=0, column=2)


def test_a_malformed_group_is_refused() -> None:
    with pytest.raises(ValueError):  # the varying field left in the command: which value wins?
        expand([{"command": {"type": "test.put", "square": 1}, "each": "square", "values": [2]}])
    with pytest.raises(ValueError):  # a group over a field with no values stands for nothing
        expand([{"command": {"type": "test.put"}, "each": "square", "values": []}])


def test_without_leaves_out_one_field() -> None:
    assert msgspec.json.decode(without(Put(piece="a", square=3), "square")) == {
        "type": "test.put",
        "piece": "a",
    }


def test_runs_groups_consecutive_commands_that_differ_in_their_last_field() -> None:
    commands = [
        *(Put(piece="a", square=s) for s in (1, 2, 3)),
        Put(piece="b", square=3),  # another piece: not the last field
        Stop(),
        Halt(),  # field-less commands differ in their type, never grouped
        Route(piece="b", path=(1,)),
        Route(piece="b", path=(1, 2)),
        Aim(piece="c", spot=Spot(row=1, column=0)),
        Aim(piece="c"),
    ]
    assert as_json(runs(commands)) == [
        {"command": {"type": "test.put", "piece": "a"}, "each": "square", "values": [1, 2, 3]},
        {"command": {"type": "test.put", "piece": "b", "square": 3}},
        {"command": {"type": "test.stop"}},
        {"command": {"type": "test.halt"}},
        {"command": {"type": "test.route", "piece": "b"}, "each": "path", "values": [[1], [1, 2]]},
        {
            "command": {"type": "test.aim", "piece": "c"},
            "each": "spot",
            "values": [{"row": 1, "column": 0}, None],
        },
    ]


_commands = st.one_of(
    st.builds(Put, piece=st.sampled_from(["a", "b"]), square=st.integers(0, 3)),
    st.builds(Route, piece=st.sampled_from(["a", "b"]), path=st.tuples() | st.tuples(st.integers(0, 2))),
    st.builds(
        Aim, piece=st.just("a"), spot=st.none() | st.builds(Spot, row=st.integers(0, 1), column=st.just(0))
    ),
    st.just(Stop()),
    st.just(Halt()),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_commands, max_size=12))
def test_runs_expand_to_the_same_list_byte_for_byte(commands: list[Command]) -> None:
    flat = msgspec.json.encode(commands)
    assert msgspec.json.encode(expand(as_json(runs(commands)))) == flat
    assert msgspec.json.encode(expand(as_json(one_each(commands)))) == flat


def test_the_contract_check_catches_groups_that_differ_from_legal() -> None:
    state = GAME.fold(cc.check_playouts(GAME, 2, 1)[0].opening)
    cc.check_compact_legal(GAME, state)  # the generic default passes
    assert len(GAME.legal(state, min(GAME.actors(state)))) > 1

    def reordered(s: Any, seat: int) -> list[LegalGroup]:
        return one_each(reversed(GAME.legal(s, seat)))

    def one_short(s: Any, seat: int) -> list[LegalGroup]:
        return one_each(GAME.legal(s, seat)[1:])

    def to_everyone(s: Any, seat: int) -> list[LegalGroup]:
        return one_each(GAME.legal(s, min(GAME.actors(s))))

    for wrong in (reordered, one_short, to_everyone):
        with pytest.raises(AssertionError):
            cc.check_compact_legal(dataclasses.replace(GAME, legal_groups=wrong), state)
