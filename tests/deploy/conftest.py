"""The deploy files' tests read the metrics a service exports as a fresh process does."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fresh_metrics(fresh_metrics: None) -> None:
    """Counters at zero where a fresh process has them at zero, whatever ran before
    in this worker (tests/conftest.py, ``fresh_metrics``)."""
