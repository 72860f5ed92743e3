"""Routes that read: views, live feeds, the public log and the audit log.

Everything here comes from the projector's read models or the store; the
gateway never folds a game. A seat token selects that seat's view and feed;
no token means the spectator's.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import Annotated

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from services.gateway.answers import stored
from services.gateway.body import MAX_VERSION, bearer
from services.gateway.context import Gateway, client_address
from services.gateway.delay import newest_allowed
from services.gateway.errors import ApiError
from services.gateway.feeds import FeedResponse, Page, resume_after
from shared.eventstore.keys import GameKeys
from shared.infra import wallclock
from shared.kernel.auth import token_hash
from shared.kernel.clocks import SpectatorDelay
from shared.messaging.messages import encode
from shared.readmodels.audit import AuditLog
from shared.readmodels.build import HISTORY, SPECTATOR, FeedEntry, ViewDoc, audience_name


class PublicLog(msgspec.Struct, kw_only=True):
    """The spectator's final view and every public event."""

    view: Annotated[msgspec.Raw, stored(ViewDoc)]
    events: list[Annotated[msgspec.Raw, stored(FeedEntry)]]


class _Status(msgspec.Struct):
    """The fields of a view document the gateway looks at."""

    over: bool = False
    version: int = 0
    moves: int = 0
    spectator_delay: SpectatorDelay | None = None


class _Entry(msgspec.Struct):
    moves: int
    at: int
    doc: msgspec.Raw


_status = msgspec.json.Decoder(_Status).decode


_entry = msgspec.json.Decoder(_Entry).decode


def is_over(doc: bytes) -> bool:
    return _status(doc).over


async def spectator_doc(gw: Gateway, keys: GameKeys, live: bytes) -> bytes:
    """The live spectator view, or the delayed one if the table asks for a delay."""
    status = _status(live)
    delay = status.spectator_delay
    if delay is None or status.over:
        return live
    rows = await gw.read.xrevrange(keys.audience_feed(HISTORY), count=256)
    entries = [_entry(fields[b"e"]) for _, fields in rows]
    now_ms = wallclock.now_ms()
    index = newest_allowed(delay, status.moves, now_ms, [(e.moves, e.at) for e in entries])
    if index is not None:
        return bytes(entries[index].doc)
    first = await gw.read.xrange(keys.audience_feed(HISTORY), count=1)
    return bytes(_entry(first[0][1][b"e"]).doc) if first else live


async def audience(gw: Gateway, request: Request, game_id: str) -> str:
    """The reader's audience, charged to its read budget: a seat's own, or its address's."""
    token = bearer(request)
    address = client_address(request)
    if token is None:
        gw.limits.read(address)
        return SPECTATOR
    gw.limits.check_tokens(address)
    hashed = token_hash(token)
    seat = await gw.seat_of(game_id, hashed)
    if seat is None:
        gw.limits.bad_token(address)
        raise ApiError("bad_token", "This token does not belong to a seat at this table.")
    gw.limits.read(hashed)
    return audience_name(seat)


def anonymous_read(gw: Gateway, request: Request) -> None:
    """A public read: charged to the client address."""
    gw.limits.read(client_address(request))


async def read_view(gw: Gateway, keys: GameKeys, name: str) -> bytes:
    # A table answers its creator before the projector has stored its first
    # view. If the table exists (its seats are registered), wait for that view
    # rather than claim the table does not exist.
    raw = await gw.read_batch.get(keys.view(name))
    if raw is not None:
        return raw
    if not await gw.redis.exists(keys.auth):
        raise ApiError("unknown_table", f"There is no table {keys.game_id}.")
    if await gw.rebuilding():
        raise ApiError("read_models_rebuilding", "The tables' views are being rebuilt; retry shortly.")
    deadline = asyncio.get_running_loop().time() + gw.settings.reply_timeout_s
    while asyncio.get_running_loop().time() < deadline:
        wake = gw.changes.waiter(keys.game_id)
        raw = await gw.read.get(keys.view(name))
        if raw is not None:
            return raw
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), timeout=0.25)
    raise ApiError("unavailable", "The table exists but its view is not ready yet; retry shortly.")


async def view(request: Request) -> Response:
    gw: Gateway = request.app.state.gateway
    game_id = request.path_params["table_id"]
    keys = gw.keys(game_id)
    name = await audience(gw, request, game_id)
    wanted = int_param(request, "min_version", 0)
    doc = await read_view(gw, keys, name)
    if name == SPECTATOR:
        doc = await spectator_doc(gw, keys, doc)
    if wanted and _status(doc).version < wanted:
        doc = await view_at(gw, keys, name, wanted)
    return Response(doc, media_type="application/json")


