"""The lean path of the two hot routes answers exactly as Starlette's stack does.

``POST /v1/tables/{id}/commands`` and ``GET /v1/tables/{id}/view`` are served by
:class:`services.gateway.hot.HotRoutes` ahead of Starlette's middleware. Here a
gateway runs in this process against the running system's Valkey and stages,
and each edge case is sent twice: through the application as deployed (the
lean path) and through Starlette's own stack (the same routes, middleware and
exception handlers), from the same client address. Both answers must be
equal (status, headers, body) and be what the API documents: the status and
code listed for that operation, ``Retry-After`` on a 429, ``Allow`` on a 405.
Each also counts the same rejections and request latencies.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import msgspec
import pytest
from starlette.applications import Starlette
from starlette.types import Receive, Scope, Send

from services.gateway.app import GatewayApp, create_app
from services.gateway.errors import status_of
from services.gateway.openapi import spec
from shared.infra.launcher import Stack
from shared.infra.settings import Settings
from shared.kernel.legal_groups import expand

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("stack"), pytest.mark.timeout(300)]

SPEC = spec()
COMMANDS = "/v1/tables/{table_id}/commands"
VIEW = "/v1/tables/{table_id}/view"
#: Small budgets, so that the rate-limited answers are reached in a few requests.
BURST = 40
_addresses = (f"10.7.0.{n}" for n in itertools.count(1))


@asynccontextmanager
async def gateway(stack: Stack) -> AsyncIterator[GatewayApp]:
    settings = Settings(
        redis_url=stack.redis_url or "",
        partitions=stack.partitions,
        node="hot-routes-test",
        max_body_bytes=4096,
        rate_per_s=0.001,
        rate_burst=BURST,
        read_rate_per_s=0.001,
        read_burst=BURST,
    )
    app = create_app(settings)
    assert isinstance(app, GatewayApp)
    async with app.router.lifespan_context(app):
        yield app


def through_starlette(app: GatewayApp) -> Any:
    """The same application, every request through Starlette's middleware and router."""

    async def call(scope: Scope, receive: Receive, send: Send) -> None:
        await Starlette.__call__(app, scope, receive, send)

    return call


async def ask(entry: Any, address: str, method: str, url: str, **kwargs: Any) -> httpx.Response:
    transport = httpx.ASGITransport(app=entry, client=(address, 40000))
    async with httpx.AsyncClient(transport=transport, base_url="http://gateway") as client:
        return await client.request(method, url, **kwargs)


def counted(app: GatewayApp, route: str, status: int, code: str | None) -> tuple[float, float]:
    """(requests of this route and status class, rejections of this code) counted so far."""
    reg = app.state.metrics
    seen = reg.get_sample_value(
        "ziggurat_http_request_seconds_count", {"route": route, "status": f"{status // 100}xx"}
    )
    refused = (
        reg.get_sample_value("ziggurat_rejections_total", {"service": "gateway", "code": code}) if code else 0
    )
    return seen or 0.0, refused or 0.0


def without_ids(response: httpx.Response) -> Any:
    """The body, the made-up command id aside (it is the request's own Idempotency-Key or a fresh one)."""
    if not response.content or not response.headers.get("content-type", "").startswith("application/json"):
        return response.content
    body = msgspec.json.decode(response.content)
    if isinstance(body, dict):
        body.pop("command_id", None)
        if isinstance(body.get("details"), dict):
            body["details"].pop("command_id", None)
    return body


