"""Players, ladders and the bot API through the running services.

Two external bots, each a separate process that uses only the bot API
(``ziggurat bot`` and ``examples/bot.py``), play a rated tournament of high
card to the end; one is killed with SIGKILL mid-game and started again, and
finishes. The ladder moves exactly once per table, even when a result is
delivered a second time, and equals a recomputation from its own log. A
player key never acts for another player's seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from pathlib import Path
from typing import Any

import httpx
import pytest

from shared.infra.launcher import Stack
from shared.infra.redis_client import connect
from shared.kernel.auth import token_hash
from shared.players.keys import KEY_INDEX, player_doc
from shared.tournaments.keys import tournament_feed, tournament_keys
from tests.support.accounts import bearer, cli_bot, example_bot, ladder_is_recomputed, page, register
from tests.support.waiting import eventually, until

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("stack"), pytest.mark.timeout(300)]

ROUNDS = 3
#: Long enough (120 moves) that a bot can be killed mid-game.
LONG = {"deck_size": 200, "hand_size": 60}


async def tournament(api: httpx.AsyncClient, keys: list[str], rounds: int = ROUNDS) -> tuple[str, str]:
    r = await api.post(
        "/v1/tournaments",
        json={"game": "highcard", "seats_per_table": 2, "rounds": rounds, "format": "swiss"},
    )
    assert r.status_code == 201, r.text
    tid, organiser = r.json()["tournament_id"], r.json()["organiser_token"]
    for key in keys:
        joined = await api.post(f"/v1/tournaments/{tid}/join", headers=bearer(key))
        assert joined.status_code == 201, joined.text
    return tid, organiser


async def start(api: httpx.AsyncClient, tid: str, organiser: str) -> None:
    r = await api.post(f"/v1/tournaments/{tid}/start", headers=bearer(organiser))
    assert r.status_code == 200, r.text


async def test_a_player_registers_and_rotates_its_key(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        first = await api.post("/v1/players", json={"name": "Ada"}, headers={"idempotency-key": "ada-1"})
        again = await api.post("/v1/players", json={"name": "Ada"}, headers={"idempotency-key": "ada-1"})
        assert first.status_code == again.status_code == 201
        player_id, key = first.json()["player_id"], first.json()["player_key"]
        assert again.json()["player_id"] == player_id and again.json()["player_key"] == key
        assert again.json()["duplicate"] is True
        assert (await page(api, player_id))["name"] == "Ada"

        async with api.stream("GET", "/v1/bot/stream", headers=bearer(key)) as before:
            assert before.status_code == 200
            rotated = await api.post(
                f"/v1/players/{player_id}/key", headers={**bearer(key), "idempotency-key": "r1"}
            )
            # The stream the old key opened ends at once.
            lines = [line async for line in before.aiter_lines()]
            assert "event: end" in lines
        assert rotated.status_code == 200, rotated.text
        new_key = rotated.json()["player_key"]
        assert new_key != key
        # A retry of the same rotation learns the same new key; the old key is dead otherwise.
        retry = await api.post(
            f"/v1/players/{player_id}/key", headers={**bearer(key), "idempotency-key": "r1"}
        )
        assert retry.status_code == 200 and retry.json()["player_key"] == new_key
        refused = await api.post(f"/v1/players/{player_id}/key", headers=bearer(key))
        assert refused.status_code == 403 and refused.json()["code"] == "bad_token"
        async with api.stream("GET", "/v1/bot/stream", headers=bearer(key)) as old:
            assert old.status_code == 403
        # The new key works; another player's key does not rotate this one.
        other_id, other_key = await register(api, "Other")
        foreign = await api.post(f"/v1/players/{player_id}/key", headers=bearer(other_key))
        assert foreign.status_code == 403
        ok = await api.post(f"/v1/players/{player_id}/key", headers=bearer(new_key))
        assert ok.status_code == 200
        assert other_id != player_id


async def test_a_repeated_registration_repairs_a_lost_read_model(stack: Stack) -> None:
    """The account's read model and key index are the host's projection: a repeat
    rewrites them, so a write lost after the append (a crash between the two) is
    repaired by the client's retry."""
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        headers = {"idempotency-key": "lost-1"}
        first = await api.post("/v1/players", json={"name": "Lost"}, headers=headers)
        assert first.status_code == 201, first.text
        player_id, key = first.json()["player_id"], first.json()["player_key"]
        redis = connect(str(stack.redis_url))
        try:
            await redis.delete(player_doc(player_id))
            await redis.hdel(KEY_INDEX, token_hash(key))
        finally:
            await redis.aclose()
        assert (await api.get(f"/v1/players/{player_id}")).status_code == 404
        async with api.stream("GET", "/v1/bot/stream", headers=bearer(key)) as lost:
            assert lost.status_code in (401, 403)
        again = await api.post("/v1/players", json={"name": "Lost"}, headers=headers)
        assert again.status_code == 201 and again.json()["duplicate"] is True
        assert (await page(api, player_id))["name"] == "Lost"
        async with api.stream("GET", "/v1/bot/stream", headers=bearer(key)) as back:
            assert back.status_code == 200


