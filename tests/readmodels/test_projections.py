"""Partial read-model types (projections) cannot drift from their full types.

A projection (a struct with ``projection_of``, e.g. ``ViewHead`` beside
``ViewDoc``) decodes only the fields a reader needs. Each of its fields must be
a field of the full type with the same type (a projection nested in it standing
for the full type it projects), and may be required only where the full type
requires it: otherwise a document the full type encodes could fail to decode,
or decode to something else, through the projection.
"""

from __future__ import annotations

import importlib
import pkgutil
import types
import typing
from typing import Any

import msgspec
import pytest

import shared

#: Packages that hold no read model (and whose import starts nothing).
_SKIP = ("shared.cli", "shared.infra")


def _projections() -> list[type[msgspec.Struct]]:
    found: dict[str, type[msgspec.Struct]] = {}
    for info in pkgutil.walk_packages(shared.__path__, "shared."):
        if info.name.startswith(_SKIP) or info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, msgspec.Struct)
                and "projection_of" in vars(value)
                and value.__module__ == info.name
            ):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return [found[name] for name in sorted(found)]


PROJECTIONS = _projections()


def _same(part: Any, full: Any) -> bool:
    """``part`` is ``full`` with projections in place of the types they project."""
    if isinstance(part, type) and "projection_of" in vars(part):
        return bool(part.projection_of is full)
    p_origin, f_origin = typing.get_origin(part), typing.get_origin(full)
    if p_origin is None or f_origin is None:
        return bool(part == full)
    if p_origin is typing.Annotated:
        return (
            f_origin is typing.Annotated
            and part.__metadata__ == full.__metadata__
            and _same(part.__origin__, full.__origin__)
        )
    if p_origin is types.UnionType or p_origin is typing.Union:
        p_origin = f_origin if f_origin in (types.UnionType, typing.Union) else p_origin
    p_args, f_args = typing.get_args(part), typing.get_args(full)
    return (
        p_origin == f_origin
        and len(p_args) == len(f_args)
        and all(_same(p, f) for p, f in zip(p_args, f_args, strict=True))
    )


def test_the_gateways_projections_are_found() -> None:
    """The walk finds them: a projection moved out of reach would pass vacuously."""
    names = {cls.__name__ for cls in PROJECTIONS}
    assert {"ViewVersion", "ViewStatus", "ViewHead", "PairingsHead", "StandingsHead"} <= names


@pytest.mark.parametrize("part", PROJECTIONS, ids=lambda c: c.__qualname__)
def test_a_projection_is_a_subset_of_its_full_type(part: type[msgspec.Struct]) -> None:
    full: type[msgspec.Struct] = vars(part)["projection_of"]
    assert part.__doc__ and full.__name__ in part.__doc__, "the docstring names the type it projects"
    assert part.__module__ == full.__module__, "a projection lives beside its full type"
    p_hints = typing.get_type_hints(part, include_extras=True)
    f_hints = typing.get_type_hints(full, include_extras=True)
    p_info = {f.name: f for f in msgspec.structs.fields(part)}
    f_info = {f.name: f for f in msgspec.structs.fields(full)}
    assert set(p_info) <= set(f_info), f"fields {set(p_info) - set(f_info)} are not {full.__name__}'s"
    for name in p_info:
        assert _same(p_hints[name], f_hints[name]), (
            f"{part.__name__}.{name} is {p_hints[name]}, {full.__name__}.{name} is {f_hints[name]}"
        )
        assert p_info[name].encode_name == f_info[name].encode_name
        if p_info[name].required:
            assert f_info[name].required, f"{part.__name__}.{name} is required, {full.__name__}'s is not"


def test_the_check_catches_a_drift() -> None:
    """A projection whose field changed type, or that names a field the full type
    lacks, is caught."""

    class Full(msgspec.Struct):
        a: tuple[int, ...]
        b: str | None = None

    class Good(msgspec.Struct):
        """A projection of Full."""

        projection_of: typing.ClassVar[type] = Full
        a: tuple[int, ...] = ()

    class WrongType(msgspec.Struct):
        projection_of: typing.ClassVar[type] = Full
        a: list[int] = []

    hints = typing.get_type_hints
    assert _same(hints(Good)["a"], hints(Full)["a"])
    assert not _same(hints(WrongType)["a"], hints(Full)["a"])
    assert not _same(int | None, str | None)
    assert _same(Good, Full) and not _same(Good, WrongType)
