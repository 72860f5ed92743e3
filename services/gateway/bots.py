"""The bot API: one long-lived stream per player key, for every table it sits at.

``GET /v1/bot/stream`` (``Authorization: Bearer <player key>``) is a
server-sent event stream served by the feed hub (:mod:`services.gateway.feeds`)
from the player's *inbox*: a stream in the store whose entries, numbered
1, 2, ..., say "look at table T, seat S, as of version V". The platform
process appends one whenever a table with the player's seats moves (and one
per table when the player is seated); this stream turns each into

* ``event: turn``: the seat is to act; ``data`` holds the table id, the seat,
  the version and the seat's view with its legal moves;
* ``event: over``: the game is over (``data`` as for ``turn``, with the final view);
* ``event: invitation``: another player invites this one to a casual table
  (:mod:`services.gateway.casual`; accept or decline with the same key);
* a bare ``id:`` line otherwise (someone else is to act), so the client's
  ``Last-Event-ID`` still moves on.

A rotated key's open streams end (``event: end``) on every gateway within a
second or two (:mod:`services.gateway.credentials`): the rotation's notice, or
the periodic check of the keys held should the notice be lost, has the
stream read again, and a read under a key that is no longer current ends it.
The SSE id is the inbox entry's number. A bot that drops reconnects with
``Last-Event-ID`` and gets every entry after it (views as they are then); a
connection without one starts with a fresh look at every table the player
sits at and every invitation it has not answered. A turn may come twice (a
view already newer when an entry is read): answer with
``Idempotency-Key: <table>:<seat>:<version>`` and a repeat is the first
outcome, never a second move.

Answers go through the normal command route, ``POST /v1/tables/{id}/commands``
with the same player key: the gateway resolves it to the player's own seat
token at that table (:func:`services.gateway.callers.seat_token_hash`).
"""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.requests import Request

from services.gateway.apidoc import (
    AFTER,
    JSON_DATA,
    LAST_EVENT_ID,
    PLAYER_KEY,
    PLAYER_KEY_AUTH,
    RATE_LIMIT_NOTE,
    frame,
    reconnect_frame,
    ref,
)
from services.gateway.callers import authenticated_player
from services.gateway.context import Gateway
from services.gateway.credentials import Credentials, HeldResponse
from services.gateway.errors import ApiError
from services.gateway.feeds import FeedResponse, Page, resume_after
from services.gateway.reads import int_param, read_view, view_at
from services.gateway.routing import Answer, Route
from shared.casual.keys import casual_keys
from shared.casual.store import INVITATIONS
from shared.messaging.messages import encode
from shared.players.keys import inbox, inbox_counter, notice_id, player_invitations
from shared.players.seats import Turn
from shared.players.store import player_of_key, seats, turns
from shared.readmodels.build import ViewStatus, audience_name


class TurnNotice(msgspec.Struct, kw_only=True):
    """The data of a ``turn`` or ``over`` event of the bot stream."""

    table_id: str
    seat: int
    version: int
    #: The seat's view document (as ``GET /v1/tables/{id}/view`` with the seat's token).
    view: msgspec.Raw


class InvitationNotice(msgspec.Struct, kw_only=True):
    """The data of an ``invitation`` event: accept with POST /v1/casual/{invitation_id}/accept."""

    invitation_id: str
    host: str
    game: str
    rated: bool
    seats: int


_status = msgspec.json.Decoder(ViewStatus).decode


async def stream(request: Request) -> HeldResponse:
    gw: Gateway = request.app.state.gateway
    player_id, hashed = await authenticated_player(gw, request)
    gw.limits.read(hashed)
    after = int_param(request, "after", 0)
    if request.headers.get("last-event-id") is None and not after:
        # A fresh connection: start with a look at every table, after what is there now.
        after = int(await gw.redis.get(inbox_counter(player_id)) or 0)
        mine = [Turn(table_id=s.table_id, seat=s.seat, version=0) for s in await seats(gw.redis, player_id)]
        asked = await gw.redis.smembers(player_invitations(player_id))
        mine += [Turn(table_id=i.decode(), seat=-1, version=0) for i in sorted(asked)]
        await turns(gw.redis, [(player_id, t) for t in mine])
    after = resume_after(request, after)
    feed = Inbox(gw, player_id, hashed)
    credentials: Credentials = request.app.state.credentials
    return HeldResponse(FeedResponse(gw.feeds, feed, after), credentials, hashed, feed, player_id)


