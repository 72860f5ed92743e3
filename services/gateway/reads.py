"""What every route that reads shares: a table's views as an audience may see
them (waiting for a version, delayed for spectators), whose read a request is,
and the numbers a query carries.

Everything here comes from the projector's read models or the store; the
gateway never folds a game. A seat token selects that seat's view and feed;
no token means the spectator's.
"""

from __future__ import annotations

import asyncio
import contextlib
import re

import msgspec
from starlette.requests import Request

from services.gateway.body import MAX_VERSION, bearer
from services.gateway.context import Gateway, client_address
from services.gateway.delay import newest_allowed
from services.gateway.errors import ApiError
from shared.eventstore.keys import GameKeys
from shared.games import registry
from shared.infra import wallclock
from shared.kernel.auth import token_hash
from shared.readmodels.build import HISTORY, SPECTATOR, HistoryEntry, ViewStatus, audience_name

doc_status = msgspec.json.Decoder(ViewStatus).decode
history_entry = msgspec.json.Decoder(HistoryEntry).decode


def is_over(doc: bytes) -> bool:
    return doc_status(doc).over


async def spectator_doc(gw: Gateway, keys: GameKeys, live: bytes) -> bytes:
    """The live spectator view, or the delayed one if the table asks for a delay."""
    status = doc_status(live)
    delay = status.spectator_delay
    if delay is None or status.over:
        return live
    rows = await gw.read.xrevrange(keys.audience_feed(HISTORY), count=256)
    entries = [history_entry(fields[b"e"]) for _, fields in rows]
    now_ms = wallclock.now_ms()
    index = newest_allowed(delay, status.moves, now_ms, [(e.moves, e.at) for e in entries])
    if index is not None:
        return bytes(entries[index].doc)
    first = await gw.read.xrange(keys.audience_feed(HISTORY), count=1)
    return bytes(history_entry(first[0][1][b"e"]).doc) if first else live


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
        status = doc_status(doc)
        left = deadline - loop.time()
        if status.version >= wanted or status.over or left <= 0:
            return doc
        with contextlib.suppress(TimeoutError):
            # A delayed spectator's view moves with time too, not only on notices.
            async with asyncio.timeout(min(left, 0.25 if name == SPECTATOR else left)):
                await wake.wait()


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


# -- listings ---------------------------------------------------------------------

#: Listings: at most this many tables or tournaments per request.
MAX_LIST = 200


def game_title(game: str) -> str:
    try:
        return registry.get(game).title
    except registry.UnknownGame:
        return game


def listing_limit(request: Request) -> int:
    limit = int_param(request, "limit", 50)
    if not 1 <= limit <= MAX_LIST:
        raise ApiError(
            "bad_request", f"Query parameter 'limit' must be from 1 to {MAX_LIST}.", parameter="limit"
        )
    return limit
