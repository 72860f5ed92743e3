"""The rebuild's one-pass read models equal the projector's ``build`` over the
whole log, byte for byte, for every game, with clocks, timeouts and forfeits."""

from __future__ import annotations

from typing import Any

import pytest

from shared.eventstore.envelope import EventEnvelope
from shared.eventstore.store import decode_envelope, encode_envelope
from shared.eventstore.tables import decode_all, fold_all
from shared.games import registry
from shared.kernel import table as tables
from shared.kernel.clocks import ClockSettings
from shared.kernel.codec import codec_for
from shared.kernel.rejection import RuleViolation
from shared.kernel.rng import Rng
from shared.readmodels.build import HISTORY, ReadModels, build
from shared.readmodels.rebuild import models_from_log

GAMES = registry.available()
MOVES = 400


def _log(key: str, seed: int, clock: ClockSettings | None) -> list[bytes]:
    """A table played by random bots through the kernel's table functions, as
    the reducer plans it; with a clock, every 7th turn the seat runs out of time."""
    game = registry.get(key)
    codec = codec_for(game)
    seats = max(2, game.min_seats) + seed % 2 if game.max_seats > game.min_seats else game.min_seats
    seed_bytes = seed.to_bytes(32, "big")
    now = 1_000
    opening = tables.open_table(game, seats, {}, seed_bytes, tuple(f"h{s}" for s in range(seats)), now, clock)
    batches: list[tuple[str, list[Any]]] = [("open", opening)]
    table = tables.fold(game, opening)
    for turn in range(MOVES):
        if table.over:
            break
        seat = min(game.actors(table.state))
        # One forfeit at most: a table whose seats have all forfeited is not what this tests.
        if clock is not None and turn % 7 == 3 and not table.forfeited:
            now += 10 * clock.initial_ms
            command_id = f"timeout:{table.version}:{seat}"
            try:
                events = tables.timeout(game, table, seat, now)
            except RuleViolation:
                continue
        else:
            now += 500
            command_id = f"m{turn}"
            command = game.bots["random"](table.state, seat, Rng(bytes(32), table.version))
            events = tables.decide(game, table, seat, command, now)
        batches.append((command_id, events))
        table = tables.fold(game, events, table)
    log: list[bytes] = []
    for command_id, events in batches:
        for event in events:
            version = len(log) + 1
            log.append(
                encode_envelope(
                    EventEnvelope(
                        game_id="g",
                        partition=0,
                        version=version,
                        event_id=f"g:{version}",
                        command_id=command_id,
                        correlation_id="c",
                        server_time=now + version,
                        seat=None,
                        payload=codec.pack(event),
                    )
                )
            )
    return log


def _built(log: list[bytes]) -> ReadModels:
    envelopes = [decode_envelope(raw) for raw in log]
    table = fold_all(envelopes)
    assert table is not None
    events = decode_all(table.game, envelopes)
    models = build(
        "g", table, [(e.version, e.server_time, ev) for e, ev in zip(envelopes, events, strict=True)]
    )
    models.feeds.pop(HISTORY)
    return models


CLOCKS = {
    "none": None,
    "bot": ClockSettings(initial_ms=60_000, policy="bot"),
    "forfeit": ClockSettings(initial_ms=60_000, increment_ms=1_000, policy="forfeit"),
}


@pytest.mark.parametrize("clock", list(CLOCKS))
@pytest.mark.parametrize("key", GAMES)
def test_one_pass_models_equal_build_over_the_whole_log(key: str, clock: str) -> None:
    for seed in range(2):
        log = _log(key, seed, CLOCKS[clock])
        expected = _built(log)
        got = models_from_log("g", log)
        assert got is not None
        assert (got.version, got.game, got.over) == (expected.version, expected.game, expected.over)
        assert got.views == expected.views
        assert got.feeds.keys() == expected.feeds.keys()
        for name, feed in expected.feeds.items():
            assert got.feeds[name] == feed, name


def test_an_empty_or_broken_log_is_refused() -> None:
    assert models_from_log("g", []) is None
    log = _log("highcard", 0, None)
    with pytest.raises(ValueError, match="does not follow"):
        models_from_log("g", [log[0], log[2]])


@pytest.mark.parametrize("key", GAMES)
def test_a_restores_history_is_what_a_projector_seeing_one_command_per_batch_writes(key: str) -> None:
    """A read-model server that lost its history gets one entry per command, each
    byte for byte what the projector writes for a batch holding that command."""
    log = _log(key, 1, CLOCKS["forfeit"])
    envelopes = [decode_envelope(raw) for raw in log]
    got = models_from_log("g", log, history=True)
    assert got is not None
    plain = models_from_log("g", log)
    assert plain is not None
    assert got.views == plain.views
    assert {n: f for n, f in got.feeds.items() if n != HISTORY} == plain.feeds
    expected: list[tuple[int, bytes]] = []
    start = 0
    for end in range(1, len(envelopes) + 1):
        if end < len(envelopes) and envelopes[end].command_id == envelopes[start].command_id:
            continue
        table = fold_all(envelopes[:end])
        assert table is not None
        batch = envelopes[start:end]
        events = decode_all(table.game, batch)
        models = build(
            "g", table, [(e.version, e.server_time, ev) for e, ev in zip(batch, events, strict=True)]
        )
        expected += models.feeds[HISTORY]
        start = end
    assert got.feeds[HISTORY] == expected
    assert len(expected) == len({e.command_id for e in envelopes})
