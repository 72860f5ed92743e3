"""The player accounts' store adapter, shared by the gateway (registration, the
bot API) and the platform process (seating, turns).

Player streams are run by the one host of platform aggregates (:data:`ACCOUNTS`);
:func:`publish_player` then rewrites the account's read model and its entry in
the key index. Its keys are in :mod:`shared.players.keys`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from shared.eventstore.aggregates import Aggregate
from shared.eventstore.keys import CHANGES_CHANNEL
from shared.infra.lua import LuaScript
from shared.infra.redis_client import Publisher
from shared.players.decide import DECIDER
from shared.players.events import PlayerEventUnion
from shared.players.keys import (
    KEY_INDEX,
    PLAYERS_INDEX,
    SEATED,
    inbox,
    inbox_counter,
    notice_id,
    player_doc,
    player_games,
    player_tables,
)
from shared.players.seats import Seat, Turn
from shared.players.state import PlayerState

#: A player's inbox keeps about this many turns (a bot further behind starts afresh).
INBOX_MAXLEN = 10_000
#: Finished tables listed on a player's page.
GAMES_KEPT = 200
_encode = msgspec.json.Encoder().encode
decode_seat = msgspec.json.Decoder(Seat).decode
#: Player streams: the one :class:`Aggregate` of player accounts.
ACCOUNTS: Aggregate[PlayerState, PlayerEventUnion] = Aggregate(
    DECIDER, msgspec.msgpack.Decoder(PlayerEventUnion).decode, "player"
)

# The next number and the entry in one step, so two writers never reuse an id.
_APPEND_TURN = LuaScript(
    """
local n = redis.call("INCR", KEYS[2])
redis.call("XADD", KEYS[1], "MAXLEN", "~", ARGV[4], "0-" .. n, "t", ARGV[1], "s", ARGV[2], "v", ARGV[3])
return n
"""
)


async def publish_player(redis: Any, state: PlayerState, version: int, old_key_hash: str | None) -> None:
    """The account's read model and key index, as of ``version`` (the old key stops working)."""
    async with redis.pipeline(transaction=True) as pipe:
        pipe.hset(
            player_doc(state.player_id),
            mapping={
                "name": state.name,
                "bot": int(state.bot),
                "operator": state.operator or "",
                "key_hash": state.key_hash,
                "registered_at": state.registered_at,
                "version": version,
            },
        )
        pipe.hset(KEY_INDEX, state.key_hash, state.player_id)
        if old_key_hash is not None and old_key_hash != state.key_hash:
            pipe.hdel(KEY_INDEX, old_key_hash)
        pipe.zadd(PLAYERS_INDEX, {state.player_id: state.registered_at}, nx=True)
        await pipe.execute()


async def announce(redis: Any, player_ids: Iterable[str], number: int = 0) -> None:
    """A change notice for these players' bot streams (their channels read at once)."""
    await publish_notices(redis, [notice_id(p) for p in player_ids], number)


async def publish_notices(redis: Any, ids: Iterable[str], number: int = 0) -> None:
    """One change notice naming ``ids`` (a line ``<id> <number>`` each), on the channel every
    gateway hears, through the publisher that follows a failover."""
    notice: list[tuple[str, bytes | str]] = [(CHANGES_CHANNEL, "\n".join(f"{i} {number}" for i in ids))]
    publisher = Publisher(redis)
    async with redis.pipeline(transaction=False) as pipe:
        publisher.queue(pipe, notice)
        await pipe.execute()
    await publisher.after(notice)


async def player_of_key(redis: Any, key_hash: str) -> str | None:
    """The player whose current key has this hash: the index, confirmed by the account's
    own read model (an index entry a rotation failed to remove never counts)."""
    raw = await redis.hget(KEY_INDEX, key_hash)
    if raw is None:
        return None
    player_id = raw.decode()
    current = await redis.hget(player_doc(player_id), "key_hash")
    return player_id if current is not None and current.decode() == key_hash else None


async def seat(redis: Any, player_id: str, table_id: str) -> Seat | None:
    raw = await redis.hget(player_tables(player_id), table_id)
    return decode_seat(raw) if raw is not None else None


async def seats(redis: Any, player_id: str) -> list[Seat]:
    return [decode_seat(raw) for raw in (await redis.hgetall(player_tables(player_id))).values()]


async def seat_players(redis: Any, table_id: str, taken: Sequence[tuple[str, Seat]]) -> None:
    """Record that these players sit at ``table_id`` (idempotent), and tell each
    one's inbox to look at the table."""
    if not taken:
        return
    async with redis.pipeline(transaction=False) as pipe:
        for player_id, s in taken:
            pipe.hset(player_tables(player_id), table_id, _encode(s))
        pipe.hset(SEATED, table_id, _encode([[s.seat, pid] for pid, s in taken]))
        await pipe.execute()
    await turns(redis, [(pid, Turn(table_id=table_id, seat=s.seat, version=0)) for pid, s in taken])


async def seated(redis: Any, table_ids: Sequence[str]) -> dict[str, list[tuple[int, str]]]:
    """The account seats of each of these tables that has any."""
    if not table_ids:
        return {}
    found = await redis.hmget(SEATED, list(table_ids))
    return {
        t: [(int(s), str(p)) for s, p in msgspec.json.decode(raw)]
        for t, raw in zip(table_ids, found, strict=True)
        if raw is not None
    }


async def turns(redis: Any, entries: Iterable[tuple[str, Turn]]) -> None:
    """Append to each player's inbox, then announce them (one notice per player)."""
    entries = list(entries)
    if not entries:
        return
    calls = [
        (
            [inbox(pid), inbox_counter(pid)],
            [t.table_id, t.seat, t.version, INBOX_MAXLEN],
        )
        for pid, t in entries
    ]
    numbers = await _APPEND_TURN.run(redis, calls)
    last: dict[str, int] = {}
    for (pid, _), n in zip(entries, numbers, strict=True):
        last[pid] = max(last.get(pid, 0), int(n))
    for pid, n in last.items():
        await announce(redis, [pid], n)


async def table_over(redis: Any, table_id: str, players: Sequence[str]) -> None:
    """Move a finished table from its players' live tables to their history."""
    async with redis.pipeline(transaction=False) as pipe:
        for pid in players:
            pipe.hget(player_tables(pid), table_id)
        found = await pipe.execute()
    async with redis.pipeline(transaction=True) as pipe:
        for pid, raw in zip(players, found, strict=True):
            if raw is not None:
                pipe.lpush(player_games(pid), raw)
                pipe.ltrim(player_games(pid), 0, GAMES_KEPT - 1)
                pipe.hdel(player_tables(pid), table_id)
        pipe.hdel(SEATED, table_id)
        await pipe.execute()
