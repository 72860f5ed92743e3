"""The running system the end-to-end, hostile-input and secrecy suites play
against: Valkey and every service as its own process, with the rate limits out
of the way. Each suite's fixture decides its scope (how widely it is shared)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from shared.infra.launcher import Stack
from shared.infra.settings import UNTHROTTLED


def running_stack(tmp_path_factory: pytest.TempPathFactory, name: str) -> Iterator[Stack]:
    """Started in a fresh folder named after ``name``; stopped when the fixture ends."""
    stack = Stack(tmp_path_factory.mktemp(name), partitions=4, env=UNTHROTTLED)
    stack.start()
    try:
        yield stack
    finally:
        stack.stop()
