"""Who is asking: the player a player key belongs to, the seat a token holds.

A player key (``zpk_...``) may stand for the player's own seat at a table (the
bot API): :func:`seat_token_hash` resolves it to that seat's token hash.
"""

from __future__ import annotations

from starlette.requests import Request

from services.gateway.body import bearer
from services.gateway.context import Gateway, client_address
from services.gateway.errors import ApiError
from shared.kernel.auth import token_hash
from shared.players.store import player_of_key, seat

#: Player keys start with this, so the command route tells them from seat tokens.
KEY_PREFIX = "zpk_"


async def authenticated_player(gw: Gateway, request: Request) -> tuple[str, str]:
    """(player id, key hash) of the request's player key."""
    token = bearer(request)
    if token is None:
        raise ApiError("missing_token", "Send your player key as 'Authorization: Bearer <key>'.")
    address = client_address(request)
    gw.limits.check_tokens(address)
    hashed = token_hash(token)
    player_id = await player_of_key(gw.redis, hashed) if token.startswith(KEY_PREFIX) else None
    if player_id is None:
        gw.limits.bad_token(address)
        raise ApiError("bad_token", "This is not a current player key.")
    return player_id, hashed


async def seat_token_hash(gw: Gateway, table_id: str, token: str) -> str:
    """The token hash the table knows: a seat token's own; for a player key, the hash
    of that player's seat token at this table (a key never reaches another player's
    seat: without a seat of its own here it matches none, and the validator refuses it)."""
    return (await seat_token_of(gw, table_id, token))[0]


async def seat_token_of(gw: Gateway, table_id: str, token: str) -> tuple[str, str | None]:
    """:func:`seat_token_hash`, and the player whose current key ``token`` is when it
    resolved to that player's seat here (None for a seat token, or a key that did not)."""
    hashed = token_hash(token)
    if not token.startswith(KEY_PREFIX):
        return hashed, None
    player_id = await player_of_key(gw.redis, hashed)
    mine = await seat(gw.redis, player_id, table_id) if player_id is not None else None
    return (token_hash(mine.token), player_id) if mine is not None else (hashed, None)
