"""Schemathesis against the served OpenAPI spec: no server errors, and every
answer's status is one the spec documents for that route."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from shared.infra.launcher import Stack

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("stack"), pytest.mark.timeout(900)]


def schemathesis_binary() -> str:
    found = Path(sys.executable).parent / "schemathesis"
    return str(found) if found.exists() else (shutil.which("schemathesis") or "schemathesis")


@pytest.mark.parametrize(
    "examples", [pytest.param(15, id="short"), pytest.param(200, id="long", marks=pytest.mark.slow)]
)
def test_the_api_answers_every_generated_request_as_documented(stack: Stack, examples: int) -> None:
    run = subprocess.run(
        [
            schemathesis_binary(),
            "run",
            f"{stack.api}/openapi.json",
            "--checks",
            "not_a_server_error,status_code_conformance,content_type_conformance",
            "--phases",
            "examples,coverage,fuzzing",
            "-n",
            str(examples),
            "--request-timeout",
            "30",
            "--seed",
            "7",
        ],
        capture_output=True,
        text=True,
        timeout=840,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