async def _redeliver_results(stack: Stack, tid: str) -> int:
    """Append every result of the tournament to its feed again, as a redelivery would."""
    redis = connect(str(stack.redis_url))
    try:
        keys = tournament_keys(tid, stack.partitions)
        rows = await redis.xrange(tournament_feed(keys.partition))
        copies = [f for _, f in rows if f[b"g"].decode() == tid and b"result_recorded" in f[b"e"]]
        for fields in copies:
            await redis.xadd(tournament_feed(keys.partition), fields)
        feed = tournament_feed(keys.partition)

        async def consumed() -> bool:
            groups = {g["name"].decode(): g for g in await redis.xinfo_groups(feed)}
            group = groups.get("players")
            return group is not None and group["pending"] == 0 and group.get("lag", 0) == 0

        assert await until(consumed, 30)
        return len(copies)
    finally:
        await redis.aclose()


async def test_two_external_bots_play_a_rated_tournament_to_the_end(stack: Stack, tmp_path: Path) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        a_id, a_key = await register(api, "Random bot", operator="tests")
        b_id, b_key = await register(api, "Example bot")
        tid, organiser = await tournament(api, [a_key, b_key])
        # Bots first: the fresh stream of each looks at every table it sits at, now and later.
        a = cli_bot(stack, a_key, "random", tmp_path / "a.log")
        b = example_bot(stack, b_key, tmp_path / "b.log")
        try:
            # A short game can be over between two polls, so the kill is made certain
            # to land mid-game: whichever bot is not awaited is held still (SIGSTOP)
            # until one move is made; then the game waits on a held bot.
            b.send_signal(signal.SIGSTOP)
            await start(api, tid, organiser)

            async def a_table() -> tuple[str, int] | None:
                tables = (await page(api, a_id))["tables"]
                return (tables[0]["table_id"], tables[0]["seat"]) if tables else None

            found = await eventually(a_table, 60)
            assert found, (tmp_path / "a.log").read_text()
            table_id, seat = found
            first = (await api.get(f"/v1/tables/{table_id}/view")).json()
            if seat not in first["actors"]:
                a.send_signal(signal.SIGSTOP)  # b moves once, then a is awaited and held
                b.send_signal(signal.SIGCONT)

            async def moved() -> bool:
                view = (await api.get(f"/v1/tables/{table_id}/view")).json()
                return bool(view["moves"] >= 1 and not view["over"])

            assert await until(moved, 60), (tmp_path / "a.log").read_text()
            a.send_signal(signal.SIGKILL)  # mid-game: it comes back as a new process
            a.wait()
            b.send_signal(signal.SIGCONT)
            a = cli_bot(stack, a_key, "greedy", tmp_path / "a.log")

            async def finished() -> bool:
                r = await api.get(f"/v1/tournaments/{tid}/standings")
                return bool(r.json()["status"] == "finished")

            logs = (tmp_path / "a.log", tmp_path / "b.log")
            assert await until(finished, 180), "\n".join(log.read_text() for log in logs)
        finally:
            for proc in (a, b):
                proc.kill()
                proc.wait()

        board = (await api.get("/v1/ladders/highcard")).json()
        lines = {line["player_id"]: line for line in board["lines"]}
        assert lines[a_id]["games"] == ROUNDS and lines[b_id]["games"] == ROUNDS
        assert lines[a_id]["provisional"] and board["provisional_below"] > ROUNDS
        before = await ladder_is_recomputed(stack, "highcard")
        mine = [e for e in before["events"] if e.source == f"tournament:{tid}"]
        assert len(mine) == ROUNDS

        # A result delivered twice moves nothing.
        assert await _redeliver_results(stack, tid) == ROUNDS
        after = await ladder_is_recomputed(stack, "highcard")
        assert after["board"] == before["board"] and len(after["events"]) == len(before["events"])

        a_page = await page(api, a_id)
        assert a_page["tables"] == []
        assert len(a_page["games"]) == ROUNDS
        (rated,) = a_page["ladders"]
        assert rated["game"] == "highcard" and len(rated["history"]) == ROUNDS
        assert rated["mu"] == lines[a_id]["mu"]

        # The next tournament starts the players from their ladder ratings.
        tid2, _ = await tournament(api, [a_key])
        standings = (await api.get(f"/v1/tournaments/{tid2}/standings")).json()
        (line,) = standings["lines"]
        assert line["mu"] == rated["mu"] and line["sigma"] == rated["sigma"]


