"""One running system (Valkey + every service as its own process) per test worker."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from shared.infra.launcher import Stack
from shared.infra.settings import UNTHROTTLED


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    root: Path = tmp_path_factory.mktemp("stack")
    running = Stack(root, partitions=4, env=UNTHROTTLED)
    running.start()
    yield running
    running.stop()
