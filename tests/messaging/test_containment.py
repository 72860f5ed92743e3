"""No message holds a stream up, and a stalled stage shows.

A stack of its own (short stall bound, three deliveries before parking):
messages that make each stage fail are put straight onto the stages' streams,
in every partition, while games are being played. Every other table keeps
playing, each poison message is parked in the dead-letter stream after its
deliveries, the CLI shows, retries and drops them, and readiness and the
metrics say what happened. Then the projector is stopped: readiness names the
stall and the projection-lag gauge keeps rising until it is back.
"""

from __future__ import annotations

import asyncio
import random
import re
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest

from shared.cli import botclient
from shared.eventstore.keys import DEAD_LETTERS, command_stream, partition_feed, validated_stream
from shared.infra.launcher import Stack
from shared.infra.redis_client import connect
from shared.infra.settings import UNTHROTTLED
from shared.kernel.legal_groups import expand
from tests.support.waiting import until

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("containment"), pytest.mark.timeout(300)]
PARTITIONS = 2
STALL_S = 3.0


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    env = {
        **UNTHROTTLED,
        "ZIGGURAT_STALL_AFTER_S": str(STALL_S),
        "ZIGGURAT_MAX_DELIVERIES": "3",
        "ZIGGURAT_RECLAIM_IDLE_MS": "1000",
    }
    running = Stack(tmp_path_factory.mktemp("containment"), partitions=PARTITIONS, env=env).start()
    yield running
    running.stop()


def cli(stack: Stack, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "shared.cli.main", "dead-letters", *args, "--redis", stack.redis_url or ""],
        capture_output=True,
        text=True,
        timeout=60,
    )


async def metric(url: str, name: str) -> float:
    async with httpx.AsyncClient(timeout=10) as client:
        text = (await client.get(url)).text
    return sum(float(v) for v in re.findall(rf"^{name}(?:{{[^}}]*}})? (\S+)$", text, re.MULTILINE))


async def play_timed(api: httpx.AsyncClient, seed: int) -> float:
    """Play a whole fixture game; the slowest move's round trip (s)."""
    table = await botclient.open_table(api, "highcard", 2)
    rng = random.Random(seed)
    slowest = 0.0
    while True:
        view = await botclient.view(api, table, 0)
        if view["over"]:
            return slowest
        seat = view["actors"][0]
        mine = await botclient.view(api, table, seat)
        if not mine["legal"] or mine["version"] != view["version"]:
            continue  # the two views were read a projection apart: read both again
        started = time.monotonic()
        r = await api.post(
            f"/v1/tables/{table.table_id}/commands",
            json={"command": rng.choice(expand(mine["legal"])), "expected_version": mine["version"]},
            headers=botclient.auth(table.tokens[seat]),
        )
        slowest = max(slowest, time.monotonic() - started)
        assert r.status_code == 200, r.text