async def _stream_events(
    api: httpx.AsyncClient, key: str, last_id: str | None, want: int
) -> list[tuple[str, str]]:
    """(event, id) of the first ``want`` events (or as many as come within a few seconds)."""
    headers = bearer(key) | ({"last-event-id": last_id} if last_id else {})
    got: list[tuple[str, str]] = []

    async def read() -> None:
        async with api.stream("GET", "/v1/bot/stream", headers=headers) as r:
            assert r.status_code == 200
            kind, event_id = "message", None
            async for line in r.aiter_lines():
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("id: "):
                    event_id = line[4:]
                elif not line and event_id is not None:
                    got.append((kind, event_id))
                    kind, event_id = "message", None
                    if len(got) >= want:
                        return

    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(read(), timeout=5)
    return got


async def test_a_key_acts_only_for_its_own_seats_and_the_stream_resumes(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        a_id, a_key = await register(api, "A")
        b_id, b_key = await register(api, "B")
        tid, organiser = await tournament(api, [a_key, b_key], rounds=1)
        await start(api, tid, organiser)
        tables = await eventually(lambda: _tables(api, a_id), 30)
        assert tables
        table_id = tables[0]["table_id"]
        seat_of = {a_id: tables[0]["seat"], b_id: 1 - tables[0]["seat"]}

        view = await _view(api, table_id)
        acting = a_id if _to_act(view) == seat_of[a_id] else b_id
        waiting_key = b_key if acting == a_id else a_key
        acting_key = a_key if acting == a_id else b_key
        version = view["version"]
        first = await _stream_events(api, acting_key, None, 1)
        assert first and first[0][0] == "turn", first

        # The waiting player's key acts as its own seat, never the one to play.
        move = {"type": "highcard.play", "card": 1}
        r = await api.post(
            f"/v1/tables/{table_id}/commands",
            json={"command": move, "expected_version": version},
            headers=bearer(waiting_key),
        )
        assert r.status_code == 422 and r.json()["code"] == "not_your_turn", r.text
        # A table neither player sits at: the key is no seat's token there.
        opened = await api.post("/v1/tables", json={"game": "highcard", "seats": 2})
        other = opened.json()["table_id"]
        r = await api.post(f"/v1/tables/{other}/commands", json={"command": move}, headers=bearer(acting_key))
        assert r.status_code == 403 and r.json()["code"] == "bad_token"

        # Resume: after the last id seen, only later entries come.
        seen = await _stream_events(api, acting_key, None, 1)
        last = seen[-1][1]
        events = await _stream_events(api, acting_key, last, 1)
        assert all(int(i) > int(last) for _, i in events)


async def _tables(api: httpx.AsyncClient, player_id: str) -> list[dict[str, Any]] | None:
    tables: list[dict[str, Any]] = (await page(api, player_id))["tables"]
    return tables or None


async def _view(api: httpx.AsyncClient, table_id: str) -> dict[str, Any]:
    async def ready() -> dict[str, Any] | None:
        r = await api.get(f"/v1/tables/{table_id}/view")
        return r.json() if r.status_code == 200 else None

    found = await eventually(ready, 30)
    assert found is not None
    return found


def _to_act(view: dict[str, Any]) -> int:
    actors: list[int] = view["actors"]
    return actors[0]
