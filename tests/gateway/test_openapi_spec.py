"""The committed OpenAPI document is the served one, names only real routes, and
documents every status and code each route's own code can answer with."""

from __future__ import annotations

import ast
import inspect
import json
import re
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import msgspec.inspect as mi
import pytest
from starlette.routing import Route

from services.gateway import openapi
from services.gateway.answers import EVENT, GameInfo, Health
from services.gateway.app import ROUTES
from services.gateway.body import FIELD_CODES, Move, NewTable
from services.gateway.errors import STATUS, Error, status_of
from services.gateway.feeds import FeedCut
from services.gateway.openapi import spec
from services.gateway.tables.commands import Accepted, TableOpened
from services.gateway.tables.lobby import BotsTaken, TableList, TableSummary, Verdict
from services.gateway.tables.views import PublicLog
from services.gateway.tournaments import (
    NewPlayer,
    NewTournament,
    TournamentList,
    TournamentLog,
    TournamentSummary,
)
from shared.games import registry
from shared.kernel.bounds import MAX_SEATS
from shared.observability.health import Ready
from shared.readmodels.audit import AuditLog
from shared.readmodels.build import ViewDoc

DOC = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"
#: Pages and files for people and browsers, not the API: the specs themselves (the
#: AsyncAPI one describes the broker), their page,
#: the web client's page (and, mounted, its static files).
UNDOCUMENTED = {"/openapi.json", "/asyncapi.json", "/docs", "/"}
SPEC = spec()

#: Attributes of the gateway whose use reaches the store: a store outage answers 503 unavailable.
STORE_ATTRIBUTES = {"redis", "batch", "store", "seat_of", "broker"}
#: Codes a route's code names but can never answer with, and why.
#: A schema error in one of these top-level fields gets the field's own code: the codes
#: depend on the type read_json decodes, so they are counted at each call.
BY_FIELD = "FIELD_CODES"
NEVER_ANSWERED = {
    # /ready hands the store to a readiness check that catches every failure.
    ("/ready", "unavailable"),
}


def operations() -> list[tuple[str, str, Callable[..., Any]]]:
    out = []
    for route in ROUTES:
        if not isinstance(route, Route) or route.path in UNDOCUMENTED:
            continue
        for method in sorted((route.methods or set()) - {"HEAD"}):
            out.append((route.path, method.lower(), route.endpoint))
    return out


OPERATION_IDS = [f"{method} {path}" for path, method, _ in operations()]


def documented(path: str, method: str) -> tuple[dict[str, Any], set[str], bool]:
    """(responses, the error codes listed, whether 422 also carries open rule codes)."""
    operation = SPEC["paths"].get(path, {}).get(method)
    assert operation is not None, f"{method} {path} is routed but not documented"
    responses = operation["responses"]
    codes: set[str] = set()
    open_rules = False
    for answer in responses.values():
        schema = answer.get("content", {}).get("application/json", {}).get("schema", {})
        for part in schema.get("allOf", []):
            code = part.get("properties", {}).get("code", {})
            codes |= set(code.get("enum", []))
            open_rules |= "pattern" in code
    return responses, codes, open_rules


def _globals_value(fn: Callable[..., Any], name: str) -> Any:
    return fn.__globals__.get(name, getattr(inspect.getmodule(fn), name, None))


def raised_codes(fn: Callable[..., Any], seen: set[Any] | None = None) -> set[str]:
    """Every code ``fn`` (and every gateway function it calls) names: STATUS codes and
    ApiError's first argument as constants or module constants, ``rate_limited`` for a
    rate limit, ``unavailable`` for a use of the store."""
    seen = set() if seen is None else seen
    if fn in seen:
        return set()
    seen.add(fn)
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    found: set[str] = set()

    def resolve(node: ast.AST) -> Any:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return _globals_value(fn, node.id)
        return None

    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            first = resolve(node.args[0]) if node.args else None
            if node.func.id == "ApiError" and isinstance(first, str):
                found.add(first)
            if node.func.id == "read_json" and len(node.args) > 1:
                schema = resolve(node.args[1])
                fields = getattr(schema, "__struct_fields__", ())
                found |= {code for field, code in FIELD_CODES.items() if field in fields}
        if isinstance(node, ast.Name) and node.id == BY_FIELD:
            continue
        if isinstance(node, ast.Attribute):
            if node.attr == "limits":
                found.add("rate_limited")
            if node.attr in STORE_ATTRIBUTES:
                found.add("unavailable")
        value = resolve(node)
        if isinstance(value, str) and value in STATUS:
            found.add(value)
        elif isinstance(value, dict):
            found |= {v for v in value.values() if isinstance(v, str) and v in STATUS}
        elif isinstance(value, tuple | list | set | frozenset):
            found |= {v for v in value if isinstance(v, str) and v in STATUS}
        elif inspect.isfunction(value) and value.__module__.startswith("services.gateway."):
            found |= raised_codes(value, seen)
    return found


