"""A table as the lobby sees it: listings of live and finished tables, one
table's seat names, the fairness verdict of a finished game, and handing seats
to the platform process's bots.

These read what is already public (listings, seat names) or what a finished
game publishes (the fairness verdict); handing seats to the bots is for the
holder of those seats' tokens only.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Literal

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from services.gateway.apidoc import (
    FINISHED_READ,
    NOT_FOUND,
    READS_NOTE,
    REBUILDING,
    STORE,
    TABLE,
    WRITE_NOTE,
    limit,
)
from services.gateway.body import read_json
from services.gateway.context import Gateway, client_address
from services.gateway.delay import allowed
from services.gateway.errors import ApiError
from services.gateway.reads import (
    MAX_LIST,
    anonymous_read,
    game_title,
    history_entry,
    listing_limit,
    read_view,
)
from services.gateway.routing import Answer, Route
from shared.eventstore import game_index
from shared.eventstore.keys import PREFIX, GameKeys, live_tables, tag
from shared.games import registry
from shared.infra import wallclock
from shared.kernel import levels
from shared.kernel.auth import token_hash
from shared.kernel.bounds import MAX_SEATS
from shared.kernel.clocks import ClockSettings, SpectatorDelay
from shared.kernel.contract import Result
from shared.kernel.levels import Level
from shared.kernel.rng import commitment
from shared.messaging.messages import encode
from shared.readmodels.audit import AuditLog, verify_log
from shared.readmodels.build import HISTORY, SPECTATOR, ViewHead
from shared.tournaments import store as bot_store
from shared.tournaments.keys import TOURNAMENT_GAMES, bot_levels, bot_seats, tournament_keys
from shared.tournaments.views import PairingsHead, StandingsHead

#: Finished tables are found among this many newest tables at most.
SCAN_LIMIT = 2000
#: The bot seats of a table opened from the lobby are forgotten after this long.
BOT_SEATS_TTL_S = 7 * 24 * 3600


# -- tables ----------------------------------------------------------------------


#: A spectator view document as a listing shows it (never the view itself).
_doc = msgspec.json.Decoder(ViewHead).decode
_standings = msgspec.json.Decoder(StandingsHead).decode
_pairings = msgspec.json.Decoder(PairingsHead).decode


# -- answers: their OpenAPI schemas are generated from these ---------------------


class TableSummary(msgspec.Struct, kw_only=True):
    """A table as the lobby lists it: its public state as spectators see it, never the view."""

    table_id: str
    game: str
    title: str
    seats: int
    names: Annotated[list[str], msgspec.Meta(description="Seat names (a tournament's players)")]
    bots: Annotated[list[int], msgspec.Meta(description="The seats the bot runner plays")]
    bot_levels: Annotated[
        list[Level], msgspec.Meta(description="The level of each of `bots`' bot, in the same order")
    ]
    tournament_id: str | None
    opened_at: int
    version: int
    moves: int
    actors: tuple[int, ...]
    over: bool
    result: Result | None
    clock: ClockSettings | None
    remaining: tuple[int, ...]
    clock_since: int
    forfeited: tuple[int, ...]
    spectator_delay: SpectatorDelay | None


Listed = Literal["live", "finished"]
_LISTED: dict[str, Listed] = {"live": "live", "finished": "finished"}


class TableList(msgspec.Struct, kw_only=True):
    state: Listed
    tables: list[TableSummary]


class Verdict(msgspec.Struct, kw_only=True):
    """The finished game's audit log re-decided from its revealed seed."""

    table_id: str
    game: str
    fair: bool
    commitment: str
    seed: str
    seed_matches_commitment: bool
    commands: Annotated[int, msgspec.Meta(description="Commands re-decided")]
    events: Annotated[int, msgspec.Meta(description="Events checked")]
    problems: tuple[str, ...]


class BotsTaken(msgspec.Struct, kw_only=True):
    table_id: str
    bots: list[int]
    #: The level of each of ``bots``' bot, in the same order.
    levels: list[Level]


