"""The delayed spectator's rule: at least N moves behind and S seconds old."""

from services.gateway.delay import allowed, newest_allowed
from shared.kernel.clocks import SpectatorDelay


def test_moves_and_seconds_must_both_have_passed() -> None:
    delay = SpectatorDelay(moves=2, seconds=1.5)
    assert allowed(delay, live_moves=10, now_ms=5_000, entry_moves=8, entry_at=3_500)
    assert not allowed(delay, live_moves=10, now_ms=5_000, entry_moves=9, entry_at=0)
    assert not allowed(delay, live_moves=10, now_ms=5_000, entry_moves=8, entry_at=3_501)


def test_the_newest_allowed_snapshot_is_chosen() -> None:
    newest_first = [(7, 900), (6, 800), (5, 700), (1, 0)]
    assert newest_allowed(SpectatorDelay(moves=2), 7, 1_000, newest_first) == 2
    assert newest_allowed(SpectatorDelay(seconds=0.25), 7, 1_000, newest_first) == 2
    assert newest_allowed(SpectatorDelay(moves=10), 7, 1_000, newest_first) is None
    assert newest_allowed(SpectatorDelay(), 7, 1_000, newest_first) == 0