def test_the_committed_spec_is_current() -> None:
    assert json.loads(DOC.read_text()) == SPEC, "run `make openapi` and commit docs/openapi.json"


def test_every_documented_path_is_routed_and_every_route_documented() -> None:
    routed = {(path, method) for path, method, _ in operations()}
    listed = {(path, method) for path, item in SPEC["paths"].items() for method in item}
    assert listed == routed


def test_every_platform_code_is_documented_in_the_error_schema() -> None:
    described = SPEC["components"]["schemas"]["Error"]["properties"]["code"]["description"]
    assert all(code in described for code in STATUS if code != "internal")


@pytest.mark.parametrize(("path", "method", "endpoint"), operations(), ids=OPERATION_IDS)
def test_every_code_a_route_can_raise_is_documented(path: str, method: str, endpoint: Any) -> None:
    _, codes, _ = documented(path, method)
    can_raise = raised_codes(endpoint) - {code for where, code in NEVER_ANSWERED if where == path}
    assert can_raise - {"internal"} <= codes, f"{method} {path}: add {sorted(can_raise - codes)}"


@pytest.mark.parametrize(("path", "method", "endpoint"), operations(), ids=OPERATION_IDS)
def test_429_is_documented_exactly_where_a_budget_applies(path: str, method: str, endpoint: Any) -> None:
    responses, codes, _ = documented(path, method)
    limited = "rate_limited" in raised_codes(endpoint)
    assert ("429" in responses) == limited
    assert ("rate_limited" in codes) == limited
    if limited:
        assert responses["429"]["headers"]["Retry-After"]["required"]


@pytest.mark.parametrize(("path", "method"), [(p, m) for p, m, _ in operations()], ids=OPERATION_IDS)
def test_every_route_documents_405_and_never_500(path: str, method: str) -> None:
    responses, _, _ = documented(path, method)
    assert responses["405"]["headers"]["Allow"]["required"]
    assert "500" not in responses, "500 internal is a bug, never an answer to document"


@pytest.mark.parametrize(("path", "method"), [(p, m) for p, m, _ in operations()], ids=OPERATION_IDS)
def test_each_status_lists_only_codes_of_that_status(path: str, method: str) -> None:
    responses, _, _ = documented(path, method)
    for status, answer in responses.items():
        schema = answer.get("content", {}).get("application/json", {}).get("schema", {})
        for part in schema.get("allOf", []):
            for code in part.get("properties", {}).get("code", {}).get("enum", []):
                assert status_of(code) == int(status), f"{method} {path} {status}: {code}"


def test_game_rule_codes_answer_422_only_on_game_commands() -> None:
    open_rules = {(p, m) for p, m, _ in operations() if documented(p, m)[2]}
    assert open_rules == {("/v1/tables/{table_id}/commands", "post")}


def test_every_path_parameter_is_declared() -> None:
    for path, item in SPEC["paths"].items():
        for method, op in item.items():
            declared = {p["name"] for p in op.get("parameters", []) if p["in"] == "path"}
            named = {part[1:-1] for part in path.split("/") if part.startswith("{")}
            assert declared == named, f"{method} {path}"


