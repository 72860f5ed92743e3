"""A table's writes: open a table, submit a command (by ``POST .../commands``
and by a play connection alike).

Both add a command to the partition's command stream and wait, within the
same request, for the outcome (:mod:`services.gateway.writes`).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Literal

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from services.gateway.answers import Event, stored
from services.gateway.apidoc import (
    CORRELATION,
    IDEMPOTENCY,
    NOT_FOUND,
    RATE_LIMIT_NOTE,
    REBUILDING,
    STORE,
    TABLE,
)
from services.gateway.body import (
    Move,
    NewTable,
    bearer,
    check_command,
    correlation_id,
    header_id,
    made_up_id,
    read_json,
)
from services.gateway.callers import seat_token_hash
from services.gateway.context import Gateway, client_address
from services.gateway.errors import ApiError, error_body, error_response, status_of
from services.gateway.hot import JsonAnswer
from services.gateway.reads import view_at
from services.gateway.routing import Answer, Route
from services.gateway.writes import Chosen, asked, checked_options, forget, message, remember, submit
from shared.eventstore import game_index
from shared.infra import wallclock
from shared.kernel.auth import new_token, token_hash
from shared.kernel.rejection import GAME_OVER, ILLEGAL_MOVE, NOT_YOUR_TURN, WRONG_PHASE
from shared.messaging.messages import (
    MoveMsg,
    OpenMsg,
    OpenTable,
    RejectedOutcome,
    encode,
    scoped_command_id,
)
from shared.readmodels.build import ViewDoc, audience_name


class IssuedSeat(msgspec.Struct, kw_only=True):
    seat: int
    token: str


class TableOpened(msgspec.Struct, kw_only=True):
    table_id: str
    game: str
    seats: int
    version: int
    tokens: Annotated[list[IssuedSeat], msgspec.Meta(description="One secret token per seat, in seat order")]
    duplicate: Annotated[
        bool, msgspec.Meta(description="A retry with the same Idempotency-Key: the table first opened")
    ]
    events: list[Event]


class Accepted(msgspec.Struct, kw_only=True):
    status: Literal["accepted"]
    command_id: Annotated[str, msgspec.Meta(description="The Idempotency-Key, or one made up")]
    version: Annotated[int, msgspec.Meta(description="The table's version after the command")]
    first_version: Annotated[int, msgspec.Meta(description="The version of the command's first event")]
    seat: int | None
    duplicate: Annotated[bool, msgspec.Meta(description="A retry: the first outcome")]
    events: list[Event]
    #: Present only when the move asked for it (and its token holds a seat).
    view: (
        Annotated[
            msgspec.Raw,
            stored(
                ViewDoc,
                "With view: true, your seat's view once it shows this version (after 10 s, "
                "the newest there is): GET view?min_version=version in the same request",
            ),
        ]
        | msgspec.UnsetType
    ) = msgspec.UNSET


class _Opening(Chosen):
    """What a table opening chose, kept under its idempotency key."""

    table_id: str
    tokens: list[str]
    game: str = ""


async def open_table(request: Request) -> Response:
    gw: Gateway = request.app.state.gateway
    address = client_address(request)
    gw.limits.open(address)
    body = await read_json(request, NewTable, gw.settings.max_body_bytes)
    options = _checked_options(body)
    key = header_id(request, "idempotency-key")
    opening = _Opening(
        uuid.uuid4().hex[:20], [new_token() for _ in range(body.seats)], body.game, asked=asked(body)
    )
    if key is not None:
        opening = await remember(gw, "table", address, key, opening)
    game_id, tokens = opening.table_id, opening.tokens
    hashes = tuple(token_hash(t) for t in tokens)
    keys = gw.keys(game_id)
    await gw.redis.hset(keys.auth, mapping={h: seat for seat, h in enumerate(hashes)})
    msg = message(
        gw,
        correlation_id(request),
        OpenMsg,
        game_id,
        f"open-{game_id}",
        open=OpenTable(
            game=body.game,
            seats=body.seats,
            options=options,
            token_hashes=hashes,
            clock=body.clock,
            spectator_delay=body.spectator_delay,
        ),
    )
    outcome = await submit(gw, msg, body.game)
    if outcome.status == "rejected" and outcome.code != "dead_lettered":
        # Nothing was opened: the seats and the key's record go, so a
        # corrected retry with the same key opens a table of its own.
        await gw.redis.delete(keys.auth)
        await forget(gw, "table", address, key)
    if outcome.status == "rejected":
        return error_response(outcome.code, outcome.message, outcome.details)
    await game_index.index(gw.redis, keys, wallclock.now_ms())
    body_out = TableOpened(
        table_id=game_id,
        game=body.game,
        seats=body.seats,
        version=outcome.last,
        tokens=[IssuedSeat(seat=s, token=t) for s, t in enumerate(tokens)],
        duplicate=outcome.duplicate,
        events=outcome.events,
    )
    return Response(encode(body_out), status_code=201, media_type="application/json")


def _checked_options(body: NewTable) -> dict[str, object]:
    """The game exists and a table of these seats, options and clock opens (a
    dry run of the opening): checked here, so a bad request costs no stage anything."""
    return checked_options(body.game, body.seats, body.options, body.clock)


async def submit_command(request: Request) -> Response:
    gw: Gateway = request.app.state.gateway
    game_id = request.path_params["table_id"]
    token = bearer(request)
    if token is None:
        raise ApiError("missing_token", "Send your seat token as 'Authorization: Bearer <token>'.")
    address = client_address(request)
    hashed = await checked_token(gw, game_id, token, address)
    played = await play(
        gw,
        game_id,
        hashed,
        address,
        lambda: read_json(request, Move, gw.settings.max_body_bytes),
        lambda: header_id(request, "idempotency-key"),
        lambda: correlation_id(request),
    )
    return JsonAnswer(played.body, played.status)


async def checked_token(gw: Gateway, game_id: str, token: str, address: str) -> str:
    """The hash the table knows the token by, once the address may still try tokens.
    (A player key acts as the player's own seat at this table: the bot API.)"""
    gw.limits.check_tokens(address)
    return await seat_token_hash(gw, game_id, token)


@dataclass(frozen=True, slots=True)
class Played:
    """A command's answer, as a request or a play connection sends it."""

    status: int
    body: bytes
    #: Accepted: the table's version after the command; else None.
    version: int | None = None
    duplicate: bool = False
    #: The seat's view the answer holds, if it holds one.
    view: bytes | None = None


async def play(
    gw: Gateway,
    game_id: str,
    hashed: str,
    address: str,
    read: Callable[[], Awaitable[Move]],
    key_of: Callable[[], str | None],
    correlation_of: Callable[[], str],
) -> Played:
    """Submit one seat's command and wait for its outcome: the one way a move is
    made, by ``POST .../commands`` and by a play connection alike. The body, the
    idempotency key and the correlation id are read only when their turn comes,
    so every refusal comes in the same order whichever way the command came."""
    gw.limits.command(hashed)
    body = await read()
    check_command(body.command)
    key = key_of() or made_up_id()
    seat, notice = await _view_wanted(gw, game_id, hashed) if body.view else (None, None)
    msg = message(
        gw,
        correlation_of(),
        MoveMsg,
        game_id,
        scoped_command_id(hashed, key),
        token_hash=hashed,
        command=body.command,
        expected_version=body.expected_version,
    )
    outcome = await submit(gw, msg, None)
    if outcome.status == "rejected":
        if outcome.code == "bad_token":
            gw.limits.bad_token(address)
        return _rejection(outcome, command_id=key)
    result = Accepted(
        status="accepted",
        command_id=key,
        version=outcome.last,
        first_version=outcome.first,
        seat=outcome.seat,
        duplicate=outcome.duplicate,
        events=outcome.events,
    )
    doc = None
    if body.view:
        seat = seat if seat is not None else await gw.seat_of(game_id, hashed)
        if seat is not None:
            # A duplicate's version may be long visible: no notice will come for it.
            wake = None if outcome.duplicate else notice
            try:
                doc = await view_at(gw, gw.keys(game_id), audience_name(seat), outcome.last, wake)
            except ApiError as exc:
                if exc.code != "read_models_rebuilding":
                    raise
                # Accepted all the same: the view is there again once the read models are rebuilt.
            else:
                result.view = msgspec.Raw(doc)
    return Played(200, encode(result), outcome.last, outcome.duplicate, doc)


async def _view_wanted(gw: Gateway, game_id: str, hashed: str) -> tuple[int | None, asyncio.Event | None]:
    """For a move that asks for its new view: charge the read (a move in one request
    spends the budgets of the two it replaces), learn the token's seat, and take the
    waiter for the projector's notice before the command can be appended, so the view
    is read once, when it can show the new version.

    A token of no seat takes no waiter: the validator will refuse it."""
    gw.limits.read(hashed)
    seat = await gw.seat_of(game_id, hashed)
    return seat, (gw.changes.waiter(game_id) if seat is not None else None)


def _rejection(outcome: RejectedOutcome, **extra: str) -> Played:
    body = error_body(outcome.code, outcome.message, {**outcome.details, **extra})
    return Played(status_of(outcome.code), body)


#: A game's own rule codes, as the document names them: the ones every game shares, then "...".
_GAME_RULES = (NOT_YOUR_TURN, GAME_OVER, WRONG_PHASE, ILLEGAL_MOVE, "unknown_seat")

routes = [
    Route(
        "POST",
        "/v1/tables/{table_id}/commands",
        submit_command,
        hot=True,
        summary="Submit a command for your seat; learn at once whether it was accepted",
        description="Rate limited: "
        + RATE_LIMIT_NOTE["commands"]
        + ", and "
        + RATE_LIMIT_NOTE["tokens"]
        + ". A rule violation answers 422 with the game's own code. With `view: true`, "
        "the accepted reply also holds your seat's new view, so a move costs one request "
        "(a retry with the same Idempotency-Key gets the current view); the view counts "
        "against the reads budget too.",
        parameters=[TABLE, IDEMPOTENCY, CORRELATION],
        security=[{"seatToken": []}],
        body=Move,
        answers=[Answer(200, Accepted, "Accepted")],
        codes=[
            "bad_json",
            "bad_request",
            "bad_command",
            "bad_header",
            "missing_token",
            "bad_token",
            "unknown_table",
            NOT_FOUND,
            "body_too_large",
            "stale_version",
            "dead_lettered",
            "rate_limited",
            "busy",
            STORE,
            REBUILDING,
            "outcome_unknown",
        ],
        rules="a game's own rule code (" + ", ".join(_GAME_RULES) + ", ...)",
    ),
    Route(
        "POST",
        "/v1/tables",
        open_table,
        summary="Open a table; returns one secret token per seat",
        description="With an `Idempotency-Key`, a retry from the same client address gets the "
        "same table and tokens (`duplicate: true`); the same key with another body is "
        "idempotency_key_reused. Rate limited: " + RATE_LIMIT_NOTE["opens"] + ".",
        parameters=[IDEMPOTENCY, CORRELATION],
        body=NewTable,
        example={"game": "tigris", "seats": 2},
        answers=[Answer(201, TableOpened, "Opened")],
        codes=[
            "bad_json",
            "bad_request",
            "bad_header",
            "bad_seat_count",
            "bad_options",
            "bad_clock",
            "unknown_game",
            "body_too_large",
            "table_exists",
            "idempotency_key_reused",
            "dead_lettered",
            "rate_limited",
            "busy",
            STORE,
            "outcome_unknown",
        ],
    ),
]
