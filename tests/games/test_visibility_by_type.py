"""Each game's ``visibility`` looks the event's type up in ``VISIBILITY_BY_TYPE``
before its ``match`` (``shared.kernel.visibility.by_type``): the table must
be the match's cases that read no field, exactly, or an event could reach an
audience the match would not show it to."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path
from types import ModuleType
from typing import Any, get_args

import msgspec
import pytest

from shared.eventstore.store import decode_envelope
from shared.games import registry
from shared.kernel import table as tables
from shared.kernel.codec import codec_for
from shared.kernel.visibility import PUBLIC, SERVER_ONLY, Public, by_type, seat_only
from tests.games.golden.record import Golden
from tests.readmodels.test_rebuild_models import _log

GAMES = [key for key in registry.available() if key in registry.BUILTIN]
GOLDEN = Path(__file__).parent / "golden"
_TABLE_EVENTS = frozenset(get_args(tables.TableEvent))


def _views(key: str) -> ModuleType:
    return importlib.import_module(f"{registry.BUILTIN[key]}.views")


def _classes(union: Any) -> dict[str, type]:
    """Every class of a (possibly nested) union, by name."""
    args = get_args(union)
    if not args:
        return {union.__name__: union}
    return {name: cls for arg in args for name, cls in _classes(arg).items()}


def _fieldless_cases(views: ModuleType) -> dict[str, str]:
    """The classes of ``matched_visibility``'s cases that read no field (class
    patterns without arguments, no guard, one ``return`` of a constant), each
    with the constant's name, read from the source."""
    tree = ast.parse(inspect.getsource(views))
    function = next(
        node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "matched_visibility"
    )
    match = next(node for node in function.body if isinstance(node, ast.Match))
    out: dict[str, str] = {}
    for case in match.cases:
        patterns = case.pattern.patterns if isinstance(case.pattern, ast.MatchOr) else [case.pattern]
        if case.guard is not None or not all(
            isinstance(p, ast.MatchClass) and not p.patterns and not p.kwd_patterns for p in patterns
        ):
            continue
        body = case.body
        assert len(body) == 1 and isinstance(body[0], ast.Return) and isinstance(body[0].value, ast.Name)
        for pattern in patterns:
            assert isinstance(pattern, ast.MatchClass)
            out[ast.unparse(pattern.cls).rsplit(".", 1)[-1]] = body[0].value.id
    return out


@pytest.mark.parametrize("key", GAMES)
def test_the_table_is_the_matchs_cases_that_read_no_field(key: str) -> None:
    views = _views(key)
    classes = _classes(registry.get(key).event_type)
    constants = {"PUBLIC": PUBLIC, "SERVER_ONLY": SERVER_ONLY}
    wanted = {classes[name]: constants[value] for name, value in _fieldless_cases(views).items()}
    assert wanted == views.VISIBILITY_BY_TYPE
    # Every class a field decides is left to the match.
    assert set(views.VISIBILITY_BY_TYPE) < set(classes.values())


def _events(key: str) -> list[Any]:
    """The game's events of its golden record and of random games of every seat count."""
    game = registry.get(key)
    codec = codec_for(game)
    golden = msgspec.json.decode((GOLDEN / f"{key}.json").read_bytes(), type=Golden)
    events = [codec.event_from_json(bytes(raw)) for raw in golden.events]
    for seed in range(4):
        events += [codec.event(decode_envelope(raw).payload) for raw in _log(key, seed, None)]
    return [event for event in events if type(event) not in _TABLE_EVENTS]


@pytest.mark.parametrize("key", GAMES)
def test_the_table_and_the_match_agree_on_every_event_of_recorded_games(key: str) -> None:
    views = _views(key)
    events = _events(key)
    looked_up = [event for event in events if type(event) in views.VISIBILITY_BY_TYPE]
    assert looked_up and len(looked_up) < len(events)
    for event in events:
        assert views.visibility(event) == views.matched_visibility(event), event


class _Shown(msgspec.Struct):
    seat: int


class _ShownLater(_Shown):
    pass


def test_by_type_answers_only_the_exact_types_it_holds() -> None:
    def matched(event: _Shown) -> Any:
        return seat_only(event.seat)

    visibility = by_type({_Shown: PUBLIC}, matched)
    assert isinstance(visibility(_Shown(seat=1)), Public)
    # A subclass is not its base: the match decides it.
    assert visibility(_ShownLater(seat=1)) == seat_only(1)
