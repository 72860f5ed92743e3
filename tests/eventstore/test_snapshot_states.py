"""Every game's state survives a snapshot: encoded, decoded, equal, and the
rules answer the restored state exactly as they answer the original."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared.eventstore import snapshots
from shared.games import registry
from shared.kernel.playout import play
from shared.kernel.rejection import RuleViolation
from shared.kernel.rng import Rng
from shared.kernel.table import Table

GAMES = registry.available()
#: Commands per game: enough to reach every phase's shape, few enough for a quick test.
STEPS = 240
ENVELOPE = b"the stored envelope at this version"


def test_every_game_declares_its_state_type() -> None:
    assert GAMES
    for key in GAMES:
        assert registry.get(key).state_type is not None, f"{key} cannot be snapshotted"


def _decided(game: Any, state: Any, seat: int, command: Any, seed: bytes, version: int) -> Any:
    try:
        # A fresh generator each time: draws advance it.
        return msgspec.msgpack.encode(game.decide(state, seat, command, Rng(seed, version)))
    except RuleViolation as exc:
        return exc.code


@pytest.mark.parametrize("key", GAMES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=32, max_size=32), every=st.integers(min_value=3, max_value=17))
def test_a_restored_state_is_equal_and_plays_the_same(key: str, seed: bytes, every: int) -> None:
    game = registry.get(key)
    seats = max(2, game.min_seats)
    playout = play(game, seats, seed, max_steps=STEPS)
    state = game.fold(playout.opening)
    version = len(playout.opening)
    checked = 0
    for i, step in enumerate(playout.steps):
        state = game.fold(step.events, state)
        version += len(step.events)
        if i % every and i != len(playout.steps) - 1:
            continue
        table = Table(
            game=key, seats=seats, options={}, commitment="c", opened_at=0, version=version, state=state
        )
        snap = snapshots.decode(snapshots.encode(table, ENVELOPE))
        assert snap is not None
        restored = snapshots.restore(snap, ENVELOPE)
        assert restored == table
        again = restored.state
        assert msgspec.msgpack.encode(again) == msgspec.msgpack.encode(state)
        assert game.actors(again) == game.actors(state)
        assert game.result(again) == game.result(state)
        for audience in (None, *range(seats)):
            assert game.view(again, audience) == game.view(state, audience)
        for seat in sorted(game.actors(state)):
            legal = game.legal(state, seat)
            assert game.legal(again, seat) == legal
            for command in legal[:: max(1, len(legal) // 4)]:
                decided = _decided(game, state, seat, command, seed, version)
                assert _decided(game, again, seat, command, seed, version) == decided
        checked += 1
    assert checked


def test_a_snapshot_of_other_rules_or_another_stream_is_refused() -> None:
    game = registry.get("highcard")
    state = play(game, 2, bytes(32), max_steps=3).state
    table = Table(game="highcard", seats=2, options={}, commitment="c", opened_at=0, version=9, state=state)
    raw = snapshots.encode(table, ENVELOPE)
    snap = snapshots.decode(raw)
    assert snap is not None
    assert snapshots.restore(snap, b"another envelope") is None
    older = msgspec.structs.replace(snap, fingerprint=bytes(16))
    assert snapshots.decode(msgspec.msgpack.encode(older)) is None
    assert snapshots.decode(b"\x93garbage") is None
    assert snapshots.decode(msgspec.msgpack.encode(table)) is None  # the format written before
    unknown = msgspec.structs.replace(snap, game="no-such-game")
    assert snapshots.decode(msgspec.msgpack.encode(unknown)) is None
    broken = msgspec.structs.replace(snap, state=b"\xc1")
    assert snapshots.restore(broken, ENVELOPE) is None
