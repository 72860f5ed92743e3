"""Routes that change something: open a table, submit a command.

Both add a command to the partition's command stream and wait, within the
same request, for the outcome (accepted with the new version, or rejected with a
code and a message).
"""

from __future__ import annotations

import asyncio
import time
import uuid

from starlette.requests import Request
from starlette.responses import Response

from services.gateway.body import Move, NewTable, bearer, read_json
from services.gateway.context import Gateway
from services.gateway.errors import ApiError, error_response
from shared.eventstore.keys import command_stream
from shared.kernel.auth import new_token, token_hash
from shared.messaging.messages import CommandMsg, OpenTable, Outcome, encode
from shared.messaging.streams import send
from shared.observability import metrics

MAX_SEATS = 8  # generous upper bound before any game is consulted


async def open_table(request: Request) -> Response:
    gw: Gateway = request.app.state.gateway
    body = await read_json(request, NewTable, gw.settings.max_body_bytes)
    if not 1 <= body.seats <= MAX_SEATS:
        raise ApiError("bad_seat_count", f"A table has 1 to {MAX_SEATS} seats, not {body.seats}.")
    game_id = uuid.uuid4().hex[:20]
    tokens = [new_token() for _ in range(body.seats)]
    hashes = tuple(token_hash(t) for t in tokens)
    keys = gw.keys(game_id)
    await gw.redis.hset(keys.auth, mapping={h: seat for seat, h in enumerate(hashes)})
    msg = _message(
        gw,
        request,
        "open",
        game_id,
        f"open-{game_id}",
        open=OpenTable(
            game=body.game,
            seats=body.seats,
            options=body.options,
            token_hashes=hashes,
            clock=body.clock,
            spectator_delay=body.spectator_delay,
        ),
    )
    outcome = await _submit(gw, msg)
    if outcome.status == "rejected":
        await gw.redis.delete(keys.auth)
        return _rejection(outcome)
    await gw.store.index_game(game_id, keys.partition, time.time_ns() // 1_000_000)
    body_out = {
        "table_id": game_id,
        "game": body.game,
        "seats": body.seats,
        "version": outcome.last,
        "tokens": [{"seat": s, "token": t} for s, t in enumerate(tokens)],
        "events": outcome.events,
    }
    return Response(encode(body_out), status_code=201, media_type="application/json")


async def submit_command(request: Request) -> Response:
    gw: Gateway = request.app.state.gateway
    game_id = request.path_params["table_id"]
    token = bearer(request)
    if token is None:
        raise ApiError("missing_token", "Send your seat token as 'Authorization: Bearer <token>'.")
    hashed = token_hash(token)
    if not gw.limiter.allow(hashed):
        raise ApiError("rate_limited", "Too many commands from this token; slow down and retry.")
    body = await read_json(request, Move, gw.settings.max_body_bytes)
    command_id = request.headers.get("idempotency-key") or uuid.uuid4().hex
    if len(command_id) > 128:
        raise ApiError("bad_request", "The Idempotency-Key header is longer than 128 characters.")
    msg = _message(
        gw,
        request,
        "move",
        game_id,
        command_id,
        token_hash=hashed,
        command=body.command,
        expected_version=body.expected_version,
    )
    outcome = await _submit(gw, msg)
    if outcome.status == "rejected":
        return _rejection(outcome)
    result = {
        "status": "accepted",
        "command_id": outcome.command_id,
        "version": outcome.last,
        "first_version": outcome.first,
        "seat": outcome.seat,
        "duplicate": outcome.duplicate,
        "events": outcome.events,
    }
    return Response(encode(result), media_type="application/json")


def _message(
    gw: Gateway, request: Request, kind: str, game_id: str, command_id: str, **fields: object
) -> CommandMsg:
    return CommandMsg(
        kind=kind,  # type: ignore[arg-type]
        game_id=game_id,
        partition=gw.keys(game_id).partition,
        command_id=command_id,
        correlation_id=request.headers.get("x-correlation-id") or uuid.uuid4().hex,
        reply_to=gw.settings.node,
        received_ns=time.time_ns(),
        **fields,  # type: ignore[arg-type]
    )


async def _submit(gw: Gateway, msg: CommandMsg) -> Outcome:
    future = gw.replies.expect(msg.command_id)
    try:
        await send(gw.batch, command_stream(msg.partition), encode(msg))
        outcome = await asyncio.wait_for(future, timeout=gw.settings.reply_timeout_s)
    except TimeoutError as exc:
        raise ApiError(
            "outcome_unknown",
            "No outcome arrived in time; retry with the same Idempotency-Key to learn it.",
            command_id=msg.command_id,
        ) from exc
    finally:
        gw.replies.forget(msg.command_id)
    elapsed = (time.time_ns() - msg.received_ns) / 1e9
    metrics.STAGE_LATENCY.labels("replied").observe(elapsed)
    metrics.COMMANDS.labels("gateway", "-", outcome.status).inc()
    if outcome.status == "rejected":
        metrics.REJECTIONS.labels("gateway", outcome.code).inc()
    return outcome


def _rejection(outcome: Outcome) -> Response:
    return error_response(outcome.code, outcome.message, outcome.details)
