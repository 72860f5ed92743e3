"""Seat clocks, kept by the platform rather than by any game's rules.

Pure arithmetic over what the table records: each seat's remaining time and
the moment the awaited seats' clocks started running. All times are ms since
the epoch, handed in by the shell.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Literal

from msgspec import Meta

from shared.kernel.messages import Record

SECOND_MS = 1_000
HOUR_MS = 3_600 * SECOND_MS
DAY_MS = 24 * HOUR_MS

# Upper bounds keep deadlines (now + remaining + increments) far inside 64
# bits, and are beyond any tournament's time control.
GameTimeMs = Annotated[int, Meta(ge=0, le=7 * DAY_MS)]
IncrementMs = Annotated[int, Meta(ge=0, le=HOUR_MS)]
MoveTimeMs = Annotated[int, Meta(ge=0, le=DAY_MS)]
#: The bot levels (shared/kernel/levels.py) a takeover may play at: it is played
#: inside the reducer's own decision (the partition's single writer), where a
#: search would hold every table of the partition for its budget; ``hard`` runs
#: only in the platform process's bot runner.
Takeover = Literal["easy", "medium"]
DEFAULT_TAKEOVER: Takeover = "medium"
#: Spectators trail by at most this many moves, and at most a day.
DelayMoves = Annotated[int, Meta(ge=0, le=10_000)]
DelaySeconds = Annotated[float, Meta(ge=0.0, le=86_400.0)]


class ClockSettings(Record, frozen=True, forbid_unknown_fields=True):
    #: Time each seat has for the whole game; 0 means no game clock.
    initial_ms: GameTimeMs = 0
    #: Added to a seat's time after each of its moves (Fischer increment).
    increment_ms: IncrementMs = 0
    #: Time allowed for each single decision; 0 means no per-move limit.
    per_move_ms: MoveTimeMs = 0
    #: When a clock runs out: the seat's bot plays for it, or the seat forfeits
    #: (it is then played by its bot for the rest of the game and ranked last).
    policy: Literal["bot", "forfeit"] = "bot"
    #: The level of the bot that plays a seat whose clock ran out (and a forfeited
    #: seat). Recorded with the table, so a replay and ``ziggurat verify`` make the
    #: same takeover moves; the reducer fills it from ``ZIGGURAT_TAKEOVER_LEVEL``
    #: when the opener leaves it out. ``None`` on tables opened before levels: the
    #: game's ``zombie`` bot, else its random one, as they were played.
    takeover: Takeover | None = None

    def problems(self) -> list[str]:
        """What decoding cannot check: relations between fields, and settings built in code."""
        out = []
        if min(self.initial_ms, self.increment_ms, self.per_move_ms) < 0:
            out.append("clock times cannot be negative")
        if not self.initial_ms and not self.per_move_ms:
            out.append("a clock needs an initial time or a per-move limit")
        return out


class SpectatorDelay(Record, frozen=True, forbid_unknown_fields=True):
    """How far spectators trail the live game, so a player gains nothing by
    watching their own table as a spectator."""

    moves: DelayMoves = 0
    seconds: DelaySeconds = 0.0


def charged(
    settings: ClockSettings, remaining: tuple[int, ...], since: int, awaited: Iterable[int], now: int
) -> tuple[int, ...]:
    """Every awaited seat's clock ran from ``since`` to ``now``."""
    if not settings.initial_ms:
        return remaining
    spent = max(0, now - since)
    waiting = set(awaited)
    return tuple(max(0, t - spent) if s in waiting else t for s, t in enumerate(remaining))


def credited(settings: ClockSettings, remaining: tuple[int, ...], seat: int) -> tuple[int, ...]:
    if not settings.initial_ms or not settings.increment_ms:
        return remaining
    return tuple(t + settings.increment_ms if s == seat else t for s, t in enumerate(remaining))


def runs_out_at(settings: ClockSettings, remaining: tuple[int, ...], since: int, seat: int) -> int | None:
    """When ``seat``'s clock runs out if it stays awaited (ms), or ``None``."""
    limits = []
    if settings.initial_ms:
        limits.append(since + remaining[seat])
    if settings.per_move_ms:
        limits.append(since + settings.per_move_ms)
    return min(limits) if limits else None
