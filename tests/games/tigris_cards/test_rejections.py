"""The card game's rejection codes are named once, in ``rejections.py``, and
every refusal raises one of them or one the kernel shares."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from shared.games.tigris_cards import rejections
from shared.kernel import rejection as kernel

PACKAGE = Path(rejections.__file__).parent
CODES = {name: value for name, value in vars(rejections).items() if name.isupper()}
SHARED = {name for name, value in vars(kernel).items() if name.isupper() and isinstance(value, str)}


def _refusals() -> list[tuple[str, ast.expr]]:
    """(file:line, code argument) of every ``require`` and ``RuleViolation``."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                if node.func.id == "require":
                    found.append((f"{path.name}:{node.lineno}", node.args[1]))
                elif node.func.id == "RuleViolation":
                    found.append((f"{path.name}:{node.lineno}", node.args[0]))
    return found


def test_codes_are_distinct_snake_case_strings() -> None:
    assert CODES
    assert all(re.fullmatch(r"[a-z]+(_[a-z]+)*", code) for code in CODES.values())
    assert len(set(CODES.values())) == len(CODES)
    assert not set(CODES.values()) & {getattr(kernel, name) for name in SHARED}


def test_every_refusal_names_its_code_by_constant() -> None:
    used = set()
    for where, code in _refusals():
        assert isinstance(code, ast.Name), f"{where}: the code is not a named constant"
        assert code.id in CODES or code.id in SHARED, f"{where}: {code.id} is not a rejection code"
        used.add(code.id)
    assert set(CODES) <= used, f"codes nothing raises: {sorted(set(CODES) - used)}"
