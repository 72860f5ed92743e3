"""A tournament finishes across a Valkey crash, with no service restarted.

Valkey is killed (``kill -9``) and started again on its append-only file,
either just before a tournament is created and started, or while one is
being played (around the end of its first round). Every service keeps
running through it; the platform process's process manager must finish
every step it could not take while the store was away (pair the next round,
open each table, record each result) by itself.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from shared.infra.launcher import Stack
from shared.infra.settings import UNTHROTTLED
from tests.support.accounts import bearer
from tests.support.waiting import eventually, until

pytestmark = [pytest.mark.e2e, pytest.mark.chaos, pytest.mark.timeout(300)]
ENV = {**UNTHROTTLED, "ZIGGURAT_RECLAIM_IDLE_MS": "1000", "ZIGGURAT_REPLY_TIMEOUT_S": "3"}
#: Answers that mean "try again": the gateway has not reached the store again yet.
RETRY = {502, 503, 504}
#: Long enough for a reconnect and several passes of the process manager's reconciler.
FINISH_WITHIN_S = 45.0


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    # fsync always: a kill -9 loses nothing acknowledged, so whatever goes
    # wrong afterwards is the services' doing, not lost writes.
    running = Stack(tmp_path_factory.mktemp("outage"), partitions=2, fsync="always", env=ENV).start()
    yield running
    running.stop()


def crash_valkey(stack: Stack) -> None:
    assert stack.valkey is not None
    stack.valkey.kill()
    stack.valkey.start()


async def call(api: httpx.AsyncClient, method: str, url: str, **kwargs: Any) -> httpx.Response:
    """One request, repeated (same idempotency key) while the store is unreachable."""

    async def answer() -> httpx.Response | None:
        try:
            r = await api.request(method, url, **kwargs)
        except httpx.TransportError:
            return None
        return None if r.status_code in RETRY else r

    r = await eventually(answer, 30)
    assert r is not None, f"{method} {url}: no answer in 30 s"
    return r


async def create(api: httpx.AsyncClient, rounds: int, options: dict[str, int]) -> tuple[str, str]:
    """A new tournament; a fresh id per attempt, since a create whose answer
    was lost has already claimed its id (and we never saw its token)."""
    attempts = itertools.count()

    async def created() -> tuple[str, str] | None:
        body = {
            "tournament_id": f"outage{time.monotonic_ns() % 10**9}a{next(attempts)}",
            "game": "highcard",
            "game_options": options,
            "format": "swiss",
            "seats_per_table": 2,
            "rounds": rounds,
        }
        r = await call(api, "POST", "/v1/tournaments", json=body)
        return (r.json()["tournament_id"], r.json()["organiser_token"]) if r.status_code == 201 else None

    found = await eventually(created, 30)
    assert found is not None, "could not create a tournament"
    return found


async def start_bots(api: httpx.AsyncClient, tid: str, token: str, bots: int) -> None:
    for i in range(bots):
        headers = {**bearer(token), "idempotency-key": f"reg-{i}"}
        body = {"player_id": f"bot{i}", "name": f"Bot {i}", "kind": "bot"}
        r = await call(api, "POST", f"/v1/tournaments/{tid}/players", json=body, headers=headers)
        assert r.status_code == 201, r.text
    headers = {**bearer(token), "idempotency-key": "start"}
    r = await call(api, "POST", f"/v1/tournaments/{tid}/start", headers=headers)
    assert r.status_code == 200, r.text


async def pairings(api: httpx.AsyncClient, tid: str) -> dict[str, Any] | None:
    r = await call(api, "GET", f"/v1/tournaments/{tid}/pairings")
    return r.json() if r.status_code == 200 else None


async def wait_finished(api: httpx.AsyncClient, tid: str, rounds: int, bots: int) -> None:
    async def finished() -> bool:
        r = await call(api, "GET", f"/v1/tournaments/{tid}/standings")
        return r.status_code == 200 and r.json()["status"] == "finished"

    assert await until(finished, FINISH_WITHIN_S), (
        f"{tid} not finished in {FINISH_WITHIN_S}s: {await pairings(api, tid)}"
    )
    doc = await pairings(api, tid)
    assert doc is not None and len(doc["rounds"]) == rounds
    for rnd in doc["rounds"]:
        assert rnd["complete"] and sum(len(t["players"]) for t in rnd["tables"]) == bots
        assert all(t["places"] is not None for t in rnd["tables"])


def pids(stack: Stack) -> dict[str, int | None]:
    return {name: proc.pid for name, proc in stack.procs.items()}


async def test_a_tournament_started_right_after_a_valkey_crash_finishes(stack: Stack) -> None:
    before = pids(stack)
    await asyncio.to_thread(crash_valkey, stack)
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        tid, token = await create(api, rounds=2, options={"hand_size": 3})
        await start_bots(api, tid, token, bots=6)
        await wait_finished(api, tid, rounds=2, bots=6)
    assert pids(stack) == before, "no service may be restarted"


async def test_a_valkey_crash_between_rounds_does_not_stall_the_tournament(stack: Stack) -> None:
    before = pids(stack)
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        tid, token = await create(api, rounds=3, options={"deck_size": 60, "hand_size": 12})
        await start_bots(api, tid, token, bots=6)

        # The crash lands once the first result is in: the round's last
        # results, the next pairing and its tables all come around the outage.
        async def a_result_is_in() -> bool:
            doc = await pairings(api, tid)
            return bool(doc) and any(t["places"] is not None for rnd in doc["rounds"] for t in rnd["tables"])

        assert await until(a_result_is_in, 30, every_s=0.05), f"{tid}: no result recorded in 30 s"
        await asyncio.to_thread(crash_valkey, stack)
        await wait_finished(api, tid, rounds=3, bots=6)
    assert pids(stack) == before, "no service may be restarted"
