"""A table's end is acted on only once the store holds it (services/platform/ends.py).

Against a real Valkey: an end read from a feed (or a log) that the table's log
does not hold, because a failover lost it and another history took its
version, is not acted on; the player process, which read it from the log
itself, reads the table again rather than step past it.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from services.platform.ends import held
from services.platform.players import PlayerProcess
from shared.eventstore.envelope import EventEnvelope
from shared.eventstore.keys import GameKeys, partition_of
from shared.eventstore.store import EventStore, encode_envelope
from shared.kernel.contract import Result, Standing
from shared.kernel.table import TableFinished
from shared.players.keys import SEATED
from shared.players.seats import Seat
from shared.players.store import seat_players

pytestmark = pytest.mark.integration
PARTITIONS = 4
TABLE = "t-ends"
KEYS = GameKeys(TABLE, partition_of(TABLE, PARTITIONS))


def end(command_id: str, winner: int, version: int = 9) -> EventEnvelope:
    first, second = Standing(seat=winner, place=1, score=2), Standing(seat=1 - winner, place=2, score=1)
    result = Result(standings=(first, second), reason="done")
    return EventEnvelope(
        game_id=TABLE,
        partition=KEYS.partition,
        version=version,
        event_id=KEYS.event_id(version),
        command_id=command_id,
        correlation_id="",
        server_time=0,
        seat=winner,
        payload=msgspec.msgpack.encode(TableFinished(result=result, seed="00" * 32)),
    )


async def log(redis: Any, env: EventEnvelope) -> None:
    await redis.xadd(KEYS.events, {b"e": encode_envelope(env)}, id=f"0-{env.version}")


async def test_only_the_end_the_log_holds_is_kept(redis: Any) -> None:
    store = EventStore(redis)
    lost, real = end("move-a", 0), end("move-b", 1)
    assert await held(store, [lost]) == [], "nothing at that version: not held"
    await log(redis, real)
    assert await held(store, [lost]) == [], "another command's end at that version: not held"
    assert await held(store, [real]) == [real]
    later = end("move-b", 1, version=10)
    assert await held(store, [later, real]) == [real]


async def test_the_player_process_reads_a_table_again_when_its_end_is_gone(redis: Any) -> None:
    seat = Seat(table_id=TABLE, game="highcard", seat=0, token="tok", source="casual")
    await seat_players(redis, TABLE, [("p1", seat)])
    players = PlayerProcess(EventStore(redis), PARTITIONS, "node")
    lost, real = end("move-a", 0), end("move-b", 1)
    await log(redis, real)
    with pytest.raises(RuntimeError):
        await players.tables({TABLE: [(9, encode_envelope(lost))]})
    assert await redis.hexists(SEATED, TABLE), "the table is still watched: its end is not handled"
    await players.tables({TABLE: [(9, encode_envelope(real))]})
    assert not await redis.hexists(SEATED, TABLE), "the end the log holds is handled"
