"""Casual tables by invitation: a host invites players (and seats our bots), rated or not.

The invitation is an aggregate of its own (``shared/casual``), written by the
gateway with expected-version appends. Each invited player hears of it on its
bot stream (``event: invitation``) and accepts or declines with its own key;
the gateway handling the last acceptance opens the table (its id is the
invitation's), seats the accounts so their bots get their turns, hands bot
seats to the platform process's bot runner, and records the opening. Every
step is idempotent (the seat tokens are kept once, a second open answers
``table_exists``), so an accept retried after a failure finishes the job.

An invitation's Idempotency-Key is its host's own; every invitation and answer
counts against the player's writes budget and its client address's; and a
player has at most ``max_pending_invitations`` invitations waiting for answers
as host, and apart as an invitee (``too_many_invitations``), counted from the
indices kept here (a bound that requests racing past it exceed by their number,
which the writes budget keeps small).
"""

from __future__ import annotations

import re
import uuid
from typing import Annotated, Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from services.gateway.apidoc import (
    IDEMPOTENCY,
    NOT_FOUND,
    PLAYER_KEY,
    PLAYER_KEY_AUTH,
    RATE_LIMIT_NOTE,
    READS_NOTE,
    STORE,
    WRITE_NOTE,
    path,
)
from services.gateway.body import correlation_id, header_id, read_json
from services.gateway.callers import authenticated_player
from services.gateway.context import Gateway, client_address
from services.gateway.decisions import decided
from services.gateway.errors import ApiError
from services.gateway.reads import anonymous_read
from services.gateway.routing import Answer, Route
from services.gateway.writes import (
    Chosen,
    asked,
    checked_options,
    forget,
    message,
    player_caller,
    remember,
    submit,
)
from shared.casual import codes as cc
from shared.casual.commands import Accept, CasualCommandUnion, CasualSeat, Decline, Invite, MarkOpened
from shared.casual.keys import CASUAL_TABLES, casual_keys, casual_tokens
from shared.casual.rules import Invitation, Pending, decide, invited
from shared.casual.store import INVITATIONS, CasualTable
from shared.eventstore import game_index
from shared.infra import wallclock
from shared.kernel import levels
from shared.kernel.auth import new_token, token_hash
from shared.kernel.bounds import MAX_OPTIONS, MAX_SEATS, Name
from shared.messaging.messages import OpenMsg, OpenTable, encode
from shared.players.keys import player_doc, player_hosting, player_invitations
from shared.players.seats import Seat, Turn
from shared.players.store import seat_players, turns
from shared.tournaments import store as bot_store

INVITATION_ID = re.compile(r"^c[0-9a-f]{12}$")


