"""Tournament routes: organiser commands, public standings and feeds, a player's seat.

Organiser commands go to the platform process on its command stream and
are answered within the request, like a game's commands. Creating a
tournament returns the organiser token (its hash is kept); registering a
player returns that player's token, which later fetches their current table
and seat token. Reads come from the read models the platform process
writes; the live feed streams the tournament's own events.

An organiser command's Idempotency-Key is the organiser token's own, for that
route and tournament (:func:`services.gateway.writes.keyed`): a player's key
(``join``) or another route's never answers it. Every organiser command counts
against the writes budget of its token and of its client address.
"""

from __future__ import annotations

import asyncio
import hmac
import re
import time
import uuid
from typing import Annotated, Any, Literal

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from services.gateway.answers import stored
from services.gateway.apidoc import (
    AFTER,
    CORRELATION,
    IDEMPOTENCY,
    LAST_EVENT_ID,
    NOT_FOUND,
    PLAYER_KEY,
    PLAYER_KEY_AUTH,
    READS_NOTE,
    SAFE_ID,
    STORE,
    TOURNAMENT,
    TOURNAMENT_SERVICE,
    WRITE_NOTE,
    limit,
    path,
    sse,
)
from services.gateway.body import bearer, correlation_id, header_id, read_json
from services.gateway.callers import authenticated_player
from services.gateway.context import Gateway, client_address
from services.gateway.decisions import creation
from services.gateway.errors import ApiError, Code, error_response
from services.gateway.feeds import FeedResponse, Page, resume_after
from services.gateway.reads import (
    MAX_LIST,
    anonymous_read,
    game_title,
    int_param,
    listing_limit,
)
from services.gateway.routing import Answer, Route
from services.gateway.writes import (
    Chosen,
    asked,
    checked_options,
    forget,
    keyed,
    organiser_caller,
    player_caller,
    remember,
    route_of,
)
from shared.eventstore.store import decode_envelope
from shared.kernel import levels
from shared.kernel.auth import new_token, token_hash
from shared.kernel.bounds import MAX_OPTIONS, MAX_SEATS, Count, Name
from shared.kernel.rejection import RuleViolation
from shared.ladders.ladder import PlayerLadder
from shared.messaging.control import TournamentMsg
from shared.messaging.messages import Outcome, RejectedOutcome, encode
from shared.observability import metrics
from shared.players.keys import player_doc, player_ratings
from shared.readmodels.build import FeedEntry
from shared.tournaments import codes as tc
from shared.tournaments.commands import Create, Finish, PairRound, Register, Start, Withdraw
from shared.tournaments.commands import Register as TournamentRegister
from shared.tournaments.keys import TOURNAMENTS_INDEX, TournamentKeys, changes_key, tournament_keys
from shared.tournaments.settings import ClockSettings, Format, SpectatorDelay
from shared.tournaments.views import (
    PairingsHead,
    PairingsView,
    StandingsHead,
    StandingsStatus,
    StandingsView,
)

UNKNOWN_TOURNAMENT: Code = "unknown_tournament"
_decode_ladder = msgspec.json.Decoder(PlayerLadder).decode
_standings_status = msgspec.json.Decoder(StandingsStatus).decode
_standings_head = msgspec.json.Decoder(StandingsHead).decode
_pairings = msgspec.json.Decoder(PairingsHead).decode
#: Ids the caller chooses (a tournament's, a player's in it).
ID = re.compile(SAFE_ID)
_PAUSE_S = 0.05


Points = Annotated[int, msgspec.Meta(ge=0, le=1_000_000)]


