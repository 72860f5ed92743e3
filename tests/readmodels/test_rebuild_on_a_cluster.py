"""`ziggurat rebuild --cluster`: on a Redis Cluster the projector's script runs
outside pipelines, so rebuild resets and writes in two steps; the read models
it leaves are still entry for entry what the log says."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import msgspec
import pytest

from shared.cli.main import main as ziggurat
from shared.eventstore.envelope import EventEnvelope
from shared.eventstore.keys import GameKeys, partition_of
from shared.eventstore.store import AppendRequest, EventStore
from shared.infra.redis_client import connect
from shared.infra.valkey_cluster import start_cluster
from shared.kernel import table as tables
from shared.kernel.codec import codec_for
from shared.kernel.playout import play
from shared.readmodels import rebuilder
from shared.readmodels.build import audience_name
from tests.support.highcard import GAME

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]
PARTITIONS = 4
SEATS = 3


async def _write_game(store: EventStore, keys: GameKeys, seed: bytes) -> None:
    events = tables.open_table(GAME, SEATS, {}, seed, ("a", "b", "c"), 0)
    events += play(GAME, SEATS, seed).events[len(events) - 2 :]
    codec = codec_for(GAME)
    for version, event in enumerate(events, start=1):
        envelope = EventEnvelope(
            game_id=keys.game_id,
            partition=keys.partition,
            version=version,
            event_id=f"{keys.game_id}:{version}",
            command_id=f"c{version}",
            correlation_id="corr",
            server_time=version,
            seat=0,
            payload=codec.pack(event),
        )
        request = AppendRequest(
            keys=keys, expected=version - 1, command_id="", command=None, envelopes=[envelope]
        )
        assert (await store.append(request)).status == "appended"


async def _read_models(redis: Any, keys: GameKeys) -> dict[str, Any]:
    out: dict[str, Any] = {"checkpoint": await redis.get(keys.checkpoint)}
    for name in (audience_name(a) for a in [None, *range(SEATS)]):
        out[f"view:{name}"] = await redis.get(keys.view(name))
        out[f"feed:{name}"] = await redis.xrange(keys.audience_feed(name))
    return out


async def test_rebuild_writes_and_repairs_read_models_on_a_cluster(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    valkeys = start_cluster(tmp_path / "cluster", masters=3)
    try:
        redis = connect(valkeys.url, cluster=True)
        ids = [f"game-{i}" for i in range(8)]
        keys = [GameKeys(g, partition_of(g, PARTITIONS)) for g in ids]
        assert len({k.partition for k in keys}) > 1
        store = EventStore(redis)
        for i, k in enumerate(keys):
            await _write_game(store, k, bytes([i + 1]) * 32)
        # Several script calls per game and several groups per partition.
        monkeypatch.setattr(rebuilder, "CHUNK_VERSIONS", 4)
        monkeypatch.setattr(rebuilder, "GROUP_EVENTS", 30)
        args = ["rebuild", *ids, "--redis", valkeys.url, "--partitions", str(PARTITIONS), "--cluster"]

        assert await asyncio.to_thread(ziggurat, args) == 1  # nothing projected yet
        assert await asyncio.to_thread(ziggurat, [*args, "--write"]) == 0
        assert await asyncio.to_thread(ziggurat, args) == 0
        written = [await _read_models(redis, k) for k in keys]
        for k, models in zip(keys, written, strict=True):
            versions = [int(entry_id.split(b"-")[1]) for entry_id, _ in models["feed:spectator"]]
            assert versions == sorted(set(versions)) and int(models["checkpoint"]) == await store.version(k)
            feed = [msgspec.json.decode(fields[b"e"]) for _, fields in models["feed:spectator"]]
            assert [e["version"] for e in feed] == versions

        first, second = keys[0], keys[1]
        middle = written[0]["feed:seat1"][len(written[0]["feed:seat1"]) // 2][0]
        await redis.xdel(first.audience_feed("seat1"), middle)
        await redis.delete(second.checkpoint, second.audience_feed("spectator"))
        assert await asyncio.to_thread(ziggurat, args) == 1
        assert await asyncio.to_thread(ziggurat, [*args, "--write"]) == 0
        assert [await _read_models(redis, k) for k in keys] == written
        await redis.aclose()
    finally:
        valkeys.stop()