class NewCasual(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    game: Name
    game_options: Annotated[dict[Name, Any], msgspec.Meta(max_length=MAX_OPTIONS)] = {}
    #: In seat order: each a player account (invited; the host among them) or one of our bots.
    seats: Annotated[list[CasualSeat], msgspec.Meta(min_length=2, max_length=MAX_SEATS)]
    #: Rated tables move the players' ladder ratings.
    rated: bool = False


class CasualView(msgspec.Struct, kw_only=True):
    invitation_id: str
    host: str
    game: str
    rated: bool
    seats: list[CasualSeat]
    accepted: list[str]
    status: str
    #: Set once every invited player has accepted and the table is open.
    table_id: str | None


def _view(inv: Invitation) -> CasualView:
    return CasualView(
        invitation_id=inv.invitation_id,
        host=inv.host,
        game=inv.game,
        rated=inv.rated,
        seats=list(inv.seats),
        accepted=list(inv.accepted),
        status=inv.status,
        table_id=inv.table_id,
    )


async def _execute(
    gw: Gateway,
    invitation_id: str,
    command: CasualCommandUnion,
    command_id: str,
    pending: Pending = Pending(),
) -> Invitation:
    keys = casual_keys(invitation_id, gw.settings.partitions)
    busy = "The invitation is changing too fast; retry."
    _, state, _ = await decided(
        gw, INVITATIONS, keys, lambda state: decide(state, command, pending), command_id, busy
    )
    return state


class _Chosen(Chosen):
    invitation_id: str


async def _pending(gw: Gateway, host: str, seats: list[CasualSeat]) -> Pending:
    """What waits for answers already: the host's invitations as host, each guest's as a guest."""
    guests = [s.player_id for s in seats if s.player_id is not None and s.player_id != host]
    async with gw.redis.pipeline(transaction=False) as pipe:
        pipe.scard(player_hosting(host))
        for guest in guests:
            pipe.scard(player_invitations(guest))
        hosting, *counts = await pipe.execute()
    return Pending(
        hosting=hosting,
        invited=dict(zip(guests, counts, strict=True)),
        limit=gw.settings.max_pending_invitations,
    )


async def invite(request: Request) -> Response:
    gw: Gateway = request.app.state.gateway
    host, _ = await authenticated_player(gw, request)
    address = client_address(request)
    gw.limits.open(address)
    gw.limits.write(address, player_caller(host))
    body = await read_json(request, NewCasual, gw.settings.max_body_bytes)
    options = checked_options(body.game, len(body.seats), dict(body.game_options))
    for seat in body.seats:
        if seat.player_id is not None and not await gw.redis.exists(player_doc(seat.player_id)):
            raise ApiError("not_found", f"There is no player {seat.player_id}.")
    chosen = _Chosen("c" + uuid.uuid4().hex[:12], asked=asked(body))
    key = header_id(request, "idempotency-key")
    if key is not None:
        chosen = await remember(gw, "casual", player_caller(host), key, chosen)
    command = Invite(
        invitation_id=chosen.invitation_id,
        host=host,
        game=body.game,
        game_options=options,
        seats=tuple(body.seats),
        rated=body.rated,
        at_ms=wallclock.now_ms(),
    )
    try:
        pending = await _pending(gw, host, body.seats)
        inv = await _execute(gw, chosen.invitation_id, command, "invite", pending)
    except ApiError as exc:
        if exc.code != "busy":  # refused: nothing was invited under the key
            await forget(gw, "casual", player_caller(host), key)
        raise
    guests = [p for p in invited(inv) if p not in inv.accepted]
    async with gw.redis.pipeline(transaction=False) as pipe:
        if inv.status in ("pending", "ready"):
            pipe.sadd(player_hosting(inv.host), inv.invitation_id)
        for guest in guests:
            pipe.sadd(player_invitations(guest), inv.invitation_id)
        await pipe.execute()
    await turns(gw.redis, [(p, Turn(table_id=inv.invitation_id, seat=-1, version=0)) for p in guests])
    inv = await _open_when_ready(gw, request, inv)
    return Response(encode(_view(inv)), status_code=201, media_type="application/json")


async def _invitation(gw: Gateway, request: Request) -> str:
    invitation_id: str = request.path_params["invitation_id"]
    keys = casual_keys(invitation_id, gw.settings.partitions) if INVITATION_ID.match(invitation_id) else None
    if keys is None or not await gw.store.version(keys):
        raise ApiError("not_found", f"There is no invitation {invitation_id}.")
    return invitation_id


async def accept(request: Request) -> Response:
    gw: Gateway = request.app.state.gateway
    invitation_id = await _invitation(gw, request)
    player_id, _ = await authenticated_player(gw, request)
    gw.limits.write(client_address(request), player_caller(player_id))
    inv = await _execute(gw, invitation_id, Accept(player_id=player_id), f"accept:{player_id}")
    await gw.redis.srem(player_invitations(player_id), invitation_id)
    inv = await _open_when_ready(gw, request, inv)
    return Response(encode(_view(inv)), media_type="application/json")


async def decline(request: Request) -> Response:
    gw: Gateway = request.app.state.gateway
    invitation_id = await _invitation(gw, request)
    player_id, _ = await authenticated_player(gw, request)
    gw.limits.write(client_address(request), player_caller(player_id))
    inv = await _execute(gw, invitation_id, Decline(player_id=player_id), f"decline:{player_id}")
    async with gw.redis.pipeline(transaction=False) as pipe:
        pipe.srem(player_hosting(inv.host), invitation_id)
        for guest in invited(inv):  # cancelled for everyone
            pipe.srem(player_invitations(guest), invitation_id)
        await pipe.execute()
    return Response(encode(_view(inv)), media_type="application/json")


async def view(request: Request) -> Response:
    gw: Gateway = request.app.state.gateway
    anonymous_read(gw, request)
    invitation_id = await _invitation(gw, request)
    _, inv = await INVITATIONS.load(gw.store, casual_keys(invitation_id, gw.settings.partitions))
    assert inv is not None
    return Response(encode(_view(inv)), media_type="application/json")


async def _open_when_ready(gw: Gateway, request: Request, inv: Invitation) -> Invitation:
    """Open the table once everyone accepted (again, harmlessly, if a step was cut short)."""
    if inv.status != "ready":
        return inv
    table_id = inv.invitation_id
    seats = range(len(inv.seats))
    async with gw.redis.pipeline(transaction=False) as pipe:
        for seat in seats:
            pipe.hsetnx(casual_tokens(table_id), str(seat), new_token())
        pipe.hmget(casual_tokens(table_id), [str(s) for s in seats])
        tokens = [t.decode() for t in (await pipe.execute())[-1]]
    keys = gw.keys(table_id)
    record = CasualTable(game=inv.game, rated=inv.rated, seats=[s.player_id for s in inv.seats])
    async with gw.redis.pipeline(transaction=False) as pipe:
        pipe.hset(keys.auth, mapping={token_hash(t): s for s, t in enumerate(tokens)})
        pipe.hset(CASUAL_TABLES, table_id, msgspec.json.encode(record))
        await pipe.execute()
    msg = message(
        gw,
        correlation_id(request),
        OpenMsg,
        table_id,
        f"open-{table_id}",
        open=OpenTable(
            game=inv.game,
            seats=len(inv.seats),
            options=dict(inv.game_options),
            token_hashes=tuple(token_hash(t) for t in tokens),
        ),
    )
    outcome = await submit(gw, msg, inv.game)
    if outcome.status == "rejected" and outcome.code != "table_exists":
        raise ApiError.passed_on(outcome.code, outcome.message, outcome.details)
    await game_index.index(gw.redis, keys, wallclock.now_ms())
    accounts = [(pid, s) for s, pid in enumerate(record.seats) if pid is not None]
    await seat_players(
        gw.redis,
        table_id,
        [
            (pid, Seat(table_id=table_id, game=inv.game, seat=s, token=tokens[s], source="casual"))
            for pid, s in accounts
        ],
    )
    bots = {s: (tokens[s], levels.level_of(seat.bot)) for s, seat in enumerate(inv.seats) if seat.bot}
    if bots:
        await bot_store.hand_over_bots(gw.redis, table_id, bots)
    opened = await _execute(gw, inv.invitation_id, MarkOpened(table_id=table_id), "open")
    await gw.redis.srem(player_hosting(inv.host), inv.invitation_id)  # answered: no longer pending
    return opened


_INVITATION = path("invitation_id", INVITATION_ID.pattern)


def _answer(handler: Any, tail: str, summary: str, *codes: str) -> Route:
    """An invited player's answer (accept or decline), with its key."""
    return Route(
        "POST",
        "/v1/casual/{invitation_id}/" + tail,
        handler,
        summary=summary,
        description=WRITE_NOTE,
        parameters=[_INVITATION],
        security=PLAYER_KEY_AUTH,
        answers=[Answer(200, CasualView)],
        codes=[*PLAYER_KEY, NOT_FOUND, "busy", cc.NOT_INVITED, cc.CANCELLED, *codes],
    )


routes = [
    Route(
        "POST",
        "/v1/casual",
        invite,
        summary="Invite players (and seat our bots) to a casual table, rated or not",
        description="The host's key; the host sits at the table. Each invited player hears "
        "of it on its bot stream (`invitation`) and accepts or declines; the table opens (its id "
        "is the invitation's) once every invited player accepted. A bot seat names its level "
        "(`easy`, `medium` or `hard`; `random`, the name before levels, plays easy); any other is "
        "refused `unknown_level`. Rated tables move the players' "
        "ladder ratings. The host, and apart each invited player, may have only so many "
        "invitations waiting for answers (too_many_invitations; a host withdraws one by declining "
        "it). Rate limited: "
        + RATE_LIMIT_NOTE["opens"]
        + ", "
        + RATE_LIMIT_NOTE["tokens"]
        + ", and "
        + RATE_LIMIT_NOTE["writes"]
        + ".",
        parameters=[IDEMPOTENCY],
        security=PLAYER_KEY_AUTH,
        body=NewCasual,
        example={"game": "highcard", "seats": [{"player_id": "pl0"}, {"bot": "hard"}]},
        answers=[Answer(201, CasualView, "Invited")],
        codes=[
            *PLAYER_KEY,
            NOT_FOUND,
            "bad_json",
            "bad_request",
            "unknown_level",
            "bad_header",
            "bad_options",
            "bad_seat_count",
            "bad_clock",
            "unknown_game",
            "body_too_large",
            "busy",
            "dead_lettered",
            "outcome_unknown",
            "table_exists",
            cc.INVALID,
            cc.ALREADY_CREATED,
            cc.NOT_READY,
            cc.TOO_MANY_PENDING,
            "idempotency_key_reused",
        ],
    ),
    Route(
        "GET",
        "/v1/casual/{invitation_id}",
        view,
        summary="An invitation: its seats, who accepted, and its table once open",
        description=READS_NOTE,
        parameters=[_INVITATION],
        answers=[Answer(200, CasualView)],
        codes=[NOT_FOUND, "rate_limited", STORE],
    ),
    _answer(
        accept,
        "accept",
        "Accept an invitation with your key (the last acceptance opens the table)",
        "bad_header",
        "dead_lettered",
        "outcome_unknown",
        "table_exists",
        "bad_options",
        "bad_seat_count",
        "bad_clock",
        "unknown_game",
        cc.NOT_READY,
    ),
    _answer(decline, "decline", "Decline an invitation: it is cancelled", cc.ALREADY_OPEN),
]
