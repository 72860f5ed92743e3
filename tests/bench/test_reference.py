"""The bare reference loop of ``bench.pipeline`` calls the store's own scripts
(append, project) with their argument layouts written out by hand, to measure
what the pipeline costs above them. When a script's layout moves, the loop must
move with it, or the benchmark stops at its first round (as it did once)."""

from __future__ import annotations

import pytest

from bench import reference
from shared.infra.valkey_server import ValkeyServer

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("batch", [1, 12])
def test_the_reference_loop_plays_through_the_stores_scripts(valkey: ValkeyServer, batch: int) -> None:
    figures = reference.run(valkey.url, "tigris", 2, batch, 0.3)
    assert figures["commands"] >= batch
    assert figures["round_trips_per_command"] > 0
