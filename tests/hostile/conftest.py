"""The running system the hostile-input suite attacks, and its referee.

The stack is the same as the end-to-end tests' (Valkey and every service as
its own process, rate limits out of the way), but this package's own: an
input that parks a dead letter must fail this suite alone rather than every
later end-to-end test that asks ``/ready``, and the dead letters and failure
counters this suite watches must be its own inputs' doing. It starts in about
three seconds and stops when the package is done.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from shared.infra.launcher import Stack
from tests.hostile.harness import Referee, Store, Table, Targets, Tournament
from tests.support.stacks import running_stack


@pytest.fixture(scope="package")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    yield from running_stack(tmp_path_factory, "hostile-stack")


@pytest.fixture(scope="package")
def store(stack: Stack) -> Iterator[Store]:
    opened = Store(stack.redis_url or "", stack.partitions)
    yield opened
    opened.close()


@pytest.fixture(scope="package")
def referee(stack: Stack, store: Store) -> Iterator[Referee]:
    with httpx.Client(base_url=stack.api, timeout=30) as client:
        ready = Referee(stack, client, store)
        r = ready.wait_ready()
        assert r.status_code == 200, f"the stack never got ready: {r.text}"
        yield ready


@pytest.fixture(scope="package")
def targets(referee: Referee) -> Targets:
    return Targets(referee)


@pytest.fixture(scope="package")
def finished(referee: Referee) -> Table:
    """A finished table: its log, replay and audit are served, and its view never waits."""
    table = referee.open("highcard", 2, {"hand_size": 1, "deck_size": 4})
    for _ in range(10):
        if referee.view(table, None)["over"]:
            return table
        r = referee.play_legal(table)
        assert r.status_code == 200, r.text
        table.version = r.json()["version"]
    raise AssertionError("a one-card game of high card did not end")


@pytest.fixture(scope="package")
def tournament(referee: Referee) -> Tournament:
    r = referee.client.post("/v1/tournaments", json={"game": "highcard", "name": "hostile", "rounds": 3})
    assert r.status_code == 201, r.text
    doc = r.json()
    return Tournament(doc["tournament_id"], doc["organiser_token"], doc["version"])
