"""Whole tournaments through the services: organiser API, process manager, bots.

16 bots play 3 Swiss rounds of 4-player high card; the platform process
pairs the rounds, opens the tables as games and records their results. The
public standings must equal a recomputation from the tournament's own log
(ratings included), every table's places must be its game's result, and the
process manager must shrug off a restart mid-tournament and a redelivered
``table.finished``.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
import msgspec
import pytest

from shared.cli import botclient
from shared.cli.feed import follow_path
from shared.eventstore.keys import GameKeys, partition_feed, partition_of
from shared.eventstore.store import EventStore, decode_envelope
from shared.infra.launcher import Stack
from shared.infra.redis_client import connect
from shared.kernel.auth import token_hash
from shared.kernel.legal_groups import expand
from shared.tournaments.events import TournamentEventUnion
from shared.tournaments.evolve import fold
from shared.tournaments.keys import tournament_keys
from shared.tournaments.ratings import tournament_ratings
from shared.tournaments.views import pairings_view, standings_view
from tests.support.accounts import bearer
from tests.support.waiting import eventually, until
from tests.tournaments.organiser_api import create, finished, register, wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("stack"), pytest.mark.timeout(300)]

_events = msgspec.json.Decoder(list[TournamentEventUnion])  # type: ignore[arg-type]


def _to_builtins(value: Any) -> Any:
    return json.loads(msgspec.json.encode(value))


async def collect_feed(api: httpx.AsyncClient, tid: str) -> list[dict[str, Any]]:
    return [entry async for entry in follow_path(api, f"/v1/tournaments/{tid}/feed")]


async def test_sixteen_bots_play_three_swiss_rounds_to_the_end(stack: Stack) -> None:
    redis = connect(stack.redis_url or "")
    async with httpx.AsyncClient(base_url=stack.api, timeout=60) as api:
        tid, token = await create(
            api, name="E2E open", game="highcard", format="swiss", seats_per_table=4, rounds=3
        )
        players = [await register(api, tid, token, f"Bot {i:02d}") for i in range(16)]
        feed = asyncio.create_task(collect_feed(api, tid))
        r = await api.post(f"/v1/tournaments/{tid}/start", headers=bearer(token))
        assert r.status_code == 200, r.text

        # A restart of the platform process while round 2 is under way.
        await wait_for(api, tid, lambda d: len(d["rounds"]) >= 2)
        await asyncio.to_thread(stack.restart, "platform")

        # A player's token finds their table and seat token.
        me = (await api.get(f"/v1/tournaments/{tid}/me", headers=bearer(players[0]["player_token"]))).json()
        assert me["player_id"] == players[0]["player_id"] and me["round"] >= 2
        if me["table_id"] is not None:
            game_keys = GameKeys(me["table_id"], partition_of(me["table_id"], stack.partitions))
            assert int(await redis.hget(game_keys.auth, token_hash(me["seat_token"]))) == me["seat"]

        pairings = await wait_for(api, tid, finished)
        standings = (await api.get(f"/v1/tournaments/{tid}/standings")).json()
        log = (await api.get(f"/v1/tournaments/{tid}/log")).json()
        events = await asyncio.wait_for(feed, timeout=30)

        # The structure: 3 rounds of 4 full tables, every player seated once a round.
        assert [len(rnd["tables"]) for rnd in pairings["rounds"]] == [4, 4, 4]
        ids = {p["player_id"] for p in players}
        for rnd in pairings["rounds"]:
            seated = [p for t in rnd["tables"] for p in t["players"]]
            assert sorted(seated) == sorted(ids) and rnd["complete"] and not rnd["byes"]
            assert all(t["places"] is not None for t in rnd["tables"])

        # Standings and ratings equal a recomputation from the log, and from the store.
        state = fold(_events.decode(json.dumps([e["event"] for e in log["events"]])))
        assert _to_builtins(standings_view(state)) == standings
        assert _to_builtins(pairings_view(state)) == pairings
        stored = await EventStore(redis).read(tournament_keys(tid, stack.partitions))
        assert [json.loads(msgspec.json.encode(msgspec.msgpack.decode(e.payload))) for e in stored] == [
            e["event"] for e in log["events"]
        ]
        rated = tournament_ratings(state)
        for line in standings["lines"]:
            mine = rated[line["line"]["player_id"]]
            assert (line["mu"], line["sigma"], line["rating"]) == (mine.mu, mine.sigma, mine.ordinal)
        assert [line["line"]["player_id"] for line in standings["lines"]] == list(state.ranking)
        assert sum(line["line"]["games"] for line in standings["lines"]) == 16 * 3

        # The live feed delivered the log, in order, once.
        assert [e["version"] for e in events] == list(range(1, len(log["events"]) + 1))
        assert events == log["events"]

        # Every table's places are its game's result.
        for rnd in pairings["rounds"]:
            for table in rnd["tables"]:
                view = (await api.get(f"/v1/tables/{table['game_id']}/view")).json()
                assert view["over"]
                places = {s["seat"]: s["place"] for s in view["result"]["standings"]}
                assert table["places"] == [places[s] for s in range(len(table["players"]))]

        # A redelivered table.finished records nothing twice.
        game_id = pairings["rounds"][0]["tables"][0]["game_id"]
        redelivered = await redeliver_finished(redis, game_id, stack.partitions)
        version = len(log["events"])
        await wait_handled(redis, partition_feed(partition_of(game_id, stack.partitions)), redelivered)
        again = (await api.get(f"/v1/tournaments/{tid}/log")).json()
        assert len(again["events"]) == version
        assert (await api.get(f"/v1/tournaments/{tid}/standings")).json() == standings
        await wait_no_pending(redis, stack.partitions)
    await redis.aclose()


async def redeliver_finished(redis: Any, game_id: str, partitions: int) -> bytes:
    """The id of a second copy of the game's table.finished, added to its partition feed."""
    feed = partition_feed(partition_of(game_id, partitions))
    for _, fields in reversed(await redis.xrange(feed)):
        if fields[b"g"].decode() != game_id:
            continue
        if msgspec.msgpack.decode(decode_envelope(fields[b"e"]).payload)["type"] == "table.finished":
            return bytes(await redis.xadd(feed, fields))
    raise AssertionError(f"no table.finished for {game_id}")


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _stream_id(entry_id: bytes | str) -> tuple[int, int]:
    ms, seq = _text(entry_id).split("-")
    return int(ms), int(seq)