async def test_poison_messages_are_parked_and_every_other_table_keeps_playing(stack: Stack) -> None:
    redis = connect(stack.redis_url or "")
    poison = []
    for p in range(PARTITIONS):
        poison.append((command_stream(p), {"m": b"\xff not a command"}))  # the validator cannot decode it
        poison.append((validated_stream(p), {"m": b'{"kind":"move"}'}))  # the reducer cannot decode it
        poison.append((partition_feed(p), {"g": "ghost", "e": b"not an envelope"}))  # nor the projector
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        for stream, fields in poison:
            await redis.xadd(stream, fields)
        slowest = await asyncio.gather(*(play_timed(api, seed) for seed in range(4)))
        # A poison message costs its partition a few short retries, never the game's pace.
        assert max(slowest) < 5.0, f"a move waited {max(slowest):.1f} s behind a poison message"
        await until(lambda: parked_all(redis, len(poison)), 30)
        assert await redis.xlen(DEAD_LETTERS) == len(poison), "every poison message is parked, once"
        for stream, group in [(s, g) for s, g in _groups(poison)]:
            pending = await redis.xpending(stream, group)
            assert pending["pending"] == 0, f"{group} still holds an entry of {stream}"

        metrics = stack.metrics_urls()
        parked = {
            name: await metric(url, "ziggurat_dead_letters_total")
            for name, url in metrics.items()
            if name.split("-")[0] in ("validator", "reducer", "projector")
        }
        assert all(count == PARTITIONS for count in parked.values()), parked

        ready = await api.get("/ready")
        assert ready.status_code == 503 and "dead letter" in " ".join(ready.json()["problems"])
        assert (await api.get("/ready", params={"scope": "store"})).status_code == 200
        assert (await api.get("/health")).status_code == 200

    listing = cli(stack, "list")
    assert listing.returncode == 0, listing.stderr
    for service in ("validator", "reducer", "projector"):
        assert service in listing.stdout
    ids = re.findall(r"^(\d+-\d+)\s", listing.stdout, re.MULTILINE)
    assert len(ids) == len(poison)
    shown = cli(stack, "show", ids[0])
    assert shown.returncode == 0 and "error:" in shown.stdout and "Traceback" in shown.stdout

    # A retry puts the message back; still poison, it is parked again.
    retried = cli(stack, "retry", ids[0])
    assert retried.returncode == 0, retried.stderr
    await until(lambda: parked_all(redis, len(poison)), 30)
    assert await redis.xlen(DEAD_LETTERS) == len(poison)

    for entry_id, _ in await redis.xrange(DEAD_LETTERS):
        dropped = cli(stack, "drop", entry_id.decode())
        assert dropped.returncode == 0, dropped.stderr
    assert cli(stack, "drop", "1-1").returncode != 0, "dropping what is not there is an error"
    assert "No dead letters" in cli(stack, "list").stdout
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        assert await until(lambda: is_ready(api), 10)
    await redis.aclose()


async def parked_all(redis: object, n: int) -> bool:
    return bool(await redis.xlen(DEAD_LETTERS) >= n)  # type: ignore[attr-defined]


async def is_ready(api: httpx.AsyncClient) -> bool:
    return (await api.get("/ready")).status_code == 200


def _groups(poison: list[tuple[str, dict[str, bytes]]]) -> list[tuple[str, str]]:
    out = []
    for stream, _ in poison:
        if stream.endswith(":commands"):
            out.append((stream, "validator"))
        elif stream.endswith(":validated"):
            out.append((stream, "reducer"))
        else:
            out.append((stream, "projector"))
    return out


async def test_a_stalled_projector_shows_in_readiness_and_a_rising_lag(stack: Stack) -> None:
    gateway_metrics = stack.metrics_urls()["gateway"]
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        table = await botclient.open_table(api, "highcard", 2)
        view = await botclient.view(api, table, 0)
        projector = stack.procs["projector-0"]
        projector.stop()
        try:
            seat = view["actors"][0]
            mine = await botclient.view(api, table, seat)
            r = await api.post(
                f"/v1/tables/{table.table_id}/commands",
                json={"command": expand(mine["legal"])[0]},
                headers=botclient.auth(table.tokens[seat]),
            )
            assert r.status_code == 200, "the reducer answers whether or not anyone projects"
            lags: list[float] = []
            readiness: list[httpx.Response] = []

            async def stalled() -> bool:
                lags.append(await metric(gateway_metrics, "ziggurat_projection_lag_seconds"))
                readiness.append(await api.get("/ready"))
                return readiness[-1].status_code == 503 and lags[-1] > STALL_S

            await until(stalled, STALL_S + 10, every_s=0.5)
            ready = readiness[-1]
            assert ready.status_code == 503, ready.text
            assert any("projector" in p for p in ready.json()["problems"]), ready.json()
            assert lags[-1] > lags[0] and lags[-1] > STALL_S, f"the lag must keep rising: {lags}"
        finally:
            projector.start()
            stack.wait_healthy(names=["projector-0"])
        assert await until(lambda: is_ready(api), 20)
        assert await metric(gateway_metrics, "ziggurat_projection_lag_seconds") < STALL_S
