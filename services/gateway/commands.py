"""Routes that change something: open a table, submit a command.

Both add a command to the partition's command stream and wait, within the
same request, for the outcome (accepted with the new version, or rejected with a
code and a message).

Idempotency keys belong to their caller. A seat's key is scoped to its token
(:func:`~shared.messaging.messages.scoped_command_id`), so replaying another
seat's key is a new command that learns nothing. Every other route scopes its
key the same way, to its caller (:func:`scoped_key`: a player, an organiser
token, or the client address on anonymous routes) and to the route and resource
it names. A creation's key is scoped to its caller too: the first request
records what it chose (a table's id and seat tokens), and a retry with the same
key gets that same table, while the same key with another request body is
``idempotency_key_reused`` (:func:`remember`).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from services.gateway.answers import Event, stored
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
from services.gateway.bots import seat_token_hash
from services.gateway.context import Gateway, client_address
from services.gateway.errors import ApiError, error_body, error_response, status_of
from services.gateway.reads import view_at
from shared.eventstore import game_index
from shared.eventstore.keys import command_stream, open_key
from shared.games import registry
from shared.infra import wallclock
from shared.kernel import table as tables
from shared.kernel.auth import new_token, token_hash
from shared.kernel.clocks import ClockSettings
from shared.kernel.rejection import RuleViolation
from shared.messaging.messages import (
    CommandMsg,
    OpenTable,
    Outcome,
    client_key,
    encode,
    scoped_command_id,
)
from shared.messaging.streams import send
from shared.observability import metrics
from shared.readmodels.build import ViewDoc, audience_name

#: How long a creation's idempotency key is remembered.
OPEN_KEY_TTL_S = 24 * 3600
#: Metric children looked up once: ``labels()`` costs more than the observation.
_REPLIED = metrics.STAGE_LATENCY.labels("replied")
T = TypeVar("T", bound=msgspec.Struct)


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


class Chosen(msgspec.Struct, kw_only=True):
    """What a keyed request chose (ids, secret tokens), kept under its caller's key.

    ``asked`` is a digest of the request that chose it (:func:`asked`): a retry
    asks the same, and any other request under the key is refused."""

    asked: str = ""


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
    msg = _message(
        gw,
        correlation_id(request),
        "open",
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
    outcome = await _submit(gw, msg, body.game)
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


def checked_options(
    game_key: str, seats: int, options: dict[str, Any], clock: ClockSettings | None = None
) -> dict[str, Any]:
    try:
        game = registry.get(game_key)
    except registry.UnknownGame as exc:
        raise ApiError(
            "unknown_game", f"No game called {game_key!r}.", available=registry.available()
        ) from exc
    try:
        return tables.checked_options(game, seats, options, clock)
    except RuleViolation as exc:
        raise ApiError.refused(exc) from exc


# -- whose an idempotency key is -------------------------------------------------


def player_caller(player_id: str) -> str:
    """The caller a player key acts as: the player (so a retry with the key that
    replaced a rotated one is still the same caller's)."""
    return f"player:{player_id}"


def organiser_caller(token_hash: str) -> str:
    return f"organiser:{token_hash}"


def route_of(request: Request) -> str:
    """The route and the resource a request names: its method and path."""
    return f"{request.method} {request.scope['path']}"


def scoped_key(caller: str, route: str, key: str) -> str:
    """The command id a caller's idempotency key is deduplicated by: the same key
    from another caller, or sent to another route or resource, is another command
    (never the first one's answer). The shape of a seat's scoped id, so
    :func:`~shared.messaging.messages.client_key` gives the client's key back."""
    return scoped_command_id(hashlib.sha256(f"{route}\n{caller}".encode()).hexdigest(), key)


def keyed(request: Request, caller: str, default: str | None = None) -> tuple[str, str | None]:
    """(command id, Idempotency-Key) of a request to a route that deduplicates by
    command id: the key scoped to ``caller`` and the route; without a key, ``default``
    (a platform id, such as one entry per player) or a new id."""
    key = header_id(request, "idempotency-key")
    if key is None:
        return default or made_up_id(), None
    return scoped_key(caller, route_of(request), key), key


def asked(body: msgspec.Struct) -> str:
    """A digest of a request's decoded body: what :class:`Chosen` compares."""
    return hashlib.sha256(msgspec.json.encode(body)).hexdigest()[:32]


def remembered_key(kind: str, caller: str, key: str) -> str:
    """Where a creation's choices are kept under its caller's idempotency key
    (per kind: one key may open a table and create a tournament). ``caller`` is a
    client address on anonymous routes, else :func:`player_caller` or
    :func:`organiser_caller`."""
    return open_key(hashlib.sha256(f"{kind}\n{caller}\n{key}".encode()).hexdigest())


async def remember(gw: Gateway, kind: str, caller: str, key: str, fresh: T) -> T:
    """What the first request under (caller, key) chose, recording ``fresh`` if none.

    Creations (tables, tournaments, accounts...) choose ids and secret tokens; a
    retry must get the same ones, and two requests racing with one key agree on
    one. A :class:`Chosen` first asked by another request is ``idempotency_key_reused``.
    """
    stored = remembered_key(kind, caller, key)
    if await gw.redis.set(stored, msgspec.json.encode(fresh), nx=True, ex=OPEN_KEY_TTL_S):
        return fresh
    raw = await gw.redis.get(stored)
    first = msgspec.json.decode(raw, type=type(fresh)) if raw else fresh
    # A record from before digests were kept (asked empty) is taken as the same request.
    if isinstance(first, Chosen) and isinstance(fresh, Chosen) and first.asked not in ("", fresh.asked):
        raise ApiError(
            "idempotency_key_reused",
            "This Idempotency-Key was first sent with another request; use a new key for a new one.",
        )
    return first


async def forget(gw: Gateway, kind: str, caller: str, key: str | None) -> None:
    """Free a key whose request was refused: a corrected retry with it is a request of its own."""
    if key is not None:
        await gw.redis.delete(remembered_key(kind, caller, key))


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
    return Response(played.body, status_code=played.status, media_type="application/json")


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
    msg = _message(
        gw,
        correlation_of(),
        "move",
        game_id,
        scoped_command_id(hashed, key),
        token_hash=hashed,
        command=body.command,
        expected_version=body.expected_version,
    )
    outcome = await _submit(gw, msg, None)
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


def _message(
    gw: Gateway, correlation: str, kind: str, game_id: str, command_id: str, **fields: object
) -> CommandMsg:
    return CommandMsg(
        kind=kind,  # type: ignore[arg-type]
        game_id=game_id,
        partition=gw.keys(game_id).partition,
        command_id=command_id,
        correlation_id=correlation,
        reply_to=gw.settings.node,
        received_ns=time.time_ns(),
        **fields,  # type: ignore[arg-type]
    )


async def _submit(gw: Gateway, msg: CommandMsg, game: str | None) -> Outcome:
    request_id, future = gw.replies.expect()
    msg = msgspec.structs.replace(msg, request_id=request_id)
    seen = gw.watch.commands
    try:
        await send(gw.batch, command_stream(msg.partition), encode(msg))
        async with asyncio.timeout(gw.settings.reply_timeout_s):  # no task per wait, unlike wait_for
            outcome = await future
    except TimeoutError as exc:
        _commands(game or seen.game_of(msg.game_id), "unknown").inc()
        raise ApiError(
            "outcome_unknown",
            "No outcome arrived in time; retry with the same Idempotency-Key to learn it.",
            command_id=client_key(msg.command_id) if msg.kind == "move" else msg.command_id,
        ) from exc
    finally:
        gw.replies.forget(request_id)
    elapsed = (time.time_ns() - msg.received_ns) / 1e9
    _REPLIED.observe(elapsed)
    game = outcome.game or game or seen.game_of(msg.game_id)
    _commands(game, outcome.status).inc()
    if outcome.status == "rejected":
        metrics.REJECTIONS.labels("gateway", outcome.code).inc()
        seen.answered(msg.game_id, game)
    elif outcome.duplicate:  # its version may have been visible for long
        seen.answered(msg.game_id, game)
    else:
        seen.accepted(msg.game_id, game, outcome.last, msg.received_ns)
    return outcome


@functools.lru_cache(maxsize=1024)
def _commands(game: str, status: str) -> Any:
    """The gateway's command counter of one game and status (game keys are few)."""
    return metrics.COMMANDS.labels("gateway", game, status)


def _rejection(outcome: Outcome, **extra: str) -> Played:
    body = error_body(outcome.code, outcome.message, {**outcome.details, **extra})
    return Played(status_of(outcome.code), body)
