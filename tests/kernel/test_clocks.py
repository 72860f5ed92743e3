"""Seat clocks: charged while awaited, credited per move, and each timeout policy."""

import msgspec
import pytest

from shared.kernel import table as tables
from shared.kernel.clocks import ClockSettings
from shared.kernel.rejection import RuleViolation
from shared.kernel.table import SeatForfeited, TableClocked, TableFinished, TableTimedOut
from shared.kernel.verify import Decided, verify
from tests.support.highcard import GAME, Play, Played

SEED = b"\x31" * 32


def opened(clock: ClockSettings, seats: int = 3) -> tables.Table:
    return tables.fold(GAME, tables.open_table(GAME, seats, {}, SEED, ("a", "b", "c")[:seats], 1_000, clock))


def test_the_awaited_seat_is_charged_and_the_mover_credited() -> None:
    table = opened(ClockSettings(initial_ms=10_000, increment_ms=500))
    assert table.remaining == (10_000,) * 3 and table.since == 1_000
    events = tables.decide(GAME, table, 0, Play(card=table.state.hands[0][0]), now_ms=4_000)
    clocked = [e for e in events if isinstance(e, TableClocked)]
    assert clocked == [TableClocked(remaining=(7_500, 10_000, 10_000), since=4_000)]


def test_a_timeout_is_refused_while_the_seat_still_has_time() -> None:
    table = opened(ClockSettings(per_move_ms=2_000))
    assert tables.deadline(GAME, table) == (3_000, 0)
    with pytest.raises(RuleViolation) as exc:
        tables.timeout(GAME, table, 0, now_ms=2_999)
    assert exc.value.code == "clock_not_expired"
    with pytest.raises(RuleViolation) as exc:
        tables.timeout(GAME, table, 1, now_ms=9_999)
    assert exc.value.code == "clock_not_running"


def test_the_bot_policy_plays_the_seats_move() -> None:
    table = opened(ClockSettings(per_move_ms=2_000, policy="bot"))
    events = tables.timeout(GAME, table, 0, now_ms=3_000)
    assert events[0] == TableTimedOut(seat=0, policy="bot")
    assert [e.seat for e in events if isinstance(e, Played)] == [0]
    after = tables.fold(GAME, events, table)
    assert GAME.actors(after.state) == {1} and after.since == 3_000 and after.forfeited == ()


def test_a_forfeited_seat_is_played_by_its_bot_and_ranked_last() -> None:
    table = opened(ClockSettings(per_move_ms=2_000, policy="forfeit"))
    events = tables.timeout(GAME, table, 0, now_ms=3_000)
    assert events[:2] == [TableTimedOut(seat=0, policy="forfeit"), SeatForfeited(seat=0)]
    table = tables.fold(GAME, events, table)
    assert table.forfeited == (0,)
    while not table.over:
        seat = min(GAME.actors(table.state))
        assert seat != 0, "a forfeited seat is never awaited: its bot answers at once"
        more = tables.decide(GAME, table, seat, Play(card=max(table.state.hands[seat])), now_ms=3_500)
        table = tables.fold(GAME, more, table)
    final = next(e for e in more if isinstance(e, TableFinished)).result
    assert final.standings[-1].seat == 0 and final.standings[-1].place == 3


def test_a_table_every_seat_forfeits_ends_at_once_with_nobody_winning() -> None:
    # Bots of forfeited seats playing only each other would play to the end
    # inside one reducer call; with no seat left to play for, the table ends.
    table = opened(ClockSettings(per_move_ms=2_000, policy="forfeit"))
    now, forfeits = 3_000, 0
    while not table.over:
        seat = min(GAME.actors(table.state))
        events = tables.timeout(GAME, table, seat, now_ms=now)
        forfeits += 1
        table = tables.fold(GAME, events, table)
        now = table.since + 2_001
    assert forfeits == 3 and len(table.forfeited) == 3
    assert not any(isinstance(e, Played) for e in events), "no bot plays once every seat is gone"
    final = next(e for e in events if isinstance(e, TableFinished)).result
    assert final.reason == tables.ABANDONED
    assert {(s.place, s.score) for s in final.standings} == {(1, 0)} and len(final.standings) == 3


def test_verify_re_derives_clocked_games_with_timeouts() -> None:
    table = opened(ClockSettings(initial_ms=5_000, per_move_ms=1_000, policy="bot"))
    events = tables.open_table(GAME, 3, {}, SEED, ("a", "b", "c"), 1_000, table.clock)
    decided, now = [], 1_000
    while not table.over:
        seat = min(GAME.actors(table.state))
        now += 700 if seat else 1_500  # seat 0 always runs out of its move time
        if seat == 0:
            step = Decided(seat=0, version=table.version, command=None, kind="timeout", at_ms=now)
            new = tables.timeout(GAME, table, 0, now)
        else:
            command = Play(card=min(table.state.hands[seat]))
            step = Decided(seat=seat, version=table.version, command=command, at_ms=now)
            new = tables.decide(GAME, table, seat, command, now)
        decided.append(step)
        events += new
        table = tables.fold(GAME, new, table)
    assert verify(GAME, events, decided).fair
    shifted = [msgspec.structs.replace(d, at_ms=d.at_ms + 1) for d in decided]
    assert not verify(GAME, events, shifted).fair, "the recorded times are part of the proof"