async def wait_handled(redis: Any, feed: str, entry_id: bytes) -> None:
    """The process manager has read the feed up to ``entry_id`` and acknowledged all it read."""

    async def handled() -> bool:
        groups = {_text(g["name"]): g for g in await redis.xinfo_groups(feed)}
        group = groups.get("tournaments")
        return (
            group is not None
            and _stream_id(group["last-delivered-id"]) >= _stream_id(entry_id)
            and int(group["pending"]) == 0
        )

    assert await until(handled, 10, every_s=0.05), f"{feed}: {entry_id!r} not handled"


async def wait_no_pending(redis: Any, partitions: int) -> None:
    """The process manager acknowledged every feed entry (nothing failed)."""
    pending: list[int] = []

    async def none_pending() -> bool:
        pending[:] = [
            (await redis.xpending(partition_feed(p), "tournaments"))["pending"] for p in range(partitions)
        ]
        return not any(pending)

    assert await until(none_pending, 5, every_s=0.1), f"entries left pending: {pending}"


async def test_a_human_fetches_their_seat_and_plays_it(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=60) as api:
        tid, token = await create(api, game="highcard", seats_per_table=4, rounds=1)
        human = await register(api, tid, token, "Ada", kind="human")
        for i in range(3):
            await register(api, tid, token, f"Bot {i}")
        assert (await api.post(f"/v1/tournaments/{tid}/start", headers=bearer(token))).status_code == 200

        async def seated() -> dict[str, Any] | None:
            me = (await api.get(f"/v1/tournaments/{tid}/me", headers=bearer(human["player_token"]))).json()
            return me if me["seat_token"] else None

        me = await eventually(seated, 10, every_s=0.1)
        assert me is not None and me["table"] == 1
        seat = me["seat"]
        table = botclient.Table(me["table_id"], "highcard", [""] * 4)
        table.tokens[me["seat"]] = me["seat_token"]
        rng = random.Random(7)

        async def my_turn_or_the_end() -> dict[str, Any] | None:
            if not await _exists(api, table):
                return None
            doc: dict[str, Any] = (await api.get(f"/v1/tables/{table.table_id}/view")).json()
            return doc if doc["over"] or seat in doc["actors"] else None

        for _ in range(500):
            doc = await eventually(my_turn_or_the_end, 30, every_s=0.05)
            assert doc is not None, "neither my turn nor the end came"
            if doc["over"]:
                break
            mine = await botclient.view(api, table, me["seat"])
            if mine["legal"] and mine["version"] == doc["version"]:
                await botclient.submit(
                    api,
                    table,
                    me["seat"],
                    rng.choice(expand(mine["legal"])),
                    mine["version"],
                    botclient.Stats(),
                )
        pairings = await wait_for(api, tid, finished, within=30)
        assert pairings["rounds"][0]["tables"][0]["places"] is not None


async def _exists(api: httpx.AsyncClient, table: botclient.Table) -> bool:
    return (await api.get(f"/v1/tables/{table.table_id}/view")).status_code == 200


async def test_organiser_and_public_errors(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        r = await api.get("/v1/tournaments/nope-none/standings")
        assert (r.status_code, r.json()["code"]) == (404, "unknown_tournament")
        r = await api.post("/v1/tournaments/nope-none/start", headers=bearer("x"))
        assert (r.status_code, r.json()["code"]) == (404, "unknown_tournament")
        r = await api.post("/v1/tournaments", json={"game": "highcard", "seats_per_table": 4, "rounds": 0})
        assert (r.status_code, r.json()["code"]) == (422, "invalid_settings")
        r = await api.post("/v1/tournaments", json={"game": "no-such-game", "rounds": 1})
        assert (r.status_code, r.json()["code"]) == (404, "unknown_game")

        tid, token = await create(api, game="highcard", seats_per_table=2, rounds=1)
        r = await api.post(f"/v1/tournaments/{tid}/start", headers=bearer("wrong"))
        assert (r.status_code, r.json()["code"]) == (403, "bad_token")
        r = await api.post(f"/v1/tournaments/{tid}/start")
        assert (r.status_code, r.json()["code"]) == (401, "missing_token")
        r = await api.post(f"/v1/tournaments/{tid}/start", headers=bearer(token))
        assert (r.status_code, r.json()["code"]) == (422, "not_enough_players")
        r = await api.post(f"/v1/tournaments/{tid}/rounds", headers=bearer(token))
        assert (r.status_code, r.json()["code"]) == (422, "not_started")
        r = await api.post("/v1/tournaments", json={"tournament_id": tid, "game": "highcard", "rounds": 1})
        assert (r.status_code, r.json()["code"]) == (422, "already_created")
        r = await api.get(f"/v1/tournaments/{tid}/me", headers=bearer("not-a-player"))
        assert (r.status_code, r.json()["code"]) == (403, "bad_token")
        standings = (await api.get(f"/v1/tournaments/{tid}/standings")).json()
        assert standings["status"] == "registering" and standings["lines"] == []
