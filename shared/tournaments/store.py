"""The tournaments' store adapter: tournament streams, run by the one host of
platform aggregates (the writer, services/platform/writer.py, holds their
states and answers), and the seats handed to the bot runner. Its keys are in
:mod:`shared.tournaments.keys`.

The bot seats: whoever seats our bots (a tournament's process manager, a
casual table's opening, the lobby's "open a table against bots") writes them
here, and the bot runner (services/platform/bots.py) reads them: each seat's
token, which it plays with through the public API like any client, and the
level its bot plays at (shared/kernel/levels.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from shared.eventstore.aggregates import Aggregate
from shared.kernel import levels
from shared.kernel.levels import Level
from shared.tournaments.decide import DECIDER
from shared.tournaments.events import TournamentEventUnion
from shared.tournaments.keys import BOT_TABLES, bot_levels, bot_seats
from shared.tournaments.state import TournamentState

decode_event = msgspec.msgpack.Decoder(TournamentEventUnion).decode  # type: ignore[arg-type]
TOURNAMENTS: Aggregate[TournamentState, TournamentEventUnion] = Aggregate(DECIDER, decode_event, "tournament")


def queue_bots(
    pipe: Any, game_id: str, seats: Mapping[int, tuple[str, Level]], ttl_s: int | None = None
) -> None:
    """Queue on ``pipe`` the writes that hand ``seats`` (seat -> (token, level)) to the runner."""
    pipe.hset(bot_seats(game_id), mapping={s: token for s, (token, _) in seats.items()})
    pipe.hset(bot_levels(game_id), mapping={s: level for s, (_, level) in seats.items()})
    if ttl_s is not None:
        pipe.expire(bot_seats(game_id), ttl_s)
        pipe.expire(bot_levels(game_id), ttl_s)
    pipe.sadd(BOT_TABLES, game_id)


async def hand_over_bots(
    redis: Any, game_id: str, seats: Mapping[int, tuple[str, Level]], ttl_s: int | None = None
) -> None:
    async with redis.pipeline(transaction=True) as pipe:
        queue_bots(pipe, game_id, seats, ttl_s)
        await pipe.execute()


def forget_bots(pipe: Any, game_id: str) -> None:
    """Queue the writes that take a finished table's seats back from the runner."""
    pipe.srem(BOT_TABLES, game_id)
    pipe.delete(bot_seats(game_id), bot_levels(game_id))


async def bots_of(redis: Any, game_id: str) -> dict[int, tuple[str, Level]]:
    """seat -> (token, level) of ``game_id``'s bot seats; a seat seated before
    levels existed plays at the default level."""
    async with redis.pipeline(transaction=False) as pipe:
        pipe.hgetall(bot_seats(game_id))
        pipe.hgetall(bot_levels(game_id))
        tokens, named = await pipe.execute()
    return {
        int(seat): (token.decode(), levels.level_of((named.get(seat) or b"").decode() or None))
        for seat, token in tokens.items()
    }