async def same_answer(
    app: GatewayApp,
    method: str,
    url: str,
    route: str,
    status: int,
    code: str | None = None,
    **kwargs: Any,
) -> httpx.Response:
    """Ask both ways (each from an address of its own, so no budget of one spends the
    other's), check both answers equal each other and the documented behaviour."""
    answers, counts = [], []
    for entry in (app, through_starlette(app)):
        before = counted(app, route, status, code)
        answer = await ask(entry, next(_addresses), method, url, **kwargs)
        after = counted(app, route, status, code)
        assert answer.status_code == status, (method, url, answer.status_code, answer.text)
        assert after[0] == before[0] + 1, f"{method} {url}: latency not counted under {route}"
        answers.append(answer)
        counts.append(after[1] - before[1])
    lean, full = answers
    assert counts[0] == counts[1], f"{method} {url}: rejections of {code} counted {counts}"
    assert lean.headers.multi_items() == full.headers.multi_items(), (method, url)
    assert without_ids(lean) == without_ids(full), (method, url)
    if code is not None and method != "HEAD":  # a HEAD answer has no body
        assert lean.json()["code"] == code, lean.text
        assert status_of(code) == status
    documented(method, route, lean)
    return lean


def documented(method: str, route: str, answer: httpx.Response) -> None:
    methods = SPEC["paths"][route]
    allowed = sorted(m.upper() for m in methods) + (["HEAD"] if "get" in methods else [])
    operation = methods.get("get" if method == "HEAD" else method.lower())
    if operation is None:
        assert answer.status_code == 405
        assert answer.headers["allow"] == ", ".join(sorted(allowed))
        assert method == "HEAD" or answer.json()["code"] == "method_not_allowed"
        return
    responses = operation["responses"]
    assert str(answer.status_code) in responses, f"{method} {route}: {answer.status_code} is not documented"
    if answer.status_code == 429:
        assert int(answer.headers["retry-after"]) >= 1


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


async def open_table(app: GatewayApp) -> tuple[str, list[str], int]:
    """A fresh highcard table: its id, seat tokens and the seat that acts first."""
    opened = await ask(app, "10.7.255.1", "POST", "/v1/tables", json={"game": "highcard", "seats": 2})
    assert opened.status_code == 201, opened.text
    table = opened.json()
    tokens = [t["token"] for t in table["tokens"]]
    url = f"/v1/tables/{table['table_id']}/view"
    doc: dict[str, Any] = {"version": 0, "actors": []}
    while not doc["actors"]:  # the server deals after the opening
        asked = await ask(app, "10.7.255.1", "GET", f"{url}?min_version={doc['version'] + 1}")
        doc = asked.json()
    return table["table_id"], tokens, doc["actors"][0]


