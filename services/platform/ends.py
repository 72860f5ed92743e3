"""A table's end, as the platform acts on it: only one the store holds for good.

The partition feed shows an append once its primary has run it, before a
replicated level's replicas hold it. A failover in between loses an end the
reducer never acknowledged, and the table may end otherwise when its last
move is sent again: a tournament, an arena or a ladder acting on the end it
read would stand on a result its table's log does not hold. So each end's
node is confirmed first (under a replicated level; :class:`Unconfirmed` when
its replicas do not answer, and the reader reads the entries again), then the
end is read back from the table's log. An end the log no longer holds is let
go: the table's real end comes in its turn.
"""

from __future__ import annotations

from collections.abc import Sequence

import structlog

from shared.eventstore.envelope import EventEnvelope
from shared.eventstore.keys import GameKeys, partition_feed
from shared.eventstore.store import EventStore
from shared.infra.durability import Unconfirmed, confirm_at

log = structlog.get_logger()


async def held(store: EventStore, ends: Sequence[EventEnvelope]) -> list[EventEnvelope]:
    """The ends (``table.finished`` envelopes read from a feed) the store holds for good."""
    if not ends:
        return []
    if store.durable is not None:
        for partition in sorted({env.partition for env in ends}):
            if not await confirm_at(store.redis, partition_feed(partition), store.durable):
                raise Unconfirmed(f"partition {partition}: no replica holds its tables' ends yet")
    kept = []
    for env in ends:
        logged = await store.read(GameKeys(env.game_id, env.partition), env.version - 1)
        if logged and logged[0].command_id == env.command_id and logged[0].payload == env.payload:
            kept.append(env)
        else:
            log.warning("finished_game_not_held", game_id=env.game_id, version=env.version)
    return kept
