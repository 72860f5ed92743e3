"""Bad input gets a stable code and a clear message, appends nothing, and is counted."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from shared.cli import botclient
from shared.eventstore.keys import GameKeys, partition_of
from shared.eventstore.store import EventStore
from shared.infra.launcher import Stack
from shared.infra.redis_client import connect
from shared.kernel.legal_groups import expand

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("stack"), pytest.mark.timeout(300)]


async def rejection_count(api: httpx.AsyncClient, code: str) -> float:
    text = (await api.get("/metrics")).text
    pattern = rf'^ziggurat_rejections_total{{code="{code}",service="gateway"}} (\S+)$'
    found = re.search(pattern, text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


async def test_every_kind_of_bad_input_is_refused_cleanly(stack: Stack) -> None:
    redis = connect(stack.redis_url or "")
    store = EventStore(redis)
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        table = await botclient.open_table(api, "highcard", 2)
        keys = GameKeys(table.table_id, partition_of(table.table_id, stack.partitions))
        before = await store.version(keys)
        me = await botclient.view(api, table, 0)
        other_seat = 1 - me["actors"][0]
        actor = me["actors"][0]
        url = f"/v1/tables/{table.table_id}/commands"
        token = botclient.auth(table.tokens[actor])
        cases: list[tuple[str, dict[str, Any], int, str]] = [
            ("malformed json", {"content": b"{not json", "headers": token}, 400, "bad_json"),
            ("wrong body shape", {"json": {"cmd": 1}, "headers": token}, 400, "bad_request"),
            (
                "unknown command type",
                {"json": {"command": {"type": "highcard.cheat"}}, "headers": token},
                400,
                "bad_command",
            ),
            (
                "missing token",
                {"json": {"command": {"type": "highcard.play", "card": 1}}},
                401,
                "missing_token",
            ),
            (
                "wrong token",
                {
                    "json": {"command": {"type": "highcard.play", "card": 1}},
                    "headers": botclient.auth("forged"),
                },
                403,
                "bad_token",
            ),
            (
                "out of turn",
                {
                    "json": {"command": {"type": "highcard.play", "card": 1}},
                    "headers": botclient.auth(table.tokens[other_seat]),
                },
                422,
                "not_your_turn",
            ),
            (
                "illegal move",
                {"json": {"command": {"type": "highcard.play", "card": 999}}, "headers": token},
                422,
                "card_not_in_hand",
            ),
            (
                "oversized body",
                {"content": b'{"command":"' + b"x" * 200_000 + b'"}', "headers": token},
                413,
                "body_too_large",
            ),
            (
                "stale version",
                {
                    "json": {
                        "command": expand(me["legal"])[0]
                        if actor == 0
                        else {"type": "highcard.play", "card": 1},
                        "expected_version": 1,
                    },
                    "headers": token,
                },
                409,
                "stale_version",
            ),
        ]
        for name, kwargs, status, code in cases:
            counted = await rejection_count(api, code)
            r = await api.post(url, **kwargs)
            body = r.json()
            assert (r.status_code, body["code"]) == (status, code), f"{name}: {r.status_code} {body}"
            assert body["status"] == "rejected" and len(body["message"]) > 10, name
            assert await rejection_count(api, code) == counted + 1, f"{name} was not counted"
        assert await store.version(keys) == before, "a rejected command appended something"

        unknown = await api.post(
            "/v1/tables/nope/commands", json={"command": {"type": "highcard.play"}}, headers=token
        )
        assert (unknown.status_code, unknown.json()["code"]) == (404, "unknown_table")
        for body, code in [
            ({"game": "chess", "seats": 2}, "unknown_game"),
            ({"game": "highcard", "seats": 9}, "bad_seat_count"),
            ({"game": "highcard", "seats": 2, "options": {"hand_size": "many"}}, "bad_options"),
        ]:
            r = await api.post("/v1/tables", json=body)
            assert r.json()["code"] == code, r.text
        assert (await api.get("/v1/tables/nope/view")).json()["code"] == "unknown_table"
        assert (await api.get(f"/v1/tables/{table.table_id}/log")).json()["code"] == "game_not_over"
        assert (await api.get("/no/such/route")).json()["code"] == "not_found"
        wrong = await api.delete(f"/v1/tables/{table.table_id}/commands")
        assert (wrong.status_code, wrong.json()["code"]) == (405, "method_not_allowed")
        assert "POST" in wrong.headers["allow"]

        # Stored headers are bounded; bodies are UTF-8 JSON; query values strict.
        move = {"command": {"type": "highcard.play", "card": 999}}
        for headers in ({"x-correlation-id": "c" * 200}, {"idempotency-key": "k" * 129}):
            r = await api.post(url, json=move, headers={**token, **headers})
            assert (r.status_code, r.json()["code"]) == (400, "bad_header"), r.text
        r = await api.post(
            url,
            content=b'{"command":{"type":"highcard.play","card":"\xff"}}',
            headers={**token, "content-type": "application/json"},
        )
        assert (r.status_code, r.json()["code"]) == (400, "bad_json"), r.text
        r = await api.post("/v1/tables", content=b'{"game":"\xff","seats":2}')
        assert (r.status_code, r.json()["code"]) == (400, "bad_json"), r.text
        for query in ("min_version=%C2%B2", "min_version=99999999999999999999999", "min_version=-1"):
            r = await api.get(f"/v1/tables/{table.table_id}/view?{query}")
            assert (r.status_code, r.json()["code"]) == (400, "bad_request"), (query, r.text)
        r = await api.get(f"/v1/tables/{table.table_id}/feed?after=18446744073709551616")
        assert (r.status_code, r.json()["code"]) == (400, "bad_request"), r.text
        for delay in ({"moves": -1}, {"seconds": -5}, {"seconds": 1e12}):
            r = await api.post("/v1/tables", json={"game": "highcard", "seats": 2, "spectator_delay": delay})
            assert r.status_code == 400, (delay, r.text)
        for clock in (
            {"initial_ms": 184467440737095516160},
            {"initial_ms": 2**63 - 1, "increment_ms": 2**63 - 1, "policy": "forfeit"},
        ):
            r = await api.post("/v1/tables", json={"game": "highcard", "seats": 2, "clock": clock})
            assert (r.status_code, r.json()["code"]) == (400, "bad_clock"), (clock, r.text)
        huge = {"command": {"type": "highcard.play", "card": 2**70}}
        r = await api.post(url, json=huge, headers=token)
        assert (r.status_code, r.json()["code"]) == (400, "bad_command"), r.text
        assert await store.version(keys) == before, "a rejected command appended something"
    await redis.aclose()


LOW_LIMITS = {
    "ZIGGURAT_RATE_PER_S": "5",
    "ZIGGURAT_RATE_BURST": "10",
    "ZIGGURAT_OPEN_RATE_PER_S": "0.5",
    "ZIGGURAT_OPEN_BURST": "6",
    "ZIGGURAT_READ_RATE_PER_S": "5",
    "ZIGGURAT_READ_BURST": "40",
    "ZIGGURAT_BAD_TOKEN_RATE_PER_S": "0.5",
    "ZIGGURAT_BAD_TOKEN_BURST": "5",
}


async def test_a_flooding_token_is_throttled_without_hurting_others(tmp_path: Any) -> None:
    throttled = Stack(tmp_path, partitions=2, env=LOW_LIMITS).start()
    try:
        async with httpx.AsyncClient(base_url=throttled.api, timeout=30) as api:
            flood = await botclient.open_table(api, "highcard", 2)
            calm = await botclient.open_table(api, "highcard", 2)
            codes = []
            for _ in range(30):
                r = await api.post(
                    f"/v1/tables/{flood.table_id}/commands",
                    json={"command": {"type": "highcard.play", "card": 999}},
                    headers=botclient.auth(flood.tokens[0]),
                )
                codes.append(r.json()["code"])
            assert codes.count("rate_limited") >= 15
            assert (await api.get(f"/v1/tables/{flood.table_id}/view")).status_code == 200
            mine = await botclient.view(api, calm, 0)
            seat = mine["actors"][0]
            legal = expand((await botclient.view(api, calm, seat))["legal"])[0]
            r = await api.post(
                f"/v1/tables/{calm.table_id}/commands",
                json={"command": legal},
                headers=botclient.auth(calm.tokens[seat]),
            )
            assert r.status_code == 200, r.text

            # Anonymous reads are per address; a seat's reads are its own budget.
            reads = [await api.get(f"/v1/tables/{calm.table_id}/view") for _ in range(60)]
            limited = [r for r in reads if r.status_code == 429]
            assert limited and all(r.json()["code"] == "rate_limited" for r in limited)
            assert int(limited[0].headers["retry-after"]) >= 1
            assert (await botclient.view(api, calm, 0))["seats"] == 2, "a seat still reads its view"

            # Invalid tokens: a few are answered, then the address is refused before any lookup.
            forged = [
                (
                    await api.post(
                        url,
                        json={"command": {"type": "highcard.play", "card": 1}},
                        headers=botclient.auth(f"forged-{i}"),
                    )
                ).json()["code"]
                for i in range(12)
                for url in [f"/v1/tables/{calm.table_id}/commands"]
            ]
            assert forged[:5] == ["bad_token"] * 5 and forged[-1] == "rate_limited", forged

            # Table openings are per address.
            opens = [
                (await api.post("/v1/tables", json={"game": "highcard", "seats": 2})).status_code
                for _ in range(8)
            ]
            assert 429 in opens and opens[0] == 201, opens
    finally:
        throttled.stop()
