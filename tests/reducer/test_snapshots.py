"""Snapshots against a real Valkey: the reducer writes them, a cold table starts
from the latest one, and any snapshot it cannot trust is replayed over."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from services.reducer.handlers import Reducer
from shared.eventstore import snapshots
from shared.eventstore.keys import GameKeys
from shared.eventstore.store import COLD_PAGE, EventStore
from shared.eventstore.tables import TableCache
from shared.games import registry
from shared.kernel.rng import Rng
from shared.kernel.table import Table
from shared.messaging.messages import CommandMsg, MoveMsg, OpenMsg, OpenTable

pytestmark = pytest.mark.integration

GAME = "tigris-cards"
SNAPSHOT_EVERY = 40


def _msg(game_id: str, command_id: str, kind: type[CommandMsg], **extra: Any) -> CommandMsg:
    return kind(
        game_id=game_id,
        partition=0,
        command_id=command_id,
        correlation_id=command_id,
        reply_to="test",
        received_ns=0,
        **extra,
    )


async def _play(reducer: Reducer, game_id: str, events: int, seed: int = 1) -> Table:
    """Open a table and play random legal moves through the reducer until it
    holds at least ``events`` events (or the game ends)."""
    game = registry.get(GAME)
    hashes = ("h0", "h1")
    opened = _msg(game_id, "open", OpenMsg, open=OpenTable(game=GAME, seats=2, token_hashes=hashes))
    [outcome] = await reducer.process([opened])
    assert outcome.status == "accepted"
    table = reducer.cache.get(game_id)
    while table is not None and table.version < events and not table.over:
        seat = min(game.actors(table.state))
        command = game.bots["random"](table.state, seat, Rng(seed.to_bytes(32, "big"), table.version))
        move = _msg(
            game_id,
            f"m{table.version}",
            MoveMsg,
            token_hash=hashes[seat],
            command=msgspec.Raw(msgspec.json.encode(command)),
        )
        [outcome] = await reducer.process([move])
        assert outcome.status == "accepted", outcome
        table = reducer.cache.get(game_id)
    assert table is not None
    return table


async def _cold(store: EventStore, game_id: str, use_snapshots: bool = True) -> Table | None:
    return (await TableCache(store, snapshots=use_snapshots).refresh([GameKeys(game_id, 0)]))[game_id]


async def test_the_reducer_snapshots_and_a_cold_table_starts_from_the_latest(redis: Any) -> None:
    store = EventStore(redis)
    reducer = Reducer(store, TableCache(store), snapshot_every=SNAPSHOT_EVERY)
    live = await _play(reducer, "long", 2 * COLD_PAGE + 50)
    keys = GameKeys("long", 0)
    found = await store.load_snapshot(keys)
    assert found is not None
    version, _ = found
    assert live.version - SNAPSHOT_EVERY - 10 < version <= live.version
    assert version > COLD_PAGE, "the latest snapshot lies past a cold table's first page"
    assert await _cold(store, "long") == live == await _cold(store, "long", use_snapshots=False)

    # Drop every event before the snapshot: only a load that starts from it can still succeed.
    await redis.xtrim(keys.events, minid=f"0-{version}")
    assert await _cold(store, "long") == live

    # A restarted reducer goes on from the snapshot.
    restarted = Reducer(store, TableCache(store), snapshot_every=SNAPSHOT_EVERY)
    after = await _play(restarted, "long", live.version + 20)
    assert after.version > live.version


async def test_a_short_game_is_read_whole_in_the_first_page(redis: Any) -> None:
    store = EventStore(redis)
    reducer = Reducer(store, TableCache(store), snapshot_every=SNAPSHOT_EVERY)
    live = await _play(reducer, "short", 100)
    version, _ = await store.load_snapshot(GameKeys("short", 0)) or (0, b"")
    assert 0 < version < COLD_PAGE
    await redis.xtrim(GameKeys("short", 0).events, minid=f"0-{version}")
    assert await _cold(store, "short") == live


@pytest.mark.parametrize("events", [100, 2 * COLD_PAGE + 50], ids=["within-first-page", "past-first-page"])
async def test_an_untrusted_snapshot_falls_back_to_the_whole_stream(redis: Any, events: int) -> None:
    store = EventStore(redis)
    reducer = Reducer(store, TableCache(store), snapshot_every=SNAPSHOT_EVERY)
    live = await _play(reducer, "g", events, seed=1)
    await _play(reducer, "other", events + 30, seed=2)
    keys, other_keys = GameKeys("g", 0), GameKeys("other", 0)
    version, raw = await store.load_snapshot(keys) or (0, b"")
    snap = snapshots.decode(raw)
    assert snap is not None and version > 0
    replayed = await _cold(store, "g", use_snapshots=False)
    assert replayed == live

    async def loads_as_replay(state: bytes | None, at: int = version) -> None:
        if state is None:
            await redis.delete(keys.snapshot)
        else:
            await store.save_snapshot(keys, at, state)
        assert await _cold(store, "g") == replayed

    await loads_as_replay(None)  # missing
    await loads_as_replay(b"\x00not a snapshot")  # undecodable
    await loads_as_replay(msgspec.msgpack.encode(live))  # the format written before: a bare table
    # An old code version's snapshot: it decodes, but its state is wrong for this
    # code (here: an earlier state under the snapshot's version); only the
    # fingerprint of the rules tells, and it must be enough.
    wrong = msgspec.structs.replace(snap, fingerprint=bytes(16), state=_opening_state(live))
    await loads_as_replay(msgspec.msgpack.encode(wrong))
    # Another stream's snapshot under this key: its anchor does not match.
    _, foreign = await store.load_snapshot(other_keys) or (0, b"")
    foreign_snap = snapshots.decode(foreign)
    assert foreign_snap is not None
    await loads_as_replay(foreign, foreign_snap.version)
    # A snapshot past the stream's end.
    past = msgspec.structs.replace(snap, version=live.version + 7)
    await loads_as_replay(msgspec.msgpack.encode(past), live.version + 7)
    # A snapshot whose table does not say the version it is filed under.
    shifted = msgspec.structs.replace(snap, version=version - 1)
    await loads_as_replay(msgspec.msgpack.encode(shifted), version - 1)


def _opening_state(table: Table) -> bytes:
    """The game's state when it opened: it decodes, and it is wrong for any later version."""
    game = registry.get(table.game)
    opening = game.create(game.options(table.options), table.seats, Rng(bytes.fromhex(table.seed), 0))
    return msgspec.msgpack.encode(game.fold(opening))