async def _summaries(gw: Gateway, found: list[tuple[GameKeys, float]]) -> list[TableSummary]:
    """What the lobby shows of each table: its public state, seat names, bot seats."""
    # The views from the read models' server, the bot seats from the store.
    async with gw.read.pipeline(transaction=False) as pipe:
        for keys, _ in found:
            pipe.get(keys.view(SPECTATOR))
        views = await pipe.execute()
    async with gw.redis.pipeline(transaction=False) as pipe:
        for keys, _ in found:
            pipe.hkeys(bot_seats(keys.game_id))
            pipe.hgetall(bot_levels(keys.game_id))
        replies = await pipe.execute()
    seated_bots = replies[0::2]
    named_levels = replies[1::2]
    owners = await gw.redis.hmget(TOURNAMENT_GAMES, [k.game_id for k, _ in found]) if found else []
    names = await _tournament_names(gw, {o.decode() for o in owners if o is not None})
    out = []
    for i, (keys, opened) in enumerate(found):
        raw, bots = views[i], sorted(int(b) for b in seated_bots[i])
        level_of = {int(seat): level.decode() for seat, level in named_levels[i].items()}
        if raw is None:  # opened, not projected yet
            continue
        doc = _doc(raw)
        if doc.spectator_delay is not None and not doc.over:
            doc = _doc(await _delayed(gw, keys, doc, raw))
        tid = owners[i].decode() if owners[i] is not None else None
        seated = names.get(tid, {}).get(keys.game_id) if tid else None
        out.append(
            TableSummary(
                table_id=keys.game_id,
                game=doc.game,
                title=game_title(doc.game),
                seats=doc.seats,
                names=seated or [f"Seat {s + 1}" for s in range(doc.seats)],
                bots=bots,
                bot_levels=[levels.level_of(level_of.get(s)) for s in bots],
                tournament_id=tid,
                opened_at=int(opened),
                version=doc.version,
                moves=doc.moves,
                actors=doc.actors,
                over=doc.over,
                result=doc.result,
                clock=doc.clock,
                remaining=doc.remaining,
                clock_since=doc.clock_since,
                forfeited=doc.forfeited,
                spectator_delay=doc.spectator_delay,
            )
        )
    return out


#: Pages of the history read for a delayed table: the snapshot shown is usually a
#: few entries back, and the table page looks no further than 256 back either.
_PAGES = (8, 248)


async def _delayed(gw: Gateway, keys: GameKeys, live: ViewHead, raw: bytes) -> bytes:
    """A delayed table as its spectators see it (the rule of ``reads.spectator_doc``),
    reading its history newest first in small pages rather than 256 views at once."""
    assert live.spectator_delay is not None
    now_ms = wallclock.now_ms()
    upper = "+"
    for count in _PAGES:
        rows = await gw.read.xrevrange(keys.audience_feed(HISTORY), max=upper, count=count)
        for _, fields in rows:
            entry = history_entry(fields[b"e"])
            if allowed(live.spectator_delay, live.moves, now_ms, entry.moves, entry.at):
                return bytes(entry.doc)
        if len(rows) < count:
            break
        upper = "(" + rows[-1][0].decode()
    first = await gw.read.xrange(keys.audience_feed(HISTORY), count=1)
    return bytes(history_entry(first[0][1][b"e"]).doc) if first else raw


async def _tournament_names(gw: Gateway, tids: set[str]) -> dict[str, dict[str, list[str]]]:
    """tournament id -> table id -> the display names of its seats."""
    ordered = sorted(tids)
    if not ordered:
        return {}
    async with gw.redis.pipeline(transaction=False) as pipe:
        for tid in ordered:
            keys = tournament_keys(tid, gw.settings.partitions)
            pipe.get(keys.view("standings"))
            pipe.get(keys.view("pairings"))
        replies = await pipe.execute()
    out: dict[str, dict[str, list[str]]] = {}
    for i, tid in enumerate(ordered):
        standings, pairings = replies[2 * i], replies[2 * i + 1]
        if standings is None or pairings is None:
            continue
        named = {r.line.player_id: r.line.name for r in _standings(standings).lines}
        out[tid] = {
            t.game_id: [named.get(p, p) for p in t.players]
            for r in _pairings(pairings).rounds
            for t in r.tables
            if t.game_id is not None
        }
    return out


