"""A table's reads: its view, its live feed, a finished game's public log,
replay and audit log (:mod:`services.gateway.reads` for what they share)."""

from __future__ import annotations

from typing import Annotated

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from services.gateway.answers import stored
from services.gateway.apidoc import (
    AFTER,
    AUTH_OPTIONAL,
    FINISHED_READ,
    LAST_EVENT_ID,
    RATE_LIMIT_NOTE,
    TABLE,
    TABLE_READ,
    query_version,
    sse,
)
from services.gateway.context import Gateway
from services.gateway.errors import ApiError
from services.gateway.feeds import FeedResponse, Page, resume_after
from services.gateway.hot import JsonAnswer
from services.gateway.reads import (
    anonymous_read,
    audience,
    doc_status,
    history_entry,
    int_param,
    is_over,
    read_view,
    spectator_doc,
    view_at,
)
from services.gateway.routing import Answer, Route
from shared.eventstore.keys import GameKeys
from shared.messaging.messages import encode
from shared.readmodels.audit import AuditLog
from shared.readmodels.build import HISTORY, SPECTATOR, FeedEntry, ViewDoc, ViewStatus


class PublicLog(msgspec.Struct, kw_only=True):
    """The spectator's final view and every public event."""

    view: Annotated[msgspec.Raw, stored(ViewDoc)]
    events: list[Annotated[msgspec.Raw, stored(FeedEntry)]]


async def view(request: Request) -> Response:
    gw: Gateway = request.app.state.gateway
    game_id = request.path_params["table_id"]
    keys = gw.keys(game_id)
    name = await audience(gw, request, game_id)
    wanted = int_param(request, "min_version", 0)
    doc = await read_view(gw, keys, name)
    if name == SPECTATOR:
        doc = await spectator_doc(gw, keys, doc)
    if wanted and doc_status(doc).version < wanted:
        doc = await view_at(gw, keys, name, wanted)
    return JsonAnswer(doc)


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
        status = doc_status(raw) if raw is not None else ViewStatus()
        limit = None
        delayed = status.spectator_delay is not None and not status.over
        if self.name == SPECTATOR and raw is not None and delayed:
            limit = doc_status(await spectator_doc(gw, keys, raw)).version
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
    version = int_param(request, "version", doc_status(doc).version)
    rows = await gw.read.xrevrange(keys.audience_feed(HISTORY), max=f"0-{version}", count=1)
    if not rows:  # a version inside the opening: show the table as it opened
        rows = await gw.read.xrange(keys.audience_feed(HISTORY), count=1)
    if not rows:  # a rebuild writes no history: the log does not record the projector's batches
        raise ApiError("not_found", "This table's step-by-step history was not kept.")
    return Response(bytes(history_entry(rows[0][1][b"e"]).doc), media_type="application/json")


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


routes = [
    Route(
        "GET",
        "/v1/tables/{table_id}/view",
        view,
        hot=True,
        summary="Your seat's view with its legal commands (with a token), or the spectator's",
        description="With `min_version`, the answer waits (up to 10 s) until the view shows at "
        "least that version, so a client that has just acted reads its new view in "
        "one request instead of polling; after the wait it gets the newest view there is. "
        "Rate limited: " + RATE_LIMIT_NOTE["reads"] + ".",
        parameters=[TABLE, query_version("min_version", "Wait until the view shows at least this version")],
        security=AUTH_OPTIONAL,
        answers=[Answer(200, ViewDoc)],
        codes=["bad_request", *TABLE_READ],
    ),
    Route(
        "GET",
        "/v1/tables/{table_id}/feed",
        feed,
        hot=True,
        summary="Live feed (server-sent events) of what your seat, or a spectator, may see",
        description="Resumes after the larger of `after` and `Last-Event-ID`. "
        "Rate limited: " + RATE_LIMIT_NOTE["reads"] + ".",
        parameters=[TABLE, AFTER, LAST_EVENT_ID],
        security=AUTH_OPTIONAL,
        answers=[Answer(200, **sse("game-event", "the game is over"))],
        codes=["bad_request", *TABLE_READ],
    ),
    Route(
        "GET",
        "/v1/tables/{table_id}/log",
        public_log,
        summary="A finished game's public log (replay) and its revealed seed",
        parameters=[TABLE],
        answers=[Answer(200, PublicLog)],
        codes=FINISHED_READ,
    ),
    Route(
        "GET",
        "/v1/tables/{table_id}/replay",
        replay,
        summary="A finished game's public view at a version, to replay it step by step",
        parameters=[TABLE, query_version("version", "The version to show (default: the last)")],
        answers=[Answer(200, ViewDoc)],
        codes=["bad_request", *FINISHED_READ],
    ),
    Route(
        "GET",
        "/v1/tables/{table_id}/audit",
        audit_log,
        summary="A finished game's complete log and commands, to verify it was fair",
        parameters=[TABLE],
        answers=[Answer(200, AuditLog)],
        codes=FINISHED_READ,
    ),
]