async def test_the_lean_path_answers_every_edge_case_as_starlette_does(stack: Stack) -> None:
    async with gateway(stack) as app:
        table_id, tokens, actor = await open_table(app)
        commands, view = f"/v1/tables/{table_id}/commands", f"/v1/tables/{table_id}/view"
        me = bearer(tokens[actor])
        current = (await ask(app, "10.7.255.1", "GET", view, headers=me)).json()
        move = {"command": expand(current["legal"])[0], "view": True}

        async def both(
            method: str, url: str, route: str, status: int, code: str | None = None, **kw: Any
        ) -> Any:
            return await same_answer(app, method, url, route, status, code, **kw)

        # The command path's refusals before any stage sees the command.
        await both("POST", commands, COMMANDS, 401, "missing_token", json=move)
        await both("POST", commands, COMMANDS, 400, "bad_json", content=b"{not json", headers=me)
        await both("POST", commands, COMMANDS, 400, "bad_json", content=b'{"command": "\xff"}', headers=me)
        await both("POST", commands, COMMANDS, 400, "bad_request", json={"cmd": 1}, headers=me)
        await both("POST", commands, COMMANDS, 400, "bad_command", json={"command": [1]}, headers=me)
        await both("POST", commands, COMMANDS, 413, "body_too_large", content=b" " * 5000, headers=me)
        await both(
            "POST", commands, COMMANDS, 400, "bad_header", json=move, headers={**me, "idempotency-key": "a b"}
        )
        await both(
            "POST", "/v1/tables/no.such.table/commands", COMMANDS, 404, "unknown_table", json=move, headers=me
        )
        # Refusals that come back from the validator.
        await both("POST", commands, COMMANDS, 403, "bad_token", json=move, headers=bearer("forged-token"))
        await both(
            "POST",
            "/v1/tables/nosuchtable0000000/commands",
            COMMANDS,
            404,
            "unknown_table",
            json=move,
            headers=me,
        )
        stale = await both(
            "POST", commands, COMMANDS, 409, "stale_version", json={**move, "expected_version": 0}, headers=me
        )
        assert stale.json()["details"]["current"] == current["version"]
        # A move, then its retries: duplicates answered with the first outcome and the current view.
        key = {**me, "idempotency-key": "hot-routes-move-1"}
        first = await ask(app, "10.7.255.1", "POST", commands, json=move, headers=key)
        assert first.status_code == 200 and not first.json()["duplicate"], first.text
        retry = await both("POST", commands, COMMANDS, 200, json=move, headers=key)
        assert retry.json()["duplicate"] and retry.json()["command_id"] == "hot-routes-move-1"
        assert retry.json()["view"]["version"] >= first.json()["version"]

        # The view path.
        await both("GET", view, VIEW, 200, headers=me)
        await both("GET", view, VIEW, 200)  # the spectator's
        await both("GET", f"{view}?min_version=1", VIEW, 200, headers=me)
        await both("GET", f"{view}?min_version=x", VIEW, 400, "bad_request", headers=me)
        await both("GET", view, VIEW, 403, "bad_token", headers=bearer("forged-token"))
        await both("GET", "/v1/tables/nosuchtable0000000/view", VIEW, 404, "unknown_table")
        await both("GET", "/v1/tables/no.such.table/view", VIEW, 404, "unknown_table")
        await both("HEAD", view, VIEW, 200, headers=me)

        # Methods the routes do not serve.
        for method in ("GET", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS"):
            await both(method, commands, COMMANDS, 405, "method_not_allowed", headers=me)
        for method in ("POST", "PUT", "PATCH", "DELETE", "OPTIONS"):
            await both(method, view, VIEW, 405, "method_not_allowed", headers=me)

        # Paths next to the hot ones are Starlette's, unchanged.
        for url in (f"{view}/", f"{commands}/more", f"/v1/tables/{table_id}/views"):
            lean = await ask(app, "10.7.255.2", "GET", url)
            full = await ask(through_starlette(app), "10.7.255.2", "GET", url)
            assert (lean.status_code, lean.headers.multi_items(), lean.content) == (
                full.status_code,
                full.headers.multi_items(),
                full.content,
            )


async def test_budgets_are_spent_and_refused_alike(stack: Stack) -> None:
    async with gateway(stack) as app:
        table_id, tokens, _ = await open_table(app)
        commands, view = f"/v1/tables/{table_id}/commands", f"/v1/tables/{table_id}/view"
        seat = bearer(tokens[1])
        # Each path spends the same per-token budgets: half of it each way.
        for n in range(BURST):
            entry = app if n % 2 else through_starlette(app)
            spent = await ask(entry, "10.7.254.1", "POST", commands, content=b"{", headers=seat)
            assert spent.status_code == 400, spent.text
            read = await ask(entry, "10.7.254.1", "GET", view, headers=seat)
            assert read.status_code == 200, read.text
        limited = await same_answer(
            app, "POST", commands, COMMANDS, 429, "rate_limited", content=b"{", headers=seat
        )
        assert "commands from this token" in limited.json()["message"]
        await same_answer(app, "GET", view, VIEW, 429, "rate_limited", headers=seat)
        # A move that asks for its view spends a read too: refused once reads are spent.
        fresh_id, fresh_tokens, actor = await open_table(app)
        fresh = bearer(fresh_tokens[actor])
        url = f"/v1/tables/{fresh_id}/view"
        for _ in range(BURST + 1):
            if (await ask(app, "10.7.254.2", "GET", url, headers=fresh)).status_code == 429:
                break
        else:
            raise AssertionError("the read budget was never spent")
        body = {"command": {"type": "highcard.draw"}, "view": True}
        await same_answer(
            app,
            "POST",
            f"/v1/tables/{fresh_id}/commands",
            COMMANDS,
            429,
            "rate_limited",
            json=body,
            headers=fresh,
        )
