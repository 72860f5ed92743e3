"""Bot levels (issue 25): the names, what a level's bot is handed, and the timeout takeover's level.

The bot runner and ``ziggurat bot --strategy hard`` choose through
:func:`shared.kernel.levels.choose`: what they hand a bot must be the seat's
view (a determinisation), never the state they hold. A takeover plays the
bot of the level its table's clock records, and verification replays it.
"""

from __future__ import annotations

import dataclasses
import hashlib
from typing import Any

import msgspec
import pytest

from shared.games import registry
from shared.kernel import levels
from shared.kernel import table as tables
from shared.kernel.clocks import ClockSettings
from shared.kernel.rng import Rng
from shared.kernel.table import TableTimedOut
from tests.games.secrecy import harness

encode = msgspec.json.Encoder().encode


def _seed(*parts: object) -> bytes:
    return hashlib.blake2b(repr(parts).encode(), digest_size=32).digest()


def test_old_bot_names_read_as_the_levels_they_played_at() -> None:
    assert [levels.level_of(n) for n in ("easy", "medium", "hard")] == ["easy", "medium", "hard"]
    assert levels.level_of("random") == "easy" and levels.level_of("greedy") == "medium"
    assert levels.level_of(None) == levels.DEFAULT == "medium"


@pytest.mark.parametrize("key", sorted(registry.BUILTIN))
def test_a_level_is_handed_its_seats_view_not_the_state_held(key: str) -> None:
    """What ``choose`` hands the bot is the same whatever the seat may not see,
    and shows the seat the view the true state shows it."""
    game = registry.get(key)
    handed: list[Any] = []

    def recording(state: Any, seat: int, rng: Rng) -> Any:
        handed.append(state)
        return game.bots["random"](state, seat, rng)

    spy = dataclasses.replace(game, bots={**game.bots, "medium": recording})
    seats = game.max_seats
    seed = _seed("levels", key)
    for n, world in enumerate(harness.states(game, seats, seed, count=3)):
        for seat in sorted(game.actors(world.state)):
            handed.clear()
            move = levels.choose(spy, world.state, seat, "medium", Rng(seed, n))
            (given,) = handed
            assert given is not world.state
            assert encode(game.view(given, seat)) == encode(game.view(world.state, seat))
            assert move in game.legal(world.state, seat)
            for owner in harness.audiences(seats):
                if owner == seat:
                    continue
                other = game.secrets.conceal(world.state, owner, Rng(seed, 100 + n))
                handed.clear()
                levels.choose(spy, other, seat, "medium", Rng(seed, n))
                assert encode(handed[0]) == encode(given), (
                    f"{key}: seat {seat}'s bot was handed {owner}'s secrets"
                )


GAME = registry.get("tigris-cards")


def _table(takeover: Any, seed: bytes) -> tables.Table:
    clock = ClockSettings(per_move_ms=1_000, takeover=takeover)
    return tables.fold(GAME, tables.open_table(GAME, 2, {}, seed, ("a", "b"), 0, clock))


def _takeover_move(table: tables.Table, level: str) -> Any:
    seat = min(GAME.actors(table.state))
    at = table.since + 1_000
    events = tables.timeout(GAME, table, seat, at)
    assert events[0] == TableTimedOut(seat=seat, policy="bot")
    after = tables.fold(GAME, [events[0]], table)
    bot_rng = Rng(bytes(b ^ 0x5A for b in bytes.fromhex(after.seed)), after.version)
    expected = GAME.decide(
        after.state,
        seat,
        levels.bot(GAME, level)(after.state, seat, bot_rng),
        Rng(bytes.fromhex(after.seed), after.version),
    )
    assert events[1 : 1 + len(expected)] == expected
    return events


def test_a_takeover_plays_at_the_level_its_table_records() -> None:
    differ = 0
    for n in range(6):
        seed = _seed("takeover", n)
        easy = _takeover_move(_table("easy", seed), "easy")
        medium = _takeover_move(_table("medium", seed), "medium")
        differ += easy != medium
    assert differ, "the two levels never played differently: the test would not tell them apart"


def test_a_table_opened_before_levels_keeps_its_old_takeover_bot() -> None:
    """Verification replays old tables as they were played: the game's zombie bot."""
    table = _table(None, _seed("old"))
    _takeover_move(table, "zombie")