async def list_tables(request: Request) -> Response:
    """Live tables (newest first, from the projector's live sets) or finished ones
    (from the newest tables of the games index)."""
    gw: Gateway = request.app.state.gateway
    anonymous_read(gw, request)
    state = _LISTED.get(request.query_params.get("state", "live"))
    if state is None:
        raise ApiError(
            "bad_request", "Query parameter 'state' must be 'live' or 'finished'.", parameter="state"
        )
    limit = listing_limit(request)
    game = request.query_params.get("game")
    games = registry.available()
    if game is not None:
        if game not in games:
            raise ApiError("unknown_game", f"No game called {game!r}.", available=games)
        games = [game]
    if state == "live":
        found = await _live(gw, games)
    else:
        found = await _finished(gw, games, limit)
    found.sort(key=lambda item: -item[1])
    tables = await _summaries(gw, found[:limit])
    tables = [t for t in tables if t.over == (state == "finished")]
    return Response(encode(TableList(state=state, tables=tables)), media_type="application/json")


async def _live(gw: Gateway, games: list[str]) -> list[tuple[GameKeys, float]]:
    partitions = range(gw.settings.partitions)
    async with gw.read.pipeline(transaction=False) as pipe:
        for p in partitions:
            for game in games:
                pipe.smembers(live_tables(p, game))
        replies = iter(await pipe.execute())
    members = [GameKeys(m.decode(), p) for p in partitions for _ in games for m in next(replies)]
    scores = await game_index.opened_at(gw.redis, members)
    return [(keys, score or 0.0) for keys, score in zip(members, scores, strict=True)]


async def _finished(gw: Gateway, games: list[str], limit: int) -> list[tuple[GameKeys, float]]:
    """The newest tables that are not live: only those views are read (while a
    benchmark runs, the newest thousands of tables may all be live)."""
    live = {keys.game_id for keys, _ in await _live(gw, registry.available())}
    found: list[tuple[GameKeys, float]] = []
    wanted = set(games)
    scanned = 0
    async for rows in game_index.newest(gw.redis, gw.settings.partitions, max(4 * limit, 100)):
        if len(found) >= limit or scanned >= SCAN_LIMIT:
            break
        scanned += len(rows)
        candidates = [(k, score) for k, score in rows if k.game_id not in live]
        if not candidates:
            continue
        async with gw.read.pipeline(transaction=False) as pipe:
            for k, _ in candidates:
                pipe.get(k.view(SPECTATOR))
            docs = await pipe.execute()
        for (k, score), raw in zip(candidates, docs, strict=True):
            if raw is not None and (doc := _doc(raw)).over and doc.game in wanted:
                found.append((k, score))
    return found


async def about(request: Request) -> Response:
    """One table as the lobby lists it: seat names (a tournament's players), bot seats."""
    gw: Gateway = request.app.state.gateway
    anonymous_read(gw, request)
    keys = gw.keys(request.path_params["table_id"])
    await read_view(gw, keys, SPECTATOR)
    (opened,) = await game_index.opened_at(gw.redis, [keys])
    found = await _summaries(gw, [(keys, opened or 0.0)])
    if not found:
        raise ApiError("unknown_table", f"There is no table {keys.game_id}.")
    return Response(encode(found[0]), media_type="application/json")


# -- fairness --------------------------------------------------------------------

#: Re-deciding a long game costs a second of CPU: one at a time per gateway.
_VERIFYING = asyncio.Semaphore(1)


def _verdict_key(keys: GameKeys) -> str:
    return f"{PREFIX}:{tag(keys.partition)}:game:{keys.game_id}:verdict"


async def verify(request: Request) -> Response:
    """``ziggurat verify`` on the server: the finished game's audit log re-decided from
    its revealed seed. A finished game never changes, so its verdict is kept."""
    gw: Gateway = request.app.state.gateway
    anonymous_read(gw, request)
    keys = gw.keys(request.path_params["table_id"])
    doc = _doc(await read_view(gw, keys, SPECTATOR))
    if not doc.over:
        raise ApiError(
            "game_not_over", "The fairness check opens when the game is over and its seed is revealed."
        )
    cached = await gw.redis.get(_verdict_key(keys))
    if cached is not None:
        return Response(cached, media_type="application/json")
    log = AuditLog(events=await gw.store.read(keys), commands=await gw.store.commands(keys))
    async with _VERIFYING:
        game, verdict = await asyncio.to_thread(verify_log, log)
    seed_ok = bool(doc.seed) and commitment(bytes.fromhex(doc.seed)) == doc.commitment
    body = encode(
        Verdict(
            table_id=keys.game_id,
            game=game,
            fair=verdict.fair,
            commitment=doc.commitment,
            seed=doc.seed,
            seed_matches_commitment=seed_ok,
            commands=verdict.commands,
            events=verdict.events,
            problems=verdict.problems,
        )
    )
    await gw.redis.set(_verdict_key(keys), body)
    return Response(body, media_type="application/json")


