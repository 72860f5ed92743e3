"""Helpers of the player, arena and casual-table e2e tests: accounts, bot processes, the ladder check."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import msgspec

from shared.eventstore.store import EventStore
from shared.infra.launcher import REPO, Stack
from shared.infra.redis_client import connect
from shared.ladders.events import Rated
from shared.ladders.keys import ladder_board, ladder_keys
from shared.ladders.ladder import fold, leaderboard

_rated = msgspec.msgpack.Decoder(Rated).decode


def bearer(key: str) -> dict[str, str]:
    return {"authorization": f"Bearer {key}"}


async def register(api: httpx.AsyncClient, name: str, **extra: Any) -> tuple[str, str]:
    r = await api.post("/v1/players", json={"name": name, "bot": True, **extra})
    assert r.status_code == 201, r.text
    return r.json()["player_id"], r.json()["player_key"]


def cli_bot(stack: Stack, key: str, strategy: str, log: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "shared.cli.main", "bot", "--api", stack.api, "--key", key]
    with log.open("ab") as out:
        return subprocess.Popen(
            [*command, "--strategy", strategy, "--seed", "7"], cwd=REPO, stderr=out, stdout=out
        )


def example_bot(stack: Stack, key: str, log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, str(REPO / "examples" / "bot.py"), "--api", stack.api, "--key", key],
            cwd=REPO,
            stderr=out,
            stdout=out,
        )


async def page(api: httpx.AsyncClient, player_id: str) -> dict[str, Any]:
    r = await api.get(f"/v1/players/{player_id}")
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


async def ladder_is_recomputed(stack: Stack, game: str) -> dict[str, Any]:
    """The live leaderboard equals one folded from the ladder's own log."""
    redis = connect(str(stack.redis_url))
    try:
        keys = ladder_keys(game, stack.partitions)
        events = [_rated(e.payload) for e in await EventStore(redis).read(keys)]
        state = fold(game, events)
        live = json.loads(await redis.get(ladder_board(game)))
        names = {line["player_id"]: line["name"] for line in live["lines"]}
        bots = {line["player_id"]: line["bot"] for line in live["lines"]}
        assert live == json.loads(msgspec.json.encode(leaderboard(state, names, bots)))
        assert len(events) == len({e.table_id for e in events})
        return {"events": events, "board": live}
    finally:
        await redis.aclose()