class NewTournament(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    tournament_id: Name | None = None
    name: Annotated[str, msgspec.Meta(max_length=200)] = ""
    game: Name
    game_options: Annotated[dict[Name, Any], msgspec.Meta(max_length=MAX_OPTIONS)] = {}
    format: Format = "swiss"
    seats_per_table: Annotated[int, msgspec.Meta(ge=1, le=MAX_SEATS)] = 2
    min_table_size: Annotated[int, msgspec.Meta(ge=1, le=MAX_SEATS)] | None = None
    rounds: Count = 0
    clock: ClockSettings | None = None
    points: Annotated[tuple[Points, ...], msgspec.Meta(max_length=MAX_SEATS)] | None = None
    bye_points: Points | None = None
    delay: SpectatorDelay = SpectatorDelay()
    qualifiers: Annotated[int, msgspec.Meta(ge=1, le=MAX_SEATS)] = 1


class NewPlayer(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
    kind: Literal["human", "bot"] = "human"
    bot: Annotated[
        Name | None,
        msgspec.Meta(
            description="The level of the bot that plays a bot entry: easy, medium (the default) "
            "or hard (`random`, its name before levels, plays easy); any other is refused "
            "`unknown_level`. A person's entry names none."
        ),
    ] = None
    player_id: Name | None = None


# -- answers: their OpenAPI schemas are generated from these ---------------------


class TournamentCreated(msgspec.Struct, kw_only=True):
    tournament_id: str
    organiser_token: str
    #: A retry with the same Idempotency-Key.
    duplicate: bool
    version: int
    #: The tournament's events as JSON, each tagged by 'type'.
    events: list[msgspec.Raw]


class PlayerRegistered(msgspec.Struct, kw_only=True):
    player_id: str
    player_token: str
    version: int


class TournamentAccepted(msgspec.Struct, kw_only=True):
    status: Literal["accepted"] = "accepted"
    command_id: str
    version: int
    duplicate: bool
    #: The command's events as JSON, each tagged by 'type'.
    events: list[msgspec.Raw]


class TournamentLog(msgspec.Struct, kw_only=True):
    tournament_id: str
    events: Annotated[
        list[Annotated[msgspec.Raw, stored(FeedEntry)]],
        msgspec.Meta(description="Every event of the tournament: {version, server_time, event}"),
    ]


class MyTable(msgspec.Struct, kw_only=True):
    """The null fields are null while the player has no table in the current round."""

    tournament_id: str
    player_id: str
    status: Literal["registering", "running", "finished"]
    round: int
    bye: bool
    table: int | None = None
    table_id: str | None = None
    seat: int | None = None
    seat_token: str | None = None
    over: bool | None = None


# -- organiser ----------------------------------------------------------------


class _Creation(Chosen):
    """What a tournament creation chose, kept under its idempotency key."""

    tournament_id: str
    token: str


async def create(request: Request) -> Response:
    made = await creation(request, NewTournament)
    gw, address, body = made.gw, made.address, made.body
    # Everything the request could be refused for is checked before the id is claimed.
    key = header_id(request, "idempotency-key")
    correlation_id(request)
    chosen = _Creation(body.tournament_id or "t" + uuid.uuid4().hex[:12], new_token(), asked=asked(body))
    _check_id(chosen.tournament_id, "tournament_id")
    first = await made.chosen("tournament", key, chosen)
    retried = first != chosen
    tid, token = first.tournament_id, first.token
    keys = tournament_keys(tid, gw.settings.partitions)
    claimed = await gw.redis.set(keys.auth, token_hash(token), nx=True)
    if not claimed and not (retried and await gw.redis.get(keys.auth) == token_hash(token).encode()):
        # The tournament's own rule code (422), as its decider would answer it.
        raise ApiError.refused(
            RuleViolation(tc.ALREADY_CREATED, f"Tournament {tid} already exists.", tournament_id=tid)
        )
    fields = msgspec.structs.asdict(body)
    fields["tournament_id"] = tid
    fields["game_options"] = _checked_game_options(body)
    command = Create(**fields)
    # One creation per tournament id: a retry under the key (only its caller's
    # reaches here, with the id it chose) is this command again.
    outcome = await _submit(gw, request, tid, command, f"create-{tid}")
    if outcome.status == "rejected":
        # Nothing was created: the id and the key are free again.
        await gw.redis.delete(keys.auth)
        await forget(gw, "tournament", address, key)
        return _rejection(outcome)
    out = TournamentCreated(
        tournament_id=tid,
        organiser_token=token,
        duplicate=outcome.duplicate,
        version=outcome.last,
        events=outcome.events,
    )
    return Response(encode(out), status_code=201, media_type="application/json")


def _checked_game_options(body: NewTournament) -> dict[str, Any]:
    """Every table size the tournament may seat opens with these options (a dry
    run, as for a table); the options travel on as the game reads them, so
    nothing the game does not know (however deep) reaches the platform process."""
    low = body.min_table_size if body.min_table_size is not None else body.seats_per_table
    options: dict[str, Any] = dict(body.game_options)
    for size in range(min(low, body.seats_per_table), body.seats_per_table + 1):
        options = checked_options(body.game, size, dict(body.game_options), body.clock)
    return options


class _Entry(Chosen):
    """What a registration chose (the player's id and token), kept under its key."""

    player_id: str
    token: str


async def register(request: Request) -> Response:
    gw: Gateway = request.app.state.gateway
    tid, keys, caller = await _organiser(gw, request)
    body = await read_json(request, NewPlayer, gw.settings.max_body_bytes)
    # Before the Idempotency-Key is remembered: a refused level leaves it free for the corrected entry.
    if body.bot is not None and body.bot not in (*levels.LEVELS, "random"):
        raise ApiError(
            "unknown_level",
            f"No bot level {body.bot!r}; the levels are {', '.join(levels.LEVELS)}.",
            levels=list(levels.LEVELS),
        )
    chosen = _Entry(body.player_id or "p" + uuid.uuid4().hex[:10], new_token(), asked=asked(body))
    _check_id(chosen.player_id, "player_id")
    command_id, key = keyed(request, caller)
    if key is not None:
        chosen = await remember(gw, route_of(request), caller, key, chosen)
    # Recorded as the level it plays at, so the standings and replays say it.
    bot = levels.level_of(body.bot) if body.kind == "bot" else body.bot
    command = Register(player_id=chosen.player_id, name=body.name, kind=body.kind, bot=bot)
    outcome = await _submit(gw, request, tid, command, command_id)
    if outcome.status == "rejected":
        await forget(gw, route_of(request), caller, key)
        return _rejection(outcome)
    # A retry sets the same token again: one token per entry.
    await gw.redis.hset(keys.players, token_hash(chosen.token), chosen.player_id)
    out = PlayerRegistered(player_id=chosen.player_id, player_token=chosen.token, version=outcome.last)
    return Response(encode(out), status_code=201, media_type="application/json")


async def withdraw(request: Request) -> Response:
    return await _simple(request, Withdraw(player_id=request.path_params["player_id"]))


async def start(request: Request) -> Response:
    return await _simple(request, Start())


async def pair_round(request: Request) -> Response:
    return await _simple(request, PairRound())


async def finish(request: Request) -> Response:
    return await _simple(request, Finish())


async def _simple(request: Request, command: Any) -> Response:
    gw: Gateway = request.app.state.gateway
    tid, _, caller = await _organiser(gw, request)
    command_id, key = keyed(request, caller)
    outcome = await _submit(gw, request, tid, command, command_id)
    if outcome.status == "rejected":
        return _rejection(outcome)
    out = TournamentAccepted(
        command_id=key or command_id,
        version=outcome.last,
        duplicate=outcome.duplicate,
        events=outcome.events,
    )
    return Response(encode(out), media_type="application/json")


async def _organiser(gw: Gateway, request: Request) -> tuple[str, TournamentKeys, str]:
    """The tournament, its keys and the organiser as a caller, once the request's
    token is the organiser's and the token and its address may still write."""
    tid = request.path_params["tournament_id"]
    keys = tournament_keys(tid, gw.settings.partitions)
    stored = await gw.redis.get(keys.auth)
    if stored is None:
        raise ApiError(UNKNOWN_TOURNAMENT, f"There is no tournament {tid}.")
    token = bearer(request)
    if token is None:
        raise ApiError("missing_token", "Send the organiser token as 'Authorization: Bearer <token>'.")
    address = client_address(request)
    gw.limits.check_tokens(address)
    hashed = token_hash(token)
    if not hmac.compare_digest(stored.decode(), hashed):
        gw.limits.bad_token(address)
        raise ApiError("bad_token", "This is not the organiser token of this tournament.")
    caller = organiser_caller(hashed)
    gw.limits.write(address, caller)
    return tid, keys, caller


async def _submit(gw: Gateway, request: Request, tid: str, command: Any, command_id: str) -> Outcome:
    """Send ``command`` under ``command_id`` (a platform id, or a caller's scoped key:
    :func:`services.gateway.writes.keyed`) and wait for its outcome."""
    request_id, future = gw.replies.expect()
    msg = TournamentMsg(
        tournament_id=tid,
        command_id=command_id,
        correlation_id=correlation_id(request),
        reply_to=gw.settings.node,
        request_id=request_id,
        received_ns=time.time_ns(),
        command=msgspec.Raw(msgspec.json.encode(command)),
    )
    try:
        await gw.commands.publish(msg)
        outcome = await asyncio.wait_for(future, timeout=gw.settings.reply_timeout_s)
    except TimeoutError as exc:
        raise ApiError(
            "outcome_unknown",
            "No outcome arrived in time; retry with the same Idempotency-Key to learn it.",
            command_id=header_id(request, "idempotency-key") or command_id,
        ) from exc
    finally:
        gw.replies.forget(request_id)
    metrics.COMMANDS.labels("gateway", "tournament", outcome.status).inc()
    if outcome.status == "rejected":
        metrics.REJECTIONS.labels("gateway", outcome.code).inc()
    return outcome


def _rejection(outcome: RejectedOutcome) -> Response:
    return error_response(outcome.code, outcome.message, outcome.details)


def _check_id(value: str, name: str) -> None:
    if not ID.match(value):
        raise ApiError(
            "bad_request",
            f"{name} must be 1 to 64 letters, digits, '-' or '_', starting with a letter or digit.",
        )


# -- public -------------------------------------------------------------------


async def _model(gw: Gateway, tid: str, name: str) -> bytes:
    keys = tournament_keys(tid, gw.settings.partitions)
    # The creator may ask before the first read model is written: wait briefly.
    for _ in range(20):
        raw = await gw.redis.get(keys.view(name))
        if raw is not None:
            return bytes(raw)
        if await gw.redis.get(keys.auth) is None:
            break
        await asyncio.sleep(_PAUSE_S)
    raise ApiError(UNKNOWN_TOURNAMENT, f"There is no tournament {tid}.")


async def standings(request: Request) -> Response:
    gw: Gateway = request.app.state.gateway
    anonymous_read(gw, request)
    doc = await _model(gw, request.path_params["tournament_id"], "standings")
    return Response(doc, media_type="application/json")


async def pairings(request: Request) -> Response:
    gw: Gateway = request.app.state.gateway
    anonymous_read(gw, request)
    doc = await _model(gw, request.path_params["tournament_id"], "pairings")
    return Response(doc, media_type="application/json")


def _entry(raw: bytes) -> tuple[int, bytes, str]:
    """(version, JSON ``{version, server_time, event}``, event type) of a stored event."""
    env = decode_envelope(raw)
    event = msgspec.msgpack.decode(env.payload)
    body = encode({"version": env.version, "server_time": env.server_time, "event": event})
    return env.version, body, str(event.get("type", ""))


async def log(request: Request) -> Response:
    """Every event of the tournament: anyone can recompute standings and ratings."""
    gw: Gateway = request.app.state.gateway
    anonymous_read(gw, request)
    tid = request.path_params["tournament_id"]
    await _model(gw, tid, "standings")
    rows = await gw.redis.xrange(tournament_keys(tid, gw.settings.partitions).events)
    entries = [msgspec.Raw(_entry(fields[b"e"])[1]) for _, fields in rows]
    return Response(encode(TournamentLog(tournament_id=tid, events=entries)), media_type="application/json")


async def feed(request: Request) -> FeedResponse:
    """Server-sent events: the tournament's events after the larger of ``?after=N``
    and the ``Last-Event-ID`` header (each event's id is its version), live."""
    gw: Gateway = request.app.state.gateway
    anonymous_read(gw, request)
    tid = request.path_params["tournament_id"]
    after = resume_after(request, int_param(request, "after", 0))
    await _model(gw, tid, "standings")
    keys = tournament_keys(tid, gw.settings.partitions)
    return FeedResponse(gw.feeds, TournamentFeed(gw, keys), after)


class TournamentFeed:
    """A tournament's own events, as the feed hub reads them."""

    def __init__(self, gw: Gateway, keys: TournamentKeys) -> None:
        self.gw = gw
        self.keys = keys
        self.key = (changes_key(keys.tournament_id), "tournament")
        self.label = "tournament"

    async def read(self, after: int, count: int) -> Page:
        stream = self.keys.events
        rows = await self.gw.batch.run(
            lambda pipe: pipe.xrange(stream, min=f"(0-{after}", max="+", count=count)
        )
        frames = []
        for _, fields in rows:
            version, body, kind = _entry(fields[b"e"])
            frames.append((version, b"id: %d\nevent: tournament-event\ndata: %s\n\n" % (version, body)))
            if kind == "tournament.finished":
                return Page(frames, more=False, finished=True)
        more = len(rows) >= count
        return Page(frames, more=more, finished=not rows and await _over(self.gw, self.keys, after))


async def _over(gw: Gateway, keys: TournamentKeys, delivered: int) -> bool:
    raw = await gw.batch.get(keys.view("standings"))
    if raw is None or _standings_status(raw).status != "finished":
        return False
    return delivered >= int(await gw.batch.get(keys.checkpoint) or 0)


# -- player -------------------------------------------------------------------


async def my_table(request: Request) -> Response:
    """The player's table in the current round, with their seat token."""
    gw: Gateway = request.app.state.gateway
    tid = request.path_params["tournament_id"]
    keys = tournament_keys(tid, gw.settings.partitions)
    doc = _pairings(await _model(gw, tid, "pairings"))
    token = bearer(request)
    if token is None:
        raise ApiError("missing_token", "Send your player token as 'Authorization: Bearer <token>'.")
    address = client_address(request)
    gw.limits.check_tokens(address)
    raw = await gw.redis.hget(keys.players, token_hash(token))
    if raw is None:
        gw.limits.bad_token(address)
        raise ApiError("bad_token", "This is not a player token of this tournament.")
    player_id = raw.decode()
    out = MyTable(
        tournament_id=tid,
        player_id=player_id,
        status=doc.status,
        round=doc.rounds[-1].number if doc.rounds else 0,
        bye=bool(doc.rounds) and player_id in doc.rounds[-1].byes,
    )
    table = next((t for t in doc.rounds[-1].tables if player_id in t.players), None) if doc.rounds else None
    if table is not None:
        seat = table.players.index(player_id)
        seat_token = None
        if table.game_id is not None:
            raw_token = await gw.redis.hget(keys.seat_tokens, f"{table.game_id}:{seat}")
            seat_token = raw_token.decode() if raw_token is not None else None
        out = msgspec.structs.replace(
            out,
            table=table.table,
            seat=seat,
            table_id=table.game_id,
            over=table.places is not None,
            seat_token=seat_token,
        )
    return Response(encode(out), media_type="application/json")


# -- a player account enters with its own key ---------------------------------------


class Joined(msgspec.Struct, kw_only=True):
    tournament_id: str
    player_id: str
    version: int
    #: The ladder rating (mu, sigma) the tournament's ratings start from; null for a newcomer.
    rating: tuple[float, float] | None


async def join_tournament(request: Request) -> Response:
    """A player account enters a tournament with its own key (nobody enters a player
    but the player), carrying its ladder rating in as the tournament's prior."""
    gw: Gateway = request.app.state.gateway
    tid = request.path_params["tournament_id"]
    if await gw.redis.get(tournament_keys(tid, gw.settings.partitions).auth) is None:
        raise ApiError(UNKNOWN_TOURNAMENT, f"There is no tournament {tid}.")
    player_id, _ = await authenticated_player(gw, request)
    caller = player_caller(player_id)
    gw.limits.write(client_address(request), caller)
    game = _standings_status(await _model(gw, tid, "standings")).game
    raw = await gw.redis.hget(player_ratings(player_id), game)
    rated = _decode_ladder(raw) if raw is not None else None
    prior = (rated.mu, rated.sigma) if rated is not None else None
    name = (await gw.redis.hget(player_doc(player_id), "name") or b"").decode() or player_id
    # Played through the bot API by its holder, never by the tournament's own bot runner.
    command = TournamentRegister(player_id=player_id, name=name, kind="human", account=True, rating=prior)
    command_id, _ = keyed(request, caller, f"join:{player_id}")
    outcome = await _submit(gw, request, tid, command, command_id)
    if outcome.status == "rejected":
        return _rejection(outcome)
    out = Joined(tournament_id=tid, player_id=player_id, version=outcome.last, rating=prior)
    return Response(encode(out), status_code=201, media_type="application/json")


# -- listing ------------------------------------------------------------------------


class TournamentSummary(msgspec.Struct, kw_only=True):
    tournament_id: str
    name: str
    game: str
    title: str
    format: str
    status: str
    round: int
    planned_rounds: int
    players: int
    created_at: int


class TournamentList(msgspec.Struct, kw_only=True):
    tournaments: list[TournamentSummary]


async def list_tournaments(request: Request) -> Response:
    """The newest tournaments with their state (names, game, round), from their standings."""
    gw: Gateway = request.app.state.gateway
    anonymous_read(gw, request)
    limit = listing_limit(request)
    rows = await gw.redis.zrevrange(TOURNAMENTS_INDEX, 0, limit - 1, withscores=True)
    ids = [member.decode() for member, _ in rows]
    async with gw.redis.pipeline(transaction=False) as pipe:
        for tid in ids:
            pipe.get(tournament_keys(tid, gw.settings.partitions).view("standings"))
        docs = await pipe.execute()
    out = []
    for tid, (_, created), raw in zip(ids, rows, docs, strict=True):
        if raw is None:
            continue
        doc = _standings_head(raw)
        out.append(
            TournamentSummary(
                tournament_id=tid,
                name=doc.name,
                game=doc.game,
                title=game_title(doc.game),
                format=doc.format,
                status=doc.status,
                round=doc.round,
                planned_rounds=doc.planned_rounds,
                players=len(doc.lines),
                created_at=int(created),
            )
        )
    return Response(encode(TournamentList(tournaments=out)), media_type="application/json")


# -- routes ---------------------------------------------------------------------------

_BASE = "/v1/tournaments/{tournament_id}"
#: Checked before any organiser command: the tournament, then the organiser token.
_ORGANISER = ("missing_token", "bad_token", UNKNOWN_TOURNAMENT, NOT_FOUND, "rate_limited")


def _organiser_route(
    tail: str,
    handler: Any,
    summary: str,
    *codes: str,
    body: type[msgspec.Struct] | None = None,
    created: type[msgspec.Struct] | None = None,
    parameters: tuple[dict[str, Any], ...] = (),
) -> Route:
    """An organiser command: the organiser token, its budgets, and the service's codes."""
    return Route(
        "POST",
        _BASE + tail,
        handler,
        summary=summary,
        description="Organiser only. " + WRITE_NOTE,
        parameters=[TOURNAMENT, IDEMPOTENCY, CORRELATION, *parameters],
        security=[{"organiserToken": []}],
        body=body,
        answers=[Answer(201, created, "Created") if created else Answer(200, TournamentAccepted, "Accepted")],
        codes=[
            *_ORGANISER,
            *TOURNAMENT_SERVICE,
            tc.FINISHED,
            *codes,
            *(("bad_json", "body_too_large") if body else ()),
        ],
    )


def _public_route(tail: str, handler: Any, summary: str, answer: Answer, *codes: str, **extra: Any) -> Route:
    """A public read of a tournament's read models."""
    return Route(
        "GET",
        _BASE + tail,
        handler,
        summary=summary,
        parameters=[TOURNAMENT, *extra.pop("parameters", [])],
        answers=[answer],
        codes=[UNKNOWN_TOURNAMENT, NOT_FOUND, STORE, *codes],
        **extra,
    )


routes = [
    Route(
        "POST",
        "/v1/tournaments",
        create,
        summary="Create a tournament; returns the organiser token",
        description="The platform process opens every table as a game and pairs "
        "rounds as results come in. Bad settings answer 422 invalid_settings. With an "
        "`Idempotency-Key`, a retry from the same client address gets the same tournament "
        "and token; the same key with another body is idempotency_key_reused.",
        parameters=[IDEMPOTENCY, CORRELATION],
        body=NewTournament,
        example={"game": "tigris", "name": "Open", "rounds": 3},
        answers=[Answer(201, TournamentCreated, "Created")],
        codes=[
            *TOURNAMENT_SERVICE,
            "bad_json",
            "body_too_large",
            "unknown_game",
            "bad_seat_count",
            "bad_options",
            "bad_clock",
            tc.INVALID_SETTINGS,
            tc.ALREADY_CREATED,
            "idempotency_key_reused",
            "rate_limited",
        ],
    ),
    Route(
        "GET",
        "/v1/tournaments",
        list_tournaments,
        summary="The newest tournaments with their state",
        description=READS_NOTE,
        parameters=[limit(MAX_LIST, 50)],
        answers=[Answer(200, TournamentList)],
        codes=["bad_request", "rate_limited", STORE],
    ),
    _organiser_route(
        "/players",
        register,
        "Register a player or a bot (at a level: easy, medium, hard); returns the player's token",
        "unknown_level",
        tc.ALREADY_REGISTERED,
        tc.ALREADY_STARTED,
        tc.INVALID_PLAYER,
        tc.FULL,
        "idempotency_key_reused",
        body=NewPlayer,
        created=PlayerRegistered,
    ),
    _organiser_route(
        "/players/{player_id}/withdraw",
        withdraw,
        "Withdraw a player from later rounds",
        tc.UNKNOWN_PLAYER,
        tc.ALREADY_WITHDRAWN,
        parameters=(path("player_id", SAFE_ID),),
    ),
    _organiser_route(
        "/start",
        start,
        "Close registration and start; the first round is paired and its tables opened",
        tc.ALREADY_STARTED,
        tc.NOT_ENOUGH_PLAYERS,
    ),
    _organiser_route(
        "/rounds",
        pair_round,
        "Pair the next round now (the service also pairs it as soon as a round is complete)",
        tc.NOT_STARTED,
        tc.ROUND_RUNNING,
        tc.NO_MORE_ROUNDS,
        tc.NOT_ENOUGH_PLAYERS,
    ),
    _organiser_route(
        "/finish",
        finish,
        "Finish the tournament (the service finishes it after the last round)",
        tc.NOT_STARTED,
        tc.ROUND_RUNNING,
    ),
    _public_route(
        "/standings",
        standings,
        "Standings with tie-breaks and OpenSkill ratings",
        Answer(200, StandingsView),
        "rate_limited",
    ),
    _public_route(
        "/pairings",
        pairings,
        "Every round's tables, their games and places",
        Answer(200, PairingsView),
        "rate_limited",
    ),
    _public_route(
        "/log",
        log,
        "Every event of the tournament, to recompute standings and ratings",
        Answer(200, TournamentLog),
        "rate_limited",
    ),
    _public_route(
        "/feed",
        feed,
        "Live feed (server-sent events) of the tournament's events",
        Answer(200, **sse("tournament-event", "the tournament is finished")),
        "bad_request",
        "rate_limited",
        parameters=[AFTER, LAST_EVENT_ID],
        description="Resumes after the larger of `after` and `Last-Event-ID`.",
    ),
    _public_route(
        "/me",
        my_table,
        "Your table in the current round and your seat token there",
        Answer(200, MyTable),
        "missing_token",
        "bad_token",
        "rate_limited",
        security=[{"playerToken": []}],
    ),
    Route(
        "POST",
        _BASE + "/join",
        join_tournament,
        summary="Enter a tournament as a player account, with its own key",
        description="Only the player itself enters: its ladder rating for the tournament's "
        "game is the prior its tournament ratings start from, and its results feed the ladder. " + WRITE_NOTE,
        parameters=[TOURNAMENT, IDEMPOTENCY, CORRELATION],
        security=PLAYER_KEY_AUTH,
        answers=[Answer(201, Joined, "Joined")],
        codes=[
            *PLAYER_KEY,
            *TOURNAMENT_SERVICE,
            UNKNOWN_TOURNAMENT,
            NOT_FOUND,
            tc.FINISHED,
            tc.ALREADY_REGISTERED,
            tc.ALREADY_STARTED,
            tc.INVALID_PLAYER,
            tc.FULL,
        ],
    ),
]
