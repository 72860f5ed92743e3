"""Arena routes: open an arena, join and leave it with a player key, read its leaderboard.

An arena is an aggregate of its own (``shared/arenas``), appended to with
the expected version by the gateway (create, join, leave) and by the arena
runner in the platform process (pair, score, close); the leaderboard is
folded from its stream on each read (arenas are small and read rarely).
Joining takes the player's own key: nobody is entered by anyone else. A join
or leave under an Idempotency-Key is the player's own, for that arena and route
(:func:`services.gateway.writes.keyed`), and counts against the player's
writes budget and its client address's. An arena takes at most
``max_arena_members`` players (``arena_full``).
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
    limit,
    path,
)
from services.gateway.body import header_id
from services.gateway.callers import authenticated_player
from services.gateway.context import Gateway, client_address
from services.gateway.decisions import creation, decided
from services.gateway.errors import ApiError
from services.gateway.reads import anonymous_read
from services.gateway.routing import Answer, Route
from services.gateway.writes import Chosen, asked, checked_options, forget, keyed, player_caller
from shared.arenas import codes as ac
from shared.arenas.commands import MAX_BOTS, ArenaCommandUnion, Create, Join, Leave
from shared.arenas.keys import ARENAS_INDEX, ARENAS_OPEN, arena_keys
from shared.arenas.rules import decide
from shared.arenas.standings import ArenaView, arena_view
from shared.arenas.state import ArenaState, Status
from shared.arenas.store import ARENAS
from shared.infra.wallclock import now_ms
from shared.kernel.bounds import MAX_OPTIONS, MAX_SEATS, Name
from shared.kernel.levels import Level
from shared.messaging.messages import encode

ARENA_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,47}$")
#: The longest window an arena may run.
MAX_SECONDS = 7 * 24 * 3600


class NewArena(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    game: Name
    game_options: Annotated[dict[Name, Any], msgspec.Meta(max_length=MAX_OPTIONS)] = {}
    #: Players per table: a table opens as soon as this many are waiting.
    seats: Annotated[int, msgspec.Meta(ge=2, le=MAX_SEATS)] = 2
    #: How long the arena runs, from now (tables in play when it closes still count).
    seconds: Annotated[int, msgspec.Meta(ge=5, le=MAX_SECONDS)] = 3600
    bots: Annotated[
        list[Level],
        msgspec.Meta(
            max_length=MAX_BOTS,
            description="Our bots entered from the start, one level each (easy, medium or hard): "
            "they wait and play like players, never at a table without a person, and are on "
            "the leaderboard (with their level) but not the ladder; any other level is refused "
            "`unknown_level`",
        ),
    ] = []


class ArenaOpened(msgspec.Struct, kw_only=True):
    arena_id: str
    version: int
    ends_at_ms: int
    duplicate: bool = False


class ArenaAccepted(msgspec.Struct, kw_only=True):
    arena_id: str
    player_id: str
    version: int
    duplicate: bool


async def _execute(
    gw: Gateway, arena_id: str, command: ArenaCommandUnion, command_id: str
) -> tuple[int, ArenaState, bool]:
    keys = arena_keys(arena_id, gw.settings.partitions)
    busy = "The arena is changing too fast; retry."
    bound = gw.settings.max_arena_members
    return await decided(
        gw, ARENAS, keys, lambda state: decide(state, command, max_members=bound), command_id, busy
    )


async def _arena(gw: Gateway, request: Request) -> str:
    arena_id: str = request.path_params["arena_id"]
    if not ARENA_ID.match(arena_id) or await gw.redis.zscore(ARENAS_INDEX, arena_id) is None:
        raise ApiError("not_found", f"There is no arena {arena_id}.")
    return arena_id


async def create(request: Request) -> Response:
    made = await creation(request, NewArena)
    gw, body = made.gw, made.body
    options = checked_options(body.game, body.seats, dict(body.game_options))
    key = header_id(request, "idempotency-key")
    fresh = _Chosen("a" + uuid.uuid4().hex[:12], asked=asked(body))
    arena_id = (await made.chosen("arena", key, fresh)).arena_id
    now = now_ms()
    command = Create(
        arena_id=arena_id,
        game=body.game,
        game_options=options,
        seats=body.seats,
        starts_at_ms=now,
        ends_at_ms=now + body.seconds * 1000,
        bots=tuple(body.bots),
        at_ms=now,
    )
    try:
        version, state, duplicate = await _execute(gw, arena_id, command, "create")
    except ApiError as exc:
        if exc.code != "busy":  # refused: nothing was created under the key
            await forget(gw, "arena", made.address, key)
        raise
    async with gw.redis.pipeline(transaction=False) as pipe:
        pipe.zadd(ARENAS_INDEX, {arena_id: state.starts_at_ms}, nx=True)
        pipe.sadd(ARENAS_OPEN, arena_id)
        await pipe.execute()
    out = ArenaOpened(arena_id=arena_id, version=version, ends_at_ms=state.ends_at_ms, duplicate=duplicate)
    return Response(encode(out), status_code=201, media_type="application/json")


class ArenaSummary(msgspec.Struct, kw_only=True):
    """One arena as listed: what it plays, its window and how far it got."""

    arena_id: str
    game: str
    seats: int
    status: Status
    starts_at_ms: int
    ends_at_ms: int
    #: Everyone who ever joined.
    players: int
    tables: int
    #: Tables being played now.
    live: int


class ArenaList(msgspec.Struct, kw_only=True):
    arenas: list[ArenaSummary]


#: Arenas a list shows at most.
MAX_LISTED = 100


async def listing(request: Request) -> Response:
    """Arenas, newest first (``?limit=N``, at most :data:`MAX_LISTED`)."""
    gw: Gateway = request.app.state.gateway
    anonymous_read(gw, request)
    raw = request.query_params.get("limit", "20")
    if not raw.isdigit() or not 1 <= int(raw) <= MAX_LISTED:
        raise ApiError("bad_request", f"limit must be a whole number from 1 to {MAX_LISTED}.")
    ids = [i.decode() for i in await gw.redis.zrevrange(ARENAS_INDEX, 0, int(raw) - 1)]
    loaded = [await ARENAS.load(gw.store, arena_keys(i, gw.settings.partitions)) for i in ids]
    out = ArenaList(
        arenas=[
            ArenaSummary(
                arena_id=state.arena_id,
                game=state.game,
                seats=state.seats,
                status=state.status,
                starts_at_ms=state.starts_at_ms,
                ends_at_ms=state.ends_at_ms,
                players=len(state.members),
                tables=len(state.tables),
                live=sum(t.placings is None for t in state.tables),
            )
            for _, state in loaded
            if state is not None
        ]
    )
    return Response(encode(out), media_type="application/json")


class _Chosen(Chosen):
    arena_id: str


async def join(request: Request) -> Response:
    return await _membership(request, Join)


async def leave(request: Request) -> Response:
    return await _membership(request, Leave)


async def _membership(request: Request, command: type[Join] | type[Leave]) -> Response:
    """A player joins or leaves with its own key; a repeat under one idempotency key is one change."""
    gw: Gateway = request.app.state.gateway
    arena_id = await _arena(gw, request)
    player_id, _ = await authenticated_player(gw, request)
    caller = player_caller(player_id)
    gw.limits.write(client_address(request), caller)
    command_id, _ = keyed(request, caller)
    change = command(player_id=player_id, at_ms=now_ms())
    version, _, duplicate = await _execute(gw, arena_id, change, command_id)
    out = ArenaAccepted(arena_id=arena_id, player_id=player_id, version=version, duplicate=duplicate)
    return Response(encode(out), media_type="application/json")


async def view(request: Request) -> Response:
    """The arena's leaderboard, who waits and who plays, and its tables."""
    gw: Gateway = request.app.state.gateway
    anonymous_read(gw, request)
    arena_id = await _arena(gw, request)
    _, state = await ARENAS.load(gw.store, arena_keys(arena_id, gw.settings.partitions))
    if state is None:
        raise ApiError("not_found", f"There is no arena {arena_id}.")
    out: ArenaView = arena_view(state)
    return Response(encode(out), media_type="application/json")


