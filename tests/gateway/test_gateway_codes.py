"""Every platform code the gateway refuses with is in its one closed list
(``services/gateway/errors.py``: ``Code``, and ``STATUS`` with each code's status).

A route chooses a code by raising ``ApiError(code, ...)`` or answering
``error_response``/``error_body`` with it; a code that came from elsewhere (a
stage's outcome, a rule's violation, a connection's refusal) is passed on as it
came (``ApiError.passed_on``, ``ApiError.refused``, ``error_response(outcome.code,
...)``). This reads every gateway module and checks each code a route chooses."""

from __future__ import annotations

import ast
import importlib
import typing
from pathlib import Path
from typing import Any

import pytest

from services.gateway import errors

GATEWAY = Path(errors.__file__).resolve().parent
ROOT = GATEWAY.parents[1]
MODULES = sorted(p for p in GATEWAY.rglob("*.py") if "static" not in p.parts)
#: The calls whose first argument is the code of the answer.
CHOOSERS = {"ApiError", "error_response", "error_body"}


def test_the_literal_and_the_status_table_are_one_list() -> None:
    assert list(typing.get_args(errors.Code)) == list(errors.STATUS)


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "errors":
        return func.attr
    return None


def _codes_in(node: ast.AST, module: Any) -> tuple[set[str], list[str]]:
    """(the codes ``node`` can be, what in it is no code from a closed list)."""
    codes: set[str] = set()
    unknown: list[str] = []
    for part in ast.walk(node):
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            codes.add(part.value)
        elif isinstance(part, ast.Name) and hasattr(module, part.id):
            value = getattr(module, part.id)
            if isinstance(value, str):
                codes.add(value)
            elif isinstance(value, dict):  # a lookup table of codes (body.FIELD_CODES)
                codes |= set(value.values())
    if not codes:
        unknown.append(ast.unparse(node))
    return codes, unknown


def _parameters(function: ast.AST) -> dict[str, str]:
    """A function's parameters, with their annotations as written."""
    if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        return {}
    args = function.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    return {a.arg: ast.unparse(a.annotation) if a.annotation else "" for a in every}


def _assignments(function: ast.AST, name: str) -> list[ast.expr]:
    """The values ``name`` is given in ``function``."""
    found: list[ast.expr] = []
    for node in ast.walk(function):
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            found.append(value)
    return found


def chosen_codes(path: Path) -> list[tuple[int, str, set[str], list[str]]]:
    """(line, call, the codes it can answer, what could not be read as a code) per call."""
    module = importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts))
    tree = ast.parse(path.read_text())
    out: list[tuple[int, str, set[str], list[str]]] = []
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    for function in [tree, *functions]:
        for node in ast.iter_child_nodes(function) if function is tree else ast.walk(function):
            if not (isinstance(node, ast.Call) and _name(node.func) in CHOOSERS and node.args):
                continue
            first = node.args[0]
            if isinstance(first, ast.Attribute):
                # A code passed on (outcome.code, exc.code, refusal.code): chosen elsewhere.
                # ApiError itself takes only a code of the list: passed_on says it is not one.
                if _name(node.func) == "ApiError":
                    out.append((node.lineno, ast.unparse(node.func), set(), [ast.unparse(first)]))
                continue
            if isinstance(first, ast.Name) and first.id in _parameters(function):
                # A code its caller chose: a Code is of the list; a str is passed on,
                # which only an answer (not ApiError) may take.
                if _parameters(function)[first.id] != "Code" and _name(node.func) == "ApiError":
                    out.append((node.lineno, ast.unparse(node.func), set(), [first.id]))
                continue
            if isinstance(first, ast.Name) and not hasattr(module, first.id):
                values = _assignments(function, first.id)
                codes: set[str] = set()
                unknown = [] if values else [first.id]
                for value in values:
                    more, missing = _codes_in(value, module)
                    codes |= more
                    unknown += missing
            else:
                codes, unknown = _codes_in(first, module)
            out.append((node.lineno, ast.unparse(node.func), codes, unknown))
    return out


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(GATEWAY)) for p in MODULES])
def test_every_code_a_route_chooses_is_in_the_closed_list(path: Path) -> None:
    for line, call, codes, unknown in chosen_codes(path):
        where = f"{path.relative_to(ROOT)}:{line} {call}"
        assert not unknown, f"{where}: {unknown} is no code of errors.Code (passed on? ApiError.passed_on)"
        assert codes <= set(errors.STATUS), (
            f"{where}: {sorted(codes - set(errors.STATUS))} not in errors.STATUS"
        )


def test_the_check_finds_a_code_outside_the_list() -> None:
    """The check reads what it should: a made-up code, a passed-on one, a lookup."""
    tree = ast.parse(
        "def f(outcome, field):\n"
        "    raise ApiError('no_such_code', 'x')\n"
        "def g(outcome):\n"
        "    raise ApiError(outcome.code, 'x')\n"
    )
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    codes, _ = _codes_in(calls[0].args[0], errors)
    assert codes == {"no_such_code"} and not codes <= set(errors.STATUS)
    assert isinstance(calls[1].args[0], ast.Attribute)
