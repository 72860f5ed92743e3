"""What every route that writes shares: sending a command to its stage and
waiting for the outcome, and whose an idempotency key is.

A route adds a command to the partition's command stream and waits, within
the same request, for the outcome (accepted with the new version, or rejected
with a code and a message).

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
from typing import Any, TypeVar

import msgspec
from starlette.requests import Request

from services.gateway.body import header_id, made_up_id
from services.gateway.context import Gateway
from services.gateway.errors import ApiError
from shared.eventstore.keys import command_stream, open_key
from shared.games import registry
from shared.kernel import table as tables
from shared.kernel.clocks import ClockSettings
from shared.kernel.rejection import RuleViolation
from shared.messaging.messages import (
    CommandMsg,
    MoveMsg,
    OpenMsg,
    Outcome,
    client_key,
    encode,
    scoped_command_id,
)
from shared.messaging.streams import add
from shared.observability import metrics

#: How long a creation's idempotency key is remembered.
OPEN_KEY_TTL_S = 24 * 3600


#: Metric children looked up once: ``labels()`` costs more than the observation.
_REPLIED = metrics.STAGE_LATENCY.labels("replied")


T = TypeVar("T", bound=msgspec.Struct)
M = TypeVar("M", MoveMsg, OpenMsg)


class Chosen(msgspec.Struct, kw_only=True):
    """What a keyed request chose (ids, secret tokens), kept under its caller's key.

    ``asked`` is a digest of the request that chose it (:func:`asked`): a retry
    asks the same, and any other request under the key is refused."""

    asked: str = ""


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


def message(
    gw: Gateway, correlation: str, kind: type[M], game_id: str, command_id: str, **fields: object
) -> M:
    """A message of ``kind`` (``MoveMsg``, ``OpenMsg``) from this gateway, its
    ``fields`` those of its kind."""
    return kind(
        game_id=game_id,
        partition=gw.keys(game_id).partition,
        command_id=command_id,
        correlation_id=correlation,
        reply_to=gw.settings.node,
        received_ns=time.time_ns(),
        **fields,  # type: ignore[arg-type]
    )


async def submit(gw: Gateway, msg: CommandMsg, game: str | None) -> Outcome:
    request_id, future = gw.replies.expect()
    msg = msgspec.structs.replace(msg, request_id=request_id)
    seen = gw.watch.commands
    # The append's answer is not waited for on its own: a failed append fails the
    # wait for the outcome (the same error, at once), and a good one is implied
    # by the outcome. One wake-up a command fewer; and the reply's deadline is a
    # timer on the future, not a Timeout context that cancels the task.
    appended = gw.batch.queue(lambda pipe: add(pipe, command_stream(msg.partition), encode(msg)))
    appended.add_done_callback(functools.partial(_append_failed, future))
    timer = asyncio.get_running_loop().call_later(gw.settings.reply_timeout_s, _too_late, future)
    try:
        outcome = await future
    except TimeoutError as exc:
        _commands(game or seen.game_of(msg.game_id), "unknown").inc()
        raise ApiError(
            "outcome_unknown",
            "No outcome arrived in time; retry with the same Idempotency-Key to learn it.",
            command_id=client_key(msg.command_id) if isinstance(msg, MoveMsg) else msg.command_id,
        ) from exc
    finally:
        timer.cancel()
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


def _append_failed(outcome: asyncio.Future[Outcome], appended: asyncio.Future[Any]) -> None:
    """The append's error, if any, as the outcome's (read either way, so an
    unanswered append's error is never reported as unretrieved)."""
    if appended.cancelled():
        if not outcome.done():
            outcome.cancel()
        return
    error = appended.exception()
    if error is not None and not outcome.done():
        outcome.set_exception(error)


def _too_late(outcome: asyncio.Future[Outcome]) -> None:
    if not outcome.done():
        outcome.set_exception(TimeoutError())


@functools.lru_cache(maxsize=1024)
def _commands(game: str, status: str) -> Any:
    """The gateway's command counter of one game and status (game keys are few)."""
    return metrics.COMMANDS.labels("gateway", game, status)