async def view_at(
    gw: Gateway, keys: GameKeys, name: str, wanted: int, notice: asyncio.Event | None = None
) -> bytes:
    """The view once it shows ``wanted`` (woken by the projector's change notices),
    or the newest one when the wait is over.

    ``notice``: a waiter the caller took before ``wanted`` was appended (a command
    asking for its new view), so the first read waits for the projector's notice
    rather than fetching a view that cannot show that version yet.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + gw.settings.reply_timeout_s
    if notice is not None and not notice.is_set():
        # asyncio.timeout, not wait_for: no task per wait on this hot path.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(gw.settings.reply_timeout_s):
                await notice.wait()
    while True:
        wake = gw.changes.waiter(keys.game_id)  # before reading: a notice in between still wakes us
        doc = await read_view(gw, keys, name)
        if name == SPECTATOR:
            doc = await spectator_doc(gw, keys, doc)
        status = _status(doc)
        left = deadline - loop.time()
        if status.version >= wanted or status.over or left <= 0:
            return doc
        with contextlib.suppress(TimeoutError):
            # A delayed spectator's view moves with time too, not only on notices.
            async with asyncio.timeout(min(left, 0.25 if name == SPECTATOR else left)):
                await wake.wait()


async def feed(request: Request) -> FeedResponse:
    """Server-sent events: every event this audience may see, after the larger of
    ``?after=N`` and the ``Last-Event-ID`` header (each event's id is its version)."""
    gw: Gateway = request.app.state.gateway
    game_id = request.path_params["table_id"]
    keys = gw.keys(game_id)
    name = await audience(gw, request, game_id)
    after = resume_after(request, int_param(request, "after", 0))
    await read_view(gw, keys, name)
    return FeedResponse(gw.feeds, GameFeed(gw, keys, name), after)


class GameFeed:
    """One audience's feed of a table, as the feed hub reads it."""

    def __init__(self, gw: Gateway, keys: GameKeys, name: str) -> None:
        self.gw = gw
        self.keys = keys
        self.name = name
        self.key = (keys.game_id, name)
        self.label = name if name == SPECTATOR else "seat"
        self._stream = keys.audience_feed(name)

    async def read(self, after: int, count: int) -> Page:
        gw, keys = self.gw, self.keys
        # The view before the entries: if it says the game is over, the entries read
        # next are all there will ever be (the projector writes both in one step).
        raw = await gw.read_batch.get(keys.view(self.name))
        status = _status(raw) if raw is not None else _Status()
        limit = None
        delayed = status.spectator_delay is not None and not status.over
        if self.name == SPECTATOR and raw is not None and delayed:
            limit = _status(await spectator_doc(gw, keys, raw)).version
            if limit <= after:
                return Page([], more=False, finished=False, delayed=True)
        upper = "+" if limit is None else f"0-{limit}"
        rows = await gw.read_batch.run(
            lambda pipe: pipe.xrange(self._stream, min=f"(0-{after}", max=upper, count=count)
        )
        frames = []
        for entry_id, fields in rows:
            version = int(entry_id.split(b"-")[1])
            frames.append((version, b"id: %d\nevent: game-event\ndata: %s\n\n" % (version, fields[b"e"])))
        more = len(rows) >= count
        return Page(frames, more=more, finished=status.over and not more, delayed=limit is not None)


async def public_log(request: Request) -> Response:
    """A finished game's public log, for replay, with its revealed seed."""
    gw: Gateway = request.app.state.gateway
    anonymous_read(gw, request)
    keys = gw.keys(request.path_params["table_id"])
    doc = await read_view(gw, keys, SPECTATOR)
    if not is_over(doc):
        raise ApiError("game_not_over", "The log is published when the game is over.")
    rows = await gw.read.xrange(keys.audience_feed(SPECTATOR))
    body = PublicLog(view=msgspec.Raw(doc), events=[msgspec.Raw(fields[b"e"]) for _, fields in rows])
    return Response(encode(body), media_type="application/json")


async def replay(request: Request) -> Response:
    """A finished game's public view as it was at ``version`` (step by step)."""
    gw: Gateway = request.app.state.gateway
    anonymous_read(gw, request)
    keys = gw.keys(request.path_params["table_id"])
    doc = await read_view(gw, keys, SPECTATOR)
    if not is_over(doc):
        raise ApiError("game_not_over", "Replays open when the game is over.")
    version = int_param(request, "version", _status(doc).version)
    rows = await gw.read.xrevrange(keys.audience_feed(HISTORY), max=f"0-{version}", count=1)
    if not rows:  # a version inside the opening: show the table as it opened
        rows = await gw.read.xrange(keys.audience_feed(HISTORY), count=1)
    if not rows:  # a rebuild writes no history: the log does not record the projector's batches
        raise ApiError("not_found", "This table's step-by-step history was not kept.")
    return Response(bytes(_entry(rows[0][1][b"e"]).doc), media_type="application/json")


async def audit_log(request: Request) -> Response:
    """Every event and command of a finished game (hidden ones included): with the
    revealed seed, anyone can re-decide the game and check it was fair."""
    gw: Gateway = request.app.state.gateway
    anonymous_read(gw, request)
    keys = gw.keys(request.path_params["table_id"])
    doc = await read_view(gw, keys, SPECTATOR)
    if not is_over(doc):
        raise ApiError("game_not_over", "The audit log is published when the game is over.")
    envelopes = await gw.store.read(keys)
    commands = await gw.store.commands(keys)
    return Response(encode(AuditLog(events=envelopes, commands=commands)), media_type="application/json")


_VERSION = re.compile(r"^(0|[1-9][0-9]{0,15})$")
#: A query string of one parameter with a plain number: no escapes to decode.
_ONE_NUMBER = re.compile(rb"^([a-z_]+)=([0-9]{1,32})$")


def int_param(request: Request, name: str, default: int) -> int:
    """A version-like query parameter: ASCII digits only, at most ``MAX_VERSION``."""
    # Most reads carry no query string or one plain number (a bot's ?min_version=N):
    # Starlette's QueryParams (about 10 µs) only for anything else.
    query = request.scope["query_string"]
    plain = _ONE_NUMBER.match(query) if query else None
    if plain is not None:
        raw = plain[2].decode() if plain[1] == name.encode() else None
    else:
        raw = request.query_params.get(name) if query else None
    if raw is None:
        return default
    if not _VERSION.match(raw) or int(raw) > MAX_VERSION:
        raise ApiError(
            "bad_request",
            f"Query parameter {name!r} must be a whole number from 0 to {MAX_VERSION}.",
            parameter=name,
        )
    return int(raw)