_ARENA = path("arena_id", ARENA_ID.pattern)


def _membership_route(handler: Any, tail: str, summary: str, *codes: str) -> Route:
    return Route(
        "POST",
        "/v1/arenas/{arena_id}/" + tail,
        handler,
        summary=summary,
        description=WRITE_NOTE,
        parameters=[_ARENA, IDEMPOTENCY],
        security=PLAYER_KEY_AUTH,
        answers=[Answer(200, ArenaAccepted)],
        codes=[*PLAYER_KEY, NOT_FOUND, "bad_header", "busy", *codes],
    )


routes = [
    Route(
        "GET",
        "/v1/arenas",
        listing,
        summary="Arenas, newest first: game, window, status, players and tables",
        description=READS_NOTE,
        parameters=[limit(MAX_LISTED, 20, description=None)],
        answers=[Answer(200, ArenaList)],
        codes=["bad_request", "rate_limited", STORE],
    ),
    Route(
        "POST",
        "/v1/arenas",
        create,
        summary="Open an arena: a rated, continuous format for one game, for a time window",
        description="Players who join wait in a queue; a table opens as soon as `seats` are "
        "waiting, and its players queue again when it ends, until they leave or the window "
        "closes. Every table is rated on the game's ladder among its people; `bots` enters our "
        "bots at their levels. Rate limited: " + RATE_LIMIT_NOTE["opens"] + ".",
        parameters=[IDEMPOTENCY],
        body=NewArena,
        example={"game": "highcard", "seats": 2, "seconds": 600, "bots": ["hard"]},
        answers=[Answer(201, ArenaOpened, "Opened")],
        codes=[
            "bad_json",
            "bad_request",
            "bad_header",
            "bad_options",
            "bad_seat_count",
            "bad_clock",
            "unknown_game",
            "unknown_level",
            "body_too_large",
            "rate_limited",
            "busy",
            STORE,
            "idempotency_key_reused",
            ac.INVALID_ARENA,
            ac.ALREADY_CREATED,
        ],
    ),
    Route(
        "GET",
        "/v1/arenas/{arena_id}",
        view,
        summary="An arena's leaderboard (points per placing), who waits, who plays, its tables",
        description=READS_NOTE,
        parameters=[_ARENA],
        answers=[Answer(200, ArenaView)],
        codes=[NOT_FOUND, "rate_limited", STORE],
    ),
    _membership_route(
        join,
        "join",
        "Join the arena's queue with your player key",
        ac.CLOSED,
        ac.NOT_OPEN_YET,
        ac.ALREADY_IN,
        ac.FULL,
    ),
    _membership_route(leave, "leave", "Leave the arena (after the table you are playing, if any)", ac.NOT_IN),
]
