"""Each platform domain is one package: its rules, pure, and its shell (``keys``,
``store``). The pure-core import contract (pyproject.toml) names a split domain's
rules module by module; a module added to a domain and not listed there would
escape it, so this test says which."""

from __future__ import annotations

import pkgutil
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOMAINS = ("arenas", "casual", "players", "ladders", "tournaments")
SHELL = {"keys", "store"}


def _pure_core() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    [contract] = [
        c
        for c in config["tool"]["importlinter"]["contracts"]
        if c["name"].startswith("The pure core does no I/O")
    ]
    return set(contract["source_modules"])


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_rules_module_of_a_domain_is_in_the_pure_core_and_its_shell_is_not(domain: str) -> None:
    listed = _pure_core()
    package = f"shared.{domain}"
    modules = {m.name for m in pkgutil.iter_modules([str(ROOT / "shared" / domain)])}
    if package in listed:  # the whole package is pure: it has no shell
        assert not modules & SHELL
        return
    assert {f"{package}.{m}" for m in modules - SHELL} <= listed
    assert not {f"{package}.{m}" for m in SHELL} & listed
