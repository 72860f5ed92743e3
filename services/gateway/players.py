"""Player accounts and ladders (a player joins a tournament through :mod:`services.gateway.tournaments`).

A player registers once (``POST /v1/players``) and gets a player id and a
player key; only the key's hash is kept. The account is an event-sourced
aggregate of its own (``shared/players``): this module decides with its pure
rules and appends to the player's stream with the expected version, as the
store does for every aggregate, then rewrites the account's read model and
key index (:mod:`shared.players.store`). Registration and rotation
are rare and touch one stream each, so no service of their own sits between
(concurrent gateways are safe: the expected version refuses a stale writer).

A player key acts only for its own player: it resolves server-side to the
seat tokens of the tables that player sits at
(:func:`services.gateway.callers.seat_token_hash`). What it sends with an
Idempotency-Key is the player's own (:func:`services.gateway.writes.player_caller`),
and each write it makes counts against the player's writes budget and its
client address's.
"""

from __future__ import annotations

import hmac
import uuid

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
from services.gateway.body import bearer, header_id
from services.gateway.callers import KEY_PREFIX, authenticated_player
from services.gateway.context import Gateway, client_address
from services.gateway.credentials import ended
from services.gateway.decisions import creation, decided
from services.gateway.errors import ApiError
from services.gateway.reads import anonymous_read
from services.gateway.routing import Answer, Route
from services.gateway.writes import (
    Chosen,
    asked,
    forget,
    player_caller,
    remember,
    remembered_key,
)
from shared.eventstore.aggregates import Decided
from shared.games import registry
from shared.infra.wallclock import now_ms
from shared.kernel.auth import new_token, token_hash
from shared.kernel.bounds import Name
from shared.ladders.keys import ladder_board
from shared.ladders.ladder import PROVISIONAL_GAMES, LadderView, PlayerLadder
from shared.messaging.messages import encode
from shared.players import codes as pc
from shared.players.commands import DisplayName, PlayerCommandUnion, Register, RotateKey
from shared.players.decide import PLAYER_ID, decide
from shared.players.events import PlayerEventUnion
from shared.players.keys import player_doc, player_games, player_keys, player_ratings, player_tables
from shared.players.state import PlayerState
from shared.players.store import ACCOUNTS, decode_seat, publish_player

_decode_ladder = msgspec.json.Decoder(PlayerLadder).decode


def new_player_key() -> str:
    return KEY_PREFIX + new_token()


# -- request and answer types (the OpenAPI document is generated from them) ----------