class Inbox:
    """A player's inbox as the feed hub reads it: each entry becomes a turn, an end, or an id."""

    def __init__(self, gw: Gateway, player_id: str, key_hash: str) -> None:
        self.gw = gw
        self.player_id = player_id
        self.key_hash = key_hash
        # One channel per key: a rotated key's streams end, the new key's go on.
        self.key = (notice_id(player_id), f"bot:{key_hash[:16]}")
        self.label = "bot"
        #: (table, seat) -> the newest version sent: a repeat becomes a bare id.
        self._sent: dict[tuple[str, int], int] = {}

    def end(self) -> None:
        """The key ended: the stream is read again now, and that read ends it."""
        self.gw.feeds.notify([self.key[0]])

    async def read(self, after: int, count: int) -> Page:
        if await player_of_key(self.gw.redis, self.key_hash) != self.player_id:
            return Page([], more=False, finished=True)  # the key was rotated: this stream ends
        stream = inbox(self.player_id)
        rows = await self.gw.batch.run(
            lambda pipe: pipe.xrange(stream, min=f"(0-{after}", max="+", count=count)
        )
        frames = []
        for entry_id, fields in rows:
            number = int(entry_id.split(b"-")[1])
            turn = Turn(table_id=fields[b"t"].decode(), seat=int(fields[b"s"]), version=int(fields[b"v"]))
            frames.append((number, await self._frame(number, turn)))
        return Page(frames, more=len(rows) >= count, finished=False)

    async def _frame(self, number: int, turn: Turn) -> bytes:
        bare = b"id: %d\n\n" % number
        if turn.seat < 0:  # an invitation to a casual table (its id in table_id)
            where = casual_keys(turn.table_id, self.gw.settings.partitions)
            _, inv = await INVITATIONS.load(self.gw.store, where)
            if inv is None or inv.status != "pending" or self.player_id in inv.accepted:
                return bare
            data = encode(
                InvitationNotice(
                    invitation_id=inv.invitation_id,
                    host=inv.host,
                    game=inv.game,
                    rated=inv.rated,
                    seats=len(inv.seats),
                )
            )
            return b"id: %d\nevent: invitation\ndata: %s\n\n" % (number, data)
        try:
            keys = self.gw.keys(turn.table_id)
            name = audience_name(turn.seat)
            if turn.version:
                doc = await view_at(self.gw, keys, name, turn.version)
            else:
                doc = await read_view(self.gw, keys, name)
        except ApiError:  # a table not opened yet: its first move brings another entry
            return bare
        status = _status(doc)
        seen = (turn.table_id, turn.seat)
        if self._sent.get(seen, -1) >= status.version:
            return bare
        if not status.over and turn.seat not in status.actors:
            return bare
        self._sent[seen] = status.version
        kind = b"over" if status.over else b"turn"
        data = encode(
            TurnNotice(table_id=turn.table_id, seat=turn.seat, version=status.version, view=msgspec.Raw(doc))
        )
        return b"id: %d\nevent: %s\ndata: %s\n\n" % (number, kind, data)


def _bot_sse() -> dict[str, Any]:
    turn = {**JSON_DATA, "contentSchema": ref("TurnNotice")}
    event = {
        "oneOf": [
            frame({"event": {"enum": ["turn", "over"]}, "id": {"type": "string"}, "data": turn}),
            frame(
                {
                    "event": {"const": "invitation"},
                    "id": {"type": "string"},
                    "data": {**JSON_DATA, "contentSchema": ref("InvitationNotice")},
                },
                "An invitation to a casual table: POST /v1/casual/{invitation_id}/accept or decline",
            ),
            # Without 'event': every other frame has an id too.
            {
                **frame({"id": {"type": "string"}}, "Nothing to do at this entry: the id moves on"),
                "not": {"required": ["event"]},
            },
            frame(
                {"event": {"const": "end"}, "data": {"const": "{}"}},
                "The player key was rotated: the stream closes",
            ),
            reconnect_frame(),
        ]
    }
    return {"text/event-stream": {"schema": event}}


routes = [
    Route(
        "GET",
        "/v1/bot/stream",
        stream,
        summary="The bot API: one stream of turns for every table the player sits at",
        description="Server-sent events: `turn` when a seat of yours is to act (its view with "
        "the legal moves), `over` when a table ends, a bare id otherwise. Answer through "
        "POST /v1/tables/{table_id}/commands with the same key and `Idempotency-Key: "
        "<table>:<seat>:<version>` (a turn may come twice). Resumes after `Last-Event-ID` "
        "(or `after`); without either, starts with a look at every table. Rate limited: "
        + RATE_LIMIT_NOTE["tokens"]
        + ".",
        parameters=[AFTER, LAST_EVENT_ID],
        security=PLAYER_KEY_AUTH,
        answers=[
            Answer(
                200,
                description="text/event-stream: 'turn' and 'over' events (a TurnNotice each), their id "
                "the inbox entry's number; a comment line every 15 s while idle",
                content=_bot_sse(),
                schemas=(TurnNotice, InvitationNotice),
            )
        ],
        codes=[*PLAYER_KEY, "bad_request"],
    )
]
