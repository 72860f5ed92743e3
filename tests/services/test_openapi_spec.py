"""The committed OpenAPI document is the served one, and names only real routes."""

import json
from pathlib import Path

from services.gateway.app import ROUTES
from services.gateway.errors import STATUS
from services.gateway.openapi import spec

DOC = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"


def test_the_committed_spec_is_current() -> None:
    assert json.loads(DOC.read_text()) == spec(), "run `make openapi` and commit docs/openapi.json"


def test_every_documented_path_is_routed_and_every_route_documented() -> None:
    routed = {r.path for r in ROUTES} - {"/openapi.json", "/docs"}
    assert set(spec()["paths"]) == routed


def test_every_platform_code_is_documented_in_the_error_schema() -> None:
    described = spec()["components"]["schemas"]["Error"]["properties"]["code"]["description"]
    assert all(code in described for code in STATUS)
