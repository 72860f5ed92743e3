"""One running system (Valkey + every service as its own process) per test worker."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from shared.infra.launcher import Stack
from tests.support.stacks import running_stack


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    yield from running_stack(tmp_path_factory, "stack")
