"""Decide and append for the small aggregates (player accounts, arenas): one way to do it.

Read the stream, fold it, decide, append with the expected version and the
command id; a writer that lost the race reads again and decides again. A
command id the stream has already seen answers the state as it is, without
deciding twice. (Tournaments and games have writers of their own, with
caches; these aggregates are small and rarely written.)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, TypeVar

import msgspec

from shared.eventstore.envelope import EventEnvelope
from shared.eventstore.keys import GameKeys
from shared.eventstore.store import AppendRequest, EventStore

S = TypeVar("S")
E = TypeVar("E")
MAX_ATTEMPTS = 5
_encode = msgspec.msgpack.Encoder().encode


class Busy(RuntimeError):
    """The stream kept moving under us: nothing was appended."""


class Decided(msgspec.Struct, Generic[S, E]):
    version: int
    state: S | None
    #: The events this call appended (none for a repeat or a no-op).
    events: list[E]
    duplicate: bool = False


class Aggregate(Generic[S, E]):
    """One kind of aggregate: how to decode its events and fold them."""

    def __init__(
        self, decode: Callable[[bytes], E], fold: Callable[[Iterable[E], S | None], S | None], prefix: str
    ) -> None:
        self.decode = decode
        self.fold = fold
        self.prefix = prefix

    async def load(self, store: EventStore, keys: GameKeys) -> tuple[int, S | None]:
        envelopes = await store.read(keys)
        state = self.fold((self.decode(e.payload) for e in envelopes), None)
        return (envelopes[-1].version if envelopes else 0), state

    async def execute(
        self,
        store: EventStore,
        keys: GameKeys,
        decide: Callable[[S | None], Sequence[E]],
        command_id: str,
        now_ms: int,
    ) -> Decided[S, E]:
        """``decide`` may raise (a rule violation): nothing is appended then."""
        for _ in range(MAX_ATTEMPTS):
            version, state = await self.load(store, keys)
            if await store.redis.hexists(keys.dedup, command_id):
                return Decided(version=version, state=state, events=[], duplicate=True)
            events = list(decide(state))
            if not events:
                return Decided(version=version, state=state, events=[])
            outcome = await store.append(
                AppendRequest(
                    keys=keys,
                    expected=version,
                    command_id=command_id,
                    command=None,
                    envelopes=[
                        _envelope(self.prefix, keys, version + i, command_id, now_ms, e)
                        for i, e in enumerate(events, 1)
                    ],
                )
            )
            if outcome.status == "appended":
                return Decided(version=outcome.last, state=self.fold(events, state), events=events)
        raise Busy(f"{keys.game_id}: the stream kept moving")


def _envelope(
    prefix: str, keys: GameKeys, version: int, command_id: str, now_ms: int, event: Any
) -> EventEnvelope:
    return EventEnvelope(
        game_id=keys.game_id,
        partition=keys.partition,
        version=version,
        event_id=f"{prefix}:{keys.game_id}:{version}",
        command_id=command_id,
        correlation_id=command_id,
        server_time=now_ms,
        seat=None,
        payload=_encode(event),
    )