class NewAccount(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    name: DisplayName
    #: A program plays this account through the bot API.
    bot: bool = False
    #: Who runs the bot (bots only).
    operator: Name | None = None


class PlayerKeyIssued(msgspec.Struct, kw_only=True):
    """A player key: shown once, here; the platform keeps only its hash."""

    player_id: str
    player_key: str
    version: int
    duplicate: bool = False


class TableRef(msgspec.Struct, kw_only=True):
    """A table a player sits (or sat) at."""

    table_id: str
    game: str
    seat: int
    source: str


class PlayerPage(msgspec.Struct, kw_only=True):
    """A player's public page: ratings per game with their history, and tables."""

    player_id: str
    name: str
    bot: bool
    operator: str | None
    registered_at: int
    #: One per game the player has rated results in; each with its rating history.
    ladders: list[PlayerLadder]
    #: Tables being played now.
    tables: list[TableRef]
    #: Finished tables, newest first.
    games: list[TableRef]


# -- the aggregate ------------------------------------------------------------------


async def _execute(
    gw: Gateway, player_id: str, command: PlayerCommandUnion, command_id: str
) -> tuple[int, PlayerState, bool]:
    """Decide and append; (version, state, duplicate). The read model and the key index
    follow, by the host's projection, before this returns (again on a repeat, which
    repairs a lost write)."""
    keys = player_keys(player_id, gw.settings.partitions)
    old: list[str | None] = [None]

    def rules(state: PlayerState | None) -> list[PlayerEventUnion]:
        old[0] = state.key_hash if state is not None else None
        return decide(state, command)

    async def project(done: Decided[PlayerState, PlayerEventUnion]) -> None:
        assert done.state is not None  # the host projects only an answer with a state
        # A repeat decided nothing, so it knows no replaced key; one left in the index
        # counts for nothing (a key counts only while the account's read model names it).
        await publish_player(gw.redis, done.state, done.version, None if done.duplicate else old[0])

    busy = "The player account is changing too fast; retry."
    return await decided(gw, ACCOUNTS, keys, rules, command_id, busy, project)


# -- routes -------------------------------------------------------------------------


class _Registration(Chosen):
    """What a registration chose, kept under its idempotency key."""

    player_id: str
    key: str


async def register(request: Request) -> Response:
    """Register a player account; the answer holds its key (shown only here)."""
    made = await creation(request, NewAccount)
    body = made.body
    key = header_id(request, "idempotency-key")
    fresh = _Registration("pl" + uuid.uuid4().hex[:16], new_player_key(), asked=asked(body))
    chosen = await made.chosen("player", key, fresh)
    command = Register(
        player_id=chosen.player_id,
        name=body.name,
        bot=body.bot,
        operator=body.operator,
        key_hash=token_hash(chosen.key),
        at_ms=now_ms(),
    )
    try:
        version, _, duplicate = await _execute(made.gw, chosen.player_id, command, "register")
    except ApiError as exc:
        if exc.code != "busy":  # refused: nothing was registered under the key
            await forget(made.gw, "player", made.address, key)
        raise
    out = PlayerKeyIssued(
        player_id=chosen.player_id, player_key=chosen.key, version=version, duplicate=duplicate
    )
    return Response(encode(out), status_code=201, media_type="application/json")


class _Rotation(Chosen):
    """What a key rotation chose, kept under its idempotency key (``asked``: the
    hash of the key it replaced, so the key rotates one key once)."""

    player_id: str
    key: str
    old_hash: str


async def rotate_key(request: Request) -> Response:
    """Replace the player's key: the old one stops working before this answers."""
    gw: Gateway = request.app.state.gateway
    path_id = _player_id(request)
    address = client_address(request)
    key = header_id(request, "idempotency-key")
    try:
        player_id, hashed = await authenticated_player(gw, request)
    except ApiError as exc:
        replay = await _replayed_rotation(gw, key, path_id, request) if exc.code == "bad_token" else None
        if replay is None:
            raise
        return replay
    if player_id != path_id:
        gw.limits.bad_token(address)
        raise ApiError("bad_token", "This key belongs to another player.")
    gw.limits.write(address, player_caller(player_id))
    chosen = _Rotation(player_id, new_player_key(), hashed, asked=hashed)
    if key is not None:
        chosen = await remember(gw, "player-key", player_caller(player_id), key, chosen)
    command = RotateKey(key_hash=token_hash(chosen.key), at_ms=now_ms())
    version, _, _ = await _execute(gw, player_id, command, f"rotate:{hashed}")
    # The old key's open play connections and bot streams end on every gateway now.
    await ended(gw.redis, [hashed])
    out = PlayerKeyIssued(player_id=player_id, player_key=chosen.key, version=version)
    return Response(encode(out), media_type="application/json")


async def _replayed_rotation(
    gw: Gateway, key: str | None, player_id: str, request: Request
) -> Response | None:
    """A retry of a rotation that went through: its old key no longer works, but the
    same player with the same Idempotency-Key and that old key learns the new one."""
    token = bearer(request)
    if key is None or token is None:
        return None
    raw = await gw.redis.get(remembered_key("player-key", player_caller(player_id), key))
    if raw is None:
        return None
    first = msgspec.json.decode(raw, type=_Rotation)
    current = await gw.redis.hget(player_doc(player_id), "key_hash")
    if (
        first.player_id != player_id
        or not hmac.compare_digest(first.old_hash, token_hash(token))
        or current is None
        or current.decode() != token_hash(first.key)
    ):
        return None
    version = int(await gw.redis.hget(player_doc(player_id), "version") or 0)
    out = PlayerKeyIssued(player_id=player_id, player_key=first.key, version=version, duplicate=True)
    return Response(encode(out), media_type="application/json")


def _player_id(request: Request) -> str:
    player_id: str = request.path_params["player_id"]
    if not PLAYER_ID.match(player_id):
        raise ApiError("not_found", f"There is no player {player_id}.")
    return player_id


async def player_page(request: Request) -> Response:
    """A player's public page: ratings and their history per game, current and past tables."""
    gw: Gateway = request.app.state.gateway
    anonymous_read(gw, request)
    player_id = _player_id(request)
    async with gw.redis.pipeline(transaction=False) as pipe:
        pipe.hgetall(player_doc(player_id))
        pipe.hgetall(player_ratings(player_id))
        pipe.hgetall(player_tables(player_id))
        pipe.lrange(player_games(player_id), 0, -1)
        doc, ratings, live, done = await pipe.execute()
    if not doc:
        raise ApiError("not_found", f"There is no player {player_id}.")
    out = PlayerPage(
        player_id=player_id,
        name=doc[b"name"].decode(),
        bot=doc[b"bot"] == b"1",
        operator=doc[b"operator"].decode() or None,
        registered_at=int(doc[b"registered_at"]),
        ladders=[_decode_ladder(raw) for _, raw in sorted(ratings.items())],
        tables=[_ref(raw) for _, raw in sorted(live.items())],
        games=[_ref(raw) for raw in done],
    )
    return Response(encode(out), media_type="application/json")


def _ref(raw: bytes) -> TableRef:
    s = decode_seat(raw)
    return TableRef(table_id=s.table_id, game=s.game, seat=s.seat, source=s.source)


async def ladder(request: Request) -> Response:
    """A game's leaderboard, best first; provisional players are marked."""
    gw: Gateway = request.app.state.gateway
    anonymous_read(gw, request)
    game = request.path_params["game"]
    if game not in registry.available():
        raise ApiError("unknown_game", f"No game called {game!r}.", available=registry.available())
    raw = await gw.redis.get(ladder_board(game))
    if raw is None:
        raw = encode(LadderView(game=game, provisional_below=PROVISIONAL_GAMES, tables=0, lines=()))
    return Response(raw, media_type="application/json")


_PLAYER = path("player_id", PLAYER_ID.pattern)

routes = [
    Route(
        "POST",
        "/v1/players",
        register,
        summary="Register a player account (a person or a bot); returns its player key, once",
        description="Only the key's hash is kept. With an `Idempotency-Key`, a retry from the "
        "same client address gets the same player and key; the same key with another body is "
        "idempotency_key_reused. Rate limited: " + RATE_LIMIT_NOTE["opens"] + ".",
        parameters=[IDEMPOTENCY],
        body=NewAccount,
        example={"name": "My bot", "bot": True, "operator": "me"},
        answers=[Answer(201, PlayerKeyIssued, "Registered")],
        codes=[
            "bad_json",
            "bad_request",
            "bad_header",
            "body_too_large",
            "rate_limited",
            "busy",
            STORE,
            "idempotency_key_reused",
            pc.INVALID_PLAYER,
            pc.ALREADY_REGISTERED,
        ],
    ),
    Route(
        "GET",
        "/v1/players/{player_id}",
        player_page,
        summary="A player's page: ratings and their history per game, current and finished tables",
        description=READS_NOTE,
        parameters=[_PLAYER],
        answers=[Answer(200, PlayerPage)],
        codes=[NOT_FOUND, "rate_limited", STORE],
    ),
    Route(
        "POST",
        "/v1/players/{player_id}/key",
        rotate_key,
        summary="Rotate the player key: the old key stops working before this answers",
        description="Authorised by the current key. A retry with the same `Idempotency-Key` "
        "and the old key learns the same new key. " + WRITE_NOTE,
        parameters=[_PLAYER, IDEMPOTENCY],
        security=PLAYER_KEY_AUTH,
        answers=[Answer(200, PlayerKeyIssued)],
        codes=[
            *PLAYER_KEY,
            NOT_FOUND,
            "bad_header",
            "idempotency_key_reused",
            "busy",
            pc.SAME_KEY,
            pc.NO_PLAYER,
        ],
    ),
    Route(
        "GET",
        "/v1/ladders/{game}",
        ladder,
        summary="A game's rating ladder (OpenSkill), best first; provisional players marked",
        description="Every rated tournament table moves its registered players' ratings "
        "once. A player with fewer rated games than `provisional_below` is provisional. " + READS_NOTE,
        parameters=[path("game", "^[a-z0-9][a-z0-9_-]{0,63}$", "A game key (GET /v1/games)")],
        answers=[Answer(200, LadderView)],
        codes=["unknown_game", NOT_FOUND, "rate_limited", STORE],
    ),
]
