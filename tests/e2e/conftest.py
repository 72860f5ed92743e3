"""One running system (Valkey + every service as its own process) per test worker."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from shared.infra.launcher import Stack


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    root: Path = tmp_path_factory.mktemp("stack")
    running = Stack(root, partitions=4, env={"ZIGGURAT_RATE_BURST": "1000", "ZIGGURAT_RATE_PER_S": "1000"})
    running.start()
    yield running
    running.stop()
