"""What a delayed spectator may see: pure, so the rule is tested on its own.

A table with a spectator delay shows spectators the newest snapshot of its
public view that is at least ``moves`` commands behind the live game and at
least ``seconds`` old. The opening snapshot (no move made yet) is always
allowed, so a new table is never blank.
"""

from __future__ import annotations

from collections.abc import Sequence

from shared.kernel.clocks import SpectatorDelay


def allowed(delay: SpectatorDelay, live_moves: int, now_ms: int, entry_moves: int, entry_at: int) -> bool:
    return entry_moves <= live_moves - delay.moves and entry_at <= now_ms - delay.seconds * 1000


def newest_allowed(
    delay: SpectatorDelay, live_moves: int, now_ms: int, newest_first: Sequence[tuple[int, int]]
) -> int | None:
    """Index into ``newest_first`` (pairs of moves, made-at) of the snapshot to show."""
    for i, (moves, at) in enumerate(newest_first):
        if allowed(delay, live_moves, now_ms, moves, at):
            return i
    return None