#: Every answer a route encodes, and the request bodies: each one's schema is its type's.
TYPED = [
    NewTable,
    Move,
    NewTournament,
    NewPlayer,
    ViewDoc,
    Error,
    Health,
    Ready,
    GameInfo,
    TableOpened,
    Accepted,
    PublicLog,
    AuditLog,
    TournamentLog,
    TableSummary,
    TableList,
    Verdict,
    BotsTaken,
    TournamentSummary,
    TournamentList,
    FeedCut,
]


@pytest.mark.parametrize("struct", TYPED, ids=[t.__name__ for t in TYPED])
def test_schemas_are_generated_from_the_types(struct: type[msgspec.Struct]) -> None:
    schema = SPEC["components"]["schemas"][struct.__name__]
    assert set(schema["properties"]) == set(struct.__struct_fields__)
    assert set(schema["required"]) == {f.name for f in _fields(struct) if f.required}
    if struct.__struct_config__.forbid_unknown_fields:
        assert schema["additionalProperties"] is False


def test_only_a_games_event_is_described_by_hand() -> None:
    assert set(SPEC["components"]["schemas"]) - set(openapi._generated()) == {EVENT}


def test_every_reference_names_a_component() -> None:
    refs = set(re.findall(r'"\$ref": "#/components/schemas/([^"]+)"', json.dumps(SPEC)))
    assert refs <= set(SPEC["components"]["schemas"])


def test_every_json_answer_names_a_component() -> None:
    """No answer is described inline: each is a type's schema (or a list of one)."""
    for path, item in SPEC["paths"].items():
        for method, op in item.items():
            for status, answer in op["responses"].items():
                schema = answer.get("content", {}).get("application/json", {}).get("schema")
                if schema is None or "allOf" in schema:  # an error: Error, with its codes
                    continue
                schema = schema.get("items", schema)
                assert "$ref" in schema, f"{method} {path} {status}"


def _fields(struct: type[msgspec.Struct]) -> tuple[mi.Field, ...]:
    info = mi.type_info(struct)
    assert isinstance(info, mi.StructType)
    return info.fields


def test_the_bounds_declared_in_the_types_are_in_the_spec() -> None:
    schemas = SPEC["components"]["schemas"]
    seats = {"type": "integer", "minimum": 1, "maximum": MAX_SEATS}
    assert schemas["NewTable"]["properties"]["seats"] == seats
    assert schemas["ClockSettings"]["properties"]["initial_ms"]["maximum"] == 7 * 24 * 3600 * 1000
    assert schemas["NewPlayer"]["properties"]["name"]["maxLength"] == 200
    assert schemas["Move"]["properties"]["command"]["properties"]["type"]["maxLength"] == 64


SCALARS = (
    mi.IntType,
    mi.FloatType,
    mi.StrType,
    mi.BoolType,
    mi.NoneType,
    mi.LiteralType,
    mi.EnumType,
)


def _scalar(t: mi.Type) -> bool:
    if isinstance(t, mi.UnionType):
        return all(_scalar(u) for u in t.types)
    return isinstance(t, SCALARS)


def _fits_command_value(t: mi.Type) -> bool:
    """A scalar, a list of scalars, or a map (or struct) of scalars: what the spec says."""
    if isinstance(t, mi.UnionType):
        return all(_fits_command_value(u) for u in t.types)
    if isinstance(t, mi.ListType | mi.VarTupleType | mi.SetType | mi.FrozenSetType):
        return _scalar(t.item_type)
    if isinstance(t, mi.TupleType):
        return all(_scalar(u) for u in t.item_types)
    if isinstance(t, mi.DictType):
        return _scalar(t.value_type)
    if isinstance(t, mi.StructType):
        return all(_scalar(f.type) for f in t.fields)
    return _scalar(t)


@pytest.mark.parametrize("key", registry.available())
def test_every_game_command_fits_the_documented_command(key: str) -> None:
    assert SPEC["components"]["schemas"]["Move"]["properties"]["command"]["additionalProperties"]
    info = mi.type_info(registry.get(key).command_type)
    commands = info.types if isinstance(info, mi.UnionType) else (info,)
    for command in commands:
        assert isinstance(command, mi.StructType)
        for field in command.fields:
            assert _fits_command_value(field.type), (
                f"{command.cls.__name__}.{field.name}: update COMMAND_VALUE"
            )
