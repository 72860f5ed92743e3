"""Tables folded from the store and kept warm in memory.

The validator, the reducer and the projector all need "the table as of the
latest event": this cache reads only the tail after the version it holds
(one pipelined round trip for a whole batch of games). A cold table is folded
from its whole stream: at a few microseconds per event that is cheaper than
any game here needs to avoid, so no hosted game declares a ``state_type`` and
none is snapshotted yet. The store's snapshot calls (and the contract test
that a snapshot equals a replay) are there for a game whose streams grow long.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

from shared.eventstore.envelope import EventEnvelope
from shared.eventstore.keys import GameKeys
from shared.eventstore.store import EventStore
from shared.games import registry
from shared.kernel import table as tables
from shared.kernel.codec import codec_for
from shared.kernel.table import Table


class TableCache:
    def __init__(self, store: EventStore, capacity: int = 20_000) -> None:
        self.store = store
        self.capacity = capacity
        self._tables: OrderedDict[str, Table] = OrderedDict()

    def get(self, game_id: str) -> Table | None:
        table = self._tables.get(game_id)
        if table is not None:
            self._tables.move_to_end(game_id)
        return table

    def put(self, game_id: str, table: Table) -> None:
        self._tables[game_id] = table
        self._tables.move_to_end(game_id)
        while len(self._tables) > self.capacity:
            self._tables.popitem(last=False)

    def forget(self, game_id: str) -> None:
        self._tables.pop(game_id, None)

    def __len__(self) -> int:
        return len(self._tables)

    async def refresh(self, keys: Iterable[GameKeys]) -> dict[str, Table | None]:
        """Bring every named table up to the store's latest version."""
        tables_, _ = await self.refresh_and_read(keys)
        return tables_

    async def refresh_and_read(
        self, keys: Iterable[GameKeys], then: Callable[[Any], None] | None = None
    ) -> tuple[dict[str, Table | None], list[Any]]:
        """:meth:`refresh`, with more reads (queued by ``then``) in the same round trip."""
        wanted = list({k.game_id: k for k in keys}.values())
        tails, extra = await self.store.read_many([(k, self._version(k.game_id)) for k in wanted], then)
        out: dict[str, Table | None] = {}
        for keys_, tail in zip(wanted, tails, strict=True):
            out[keys_.game_id] = self.apply(keys_.game_id, tail)
        return out, extra

    def apply(self, game_id: str, envelopes: list[EventEnvelope]) -> Table | None:
        """Fold envelopes that follow the cached version; ignores ones already folded."""
        table = self.get(game_id)
        for env in envelopes:
            if table is not None and env.version <= table.version:
                continue
            table = fold_envelope(table, env)
        if table is not None:
            self.put(game_id, table)
        return table

    def _version(self, game_id: str) -> int:
        table = self._tables.get(game_id)
        return table.version if table else 0


def fold_envelope(table: Table | None, env: EventEnvelope) -> Table:
    game = registry.get(table.game if table else _opened_game(env))
    event = codec_for(game).event(env.payload)
    if table is not None and env.version != table.version + 1:
        raise ValueError(f"{env.game_id}: event {env.version} does not follow {table.version}")
    return tables.count_move(tables.evolve(game, table, event), env.command_id)


def _opened_game(env: EventEnvelope) -> str:
    """The first event of a stream is ``table.opened``; it names the game."""
    import msgspec

    opened = msgspec.msgpack.decode(env.payload, type=tables.TableOpened)
    return opened.game


def fold_all(envelopes: list[EventEnvelope]) -> Table | None:
    table: Table | None = None
    for env in envelopes:
        table = fold_envelope(table, env)
    return table


def decode_all(table_game: str, envelopes: list[EventEnvelope]) -> list[Any]:
    codec = codec_for(registry.get(table_game))
    return [codec.event(env.payload) for env in envelopes]