# -- bots ------------------------------------------------------------------------

SeatToken = Annotated[str, msgspec.Meta(min_length=1, max_length=128)]


class BotSeats(msgspec.Struct, forbid_unknown_fields=True):
    #: The tokens of the seats the bots take over.
    tokens: Annotated[list[SeatToken], msgspec.Meta(min_length=1, max_length=MAX_SEATS)]
    levels: Annotated[
        list[Level],
        msgspec.Meta(
            max_length=MAX_SEATS,
            description="The level of each seat's bot, in the order of `tokens` "
            f"(none given: every bot plays {levels.DEFAULT})",
        ),
    ] = []


async def add_bots(request: Request) -> Response:
    """Hand seats to the platform process's bot runner, which plays them through
    this API like any client, whether or not the page that asked stays open.
    Only the holder of a seat's token can give it away."""
    gw: Gateway = request.app.state.gateway
    keys = gw.keys(request.path_params["table_id"])
    body = await read_json(request, BotSeats, gw.settings.max_body_bytes)
    if body.levels and len(body.levels) != len(body.tokens):
        raise ApiError(
            "bad_request",
            f"Give one level per token ({len(body.tokens)}), or none for {levels.DEFAULT} bots.",
            parameter="levels",
        )
    address = client_address(request)
    gw.limits.check_tokens(address)
    seats: dict[int, tuple[str, Level]] = {}
    for i, token in enumerate(body.tokens):
        seat = await gw.seat_of(keys.game_id, token_hash(token))
        if seat is None:
            gw.limits.bad_token(address)
            raise ApiError("bad_token", "One of these tokens does not belong to a seat at this table.")
        seats[seat] = (token, body.levels[i] if body.levels else levels.DEFAULT)
    gw.limits.write(address, f"seat:{token_hash(body.tokens[0])}")
    await read_view(gw, keys, SPECTATOR)
    await bot_store.hand_over_bots(gw.redis, keys.game_id, seats, BOT_SEATS_TTL_S)
    out = BotsTaken(
        table_id=keys.game_id,
        bots=sorted(seats),
        levels=[level for _, (_, level) in sorted(seats.items())],
    )
    return Response(encode(out), media_type="application/json")


routes = [
    Route(
        "GET",
        "/v1/tables",
        list_tables,
        summary="Live tables (newest first) or finished ones, as the lobby lists them",
        description=READS_NOTE,
        parameters=[
            {"name": "state", "in": "query", "schema": {"enum": ["live", "finished"], "default": "live"}},
            limit(MAX_LIST, 50),
            {"name": "game", "in": "query", "description": "Only this game's", "schema": {"type": "string"}},
        ],
        answers=[Answer(200, TableList)],
        codes=["bad_request", "unknown_game", "rate_limited", STORE],
    ),
    Route(
        "GET",
        "/v1/tables/{table_id}/about",
        about,
        summary="One table as the lobby lists it: seat names, bot seats, public state",
        description=READS_NOTE,
        parameters=[TABLE],
        answers=[Answer(200, TableSummary)],
        codes=["unknown_table", NOT_FOUND, "rate_limited", STORE, REBUILDING],
    ),
    Route(
        "GET",
        "/v1/tables/{table_id}/verify",
        verify,
        summary="Whether a finished game was fair: its audit log re-decided from its seed",
        description=READS_NOTE,
        parameters=[TABLE],
        answers=[Answer(200, Verdict)],
        codes=FINISHED_READ,
    ),
    Route(
        "POST",
        "/v1/tables/{table_id}/bots",
        add_bots,
        summary="Hand seats to the bot runner, which plays them through this API, each at its level",
        description="Only the holder of a seat's token can give it away. Each bot plays at the "
        "level given for its seat (`easy`: random moves; `medium`: the game's one-move greedy "
        "bot; `hard`: a search over the states its seat could be in), `medium` if none is given; "
        "a level that is none of these is refused `unknown_level`. " + WRITE_NOTE,
        parameters=[TABLE],
        body=BotSeats,
        answers=[Answer(200, BotsTaken)],
        codes=[
            "bad_json",
            "bad_request",
            "unknown_level",
            "body_too_large",
            "bad_token",
            "unknown_table",
            NOT_FOUND,
            "rate_limited",
            STORE,
            REBUILDING,
        ],
    ),
]
