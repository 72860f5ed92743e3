"""The signals tell the truth, piece by piece (the whole, with a real
Prometheus, is test_prometheus.py).

* The projector's write keeps the store's live sets: a table is live from its
  first projection until a projection shows it over, and a redelivered old
  projection does not bring it back.
* The gateway's watch counts live games from those sets, reports the store's
  memory and append-only file, and on an unreachable store says so instead of
  showing its last good figures.
* The end-to-end latency is observed when the notice for the command's version
  comes, whichever of the notice and the outcome arrives first, and never for
  an older version.
* The HTTP histogram has the status class, 5xx included for an exception no
  handler answered.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from services.gateway.app import Timing
from services.gateway.watch import CommandWatch, PipelineWatch
from shared.eventstore.keys import GameKeys, live_tables
from shared.infra.redis_client import connect
from shared.infra.valkey_server import free_port
from shared.observability import metrics
from shared.readmodels.build import ReadModels
from shared.readmodels.writer import ReadModelWriter

pytestmark = pytest.mark.integration


def value(metric: Any, *labels: str) -> float:
    return float(metric.labels(*labels)._value.get())


def count(histogram: Any, *labels: str) -> float:
    return float(sum(b.get() for b in histogram.labels(*labels)._buckets))


def models(version: int, over: bool, game: str = "highcard") -> ReadModels:
    return ReadModels(version=version, views={"spectator": b"{}"}, feeds={}, game=game, over=over)


async def test_the_projector_keeps_the_live_sets(redis: Any) -> None:
    writer = ReadModelWriter(redis)
    keys = GameKeys("t1", 1)
    live = live_tables(1, "highcard")
    await writer.write([(keys, models(1, over=False), [])])
    assert await redis.smembers(live) == {b"t1"}
    await writer.write([(keys, models(5, over=False), [])])
    assert await redis.scard(live) == 1
    await writer.write([(keys, models(6, over=True), [])])
    assert await redis.scard(live) == 0
    # A projection of an older version delivered again changes nothing.
    await writer.write([(keys, models(3, over=False), [])])
    assert await redis.scard(live) == 0


async def test_the_watch_counts_live_games_from_the_store_and_reports_the_store(redis: Any) -> None:
    writer = ReadModelWriter(redis)
    for i in range(3):
        await writer.write([(GameKeys(f"g{i}", i % 2), models(1, over=False), [])])
    await writer.write([(GameKeys("g0", 0), models(2, over=True), [])])
    watch = PipelineWatch(redis, partitions=2, stall_after_s=15)
    await watch.measure()
    assert value(metrics.LIVE_GAMES, "highcard") == 2
    assert value(metrics.LIVE_GAMES, "tigris") == 0
    (node,) = watch.nodes
    assert value(metrics.VALKEY_UP, node) == 1
    assert value(metrics.VALKEY_MEMORY, node) > 0
    assert value(metrics.VALKEY_AOF_WRITE_OK, node) == 1
    assert value(metrics.STAGE_BACKLOG, "projector", "0") == 0
    assert value(metrics.STREAM_LENGTH, "feed", "1") == 0


async def test_an_unreachable_store_is_reported_not_papered_over(redis: Any) -> None:
    watch = PipelineWatch(redis, partitions=1, stall_after_s=15)
    await watch.measure()
    (node,) = watch.nodes
    gone = connect(f"redis://127.0.0.1:{free_port()}/0")
    watch.redis = gone
    try:
        with pytest.raises(Exception):  # noqa: B017 - whatever the client raises
            await watch.measure()
        watch._unmeasured()
    finally:
        await gone.aclose()
    assert value(metrics.VALKEY_UP, node) == 0
    assert metrics.PIPELINE_READY._value.get() == 0
    assert not metrics.PROJECTION_LAG._metrics and not metrics.LIVE_GAMES._metrics


def test_visible_latency_waits_for_the_commands_own_version() -> None:
    watch = CommandWatch()
    before = count(metrics.VISIBLE_LATENCY, "tigris")
    watch.accepted("t", "tigris", 7, received_ns=1_000_000_000)
    watch.notice(b"t 6\nother 9")
    assert count(metrics.VISIBLE_LATENCY, "tigris") == before
    watch.projected("t", 8, now_ns=1_500_000_000)
    assert count(metrics.VISIBLE_LATENCY, "tigris") == before + 1
    assert watch.game_of("t") == "tigris" and watch.game_of("nope") == "-"


def test_a_notice_that_overtakes_the_outcome_still_counts() -> None:
    watch = CommandWatch()
    before = count(metrics.VISIBLE_LATENCY, "conan")
    watch.notice(b"c 3")
    watch.accepted("c", "conan", 3, received_ns=0)
    assert count(metrics.VISIBLE_LATENCY, "conan") == before + 1


def test_lost_notices_forget_what_waited() -> None:
    watch = CommandWatch(limit=2)
    before = count(metrics.VISIBLE_LATENCY, "catan")
    for i in range(3):  # beyond the limit: the oldest table is forgotten
        watch.accepted(f"x{i}", "catan", 1, received_ns=0)
    watch.notice(b"x0 1")
    assert count(metrics.VISIBLE_LATENCY, "catan") == before
    watch.lost()
    watch.notice(b"x1 1\nx2 1")
    assert count(metrics.VISIBLE_LATENCY, "catan") == before


async def test_requests_are_timed_with_their_status_class() -> None:
    async def ok(_: Request) -> Response:
        return Response("ok")

    async def refused(_: Request) -> Response:
        return Response("no", status_code=409)

    async def broken(_: Request) -> Response:
        raise RuntimeError("a bug")

    app = Starlette(
        routes=[Route("/ok", ok), Route("/refused", refused), Route("/broken", broken)],
        middleware=[Middleware(Timing)],
    )
    histogram = metrics.REQUEST_LATENCY
    before = {
        key: count(histogram, *key)
        for key in [("/ok", "2xx"), ("/refused", "4xx"), ("/broken", "5xx"), ("unmatched", "4xx")]
    }
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        assert (await client.get("/ok")).status_code == 200
        assert (await client.get("/refused")).status_code == 409
        assert (await client.get("/broken")).status_code == 500
        assert (await client.get("/nowhere")).status_code == 404
    for key, n in before.items():
        assert count(histogram, *key) == n + 1, key
