"""Tournament settings: what the organiser chose, with every default resolved.

The ``Created`` event stores the resolved :class:`Settings`, never the raw
request, so a later change of a default in this module cannot re-score a
tournament that already ran.

Defaults (documented here because organisers and the standings depend on them):

- points per placing: ``(1, 0)`` for 2-player tables, ``(2, 1, 0)`` for 3 and
  ``(3, 2, 1, 0)`` for 4: one point per opponent beaten.
- a bye scores the upper-median placing: a win at 2-player tables (the chess
  convention), second place at 3- and 4-player tables. A bye is not the
  player's fault, yet it must not beat actually winning a table.
- ``min_table_size`` equals ``seats_per_table``: every table is full and the
  players left over get byes. An organiser whose game plays well one seat
  short may lower it; tables are then as equal as possible and byes only
  happen when even short tables cannot seat everybody.
- elimination advances ``qualifiers`` (k) per table, default 1.
"""

from __future__ import annotations

from typing import Any, Literal

from shared.kernel.clocks import ClockSettings, SpectatorDelay
from shared.kernel.messages import Record

__all__ = ["ClockSettings", "Format", "Settings", "SpectatorDelay"]

Format = Literal["swiss", "round_robin", "elimination"]

MIN_SEATS = 2
MAX_SEATS = 4


class Settings(Record, frozen=True):
    name: str
    game: str
    game_options: dict[str, Any]
    format: Format
    seats_per_table: int
    min_table_size: int
    #: Swiss: the rounds to play. Round robin: the schedule length (fixed at
    #: start). Elimination: 0, since it runs until one table remains.
    rounds: int
    clock: ClockSettings | None
    points: tuple[int, ...]
    bye_points: int
    delay: SpectatorDelay
    qualifiers: int


def default_points(seats: int) -> tuple[int, ...]:
    return tuple(range(seats - 1, -1, -1))


def default_bye_points(points: tuple[int, ...]) -> int:
    return points[(len(points) - 1) // 2]


def settings_problems(s: Settings) -> list[str]:
    """Every reason these settings are unusable, in words for the organiser."""
    out: list[str] = []
    if not MIN_SEATS <= s.seats_per_table <= MAX_SEATS:
        out.append(f"seats per table must be {MIN_SEATS} to {MAX_SEATS}, not {s.seats_per_table}")
        return out
    if not MIN_SEATS <= s.min_table_size <= s.seats_per_table:
        out.append(f"minimum table size must be {MIN_SEATS} to {s.seats_per_table}")
    if s.format == "swiss" and s.rounds < 1:
        out.append("a Swiss tournament needs at least one round")
    if s.rounds < 0:
        out.append("rounds cannot be negative")
    if len(s.points) != s.seats_per_table:
        out.append(f"points per placing need one value per seat ({s.seats_per_table})")
    elif any(a < b for a, b in zip(s.points, s.points[1:], strict=False)) or min(s.points) < 0:
        out.append("points per placing must be non-negative and never grow with a worse place")
    if s.bye_points < 0:
        out.append("bye points cannot be negative")
    if s.format == "elimination" and not 1 <= s.qualifiers < s.seats_per_table:
        out.append(f"qualifiers per table must be 1 to {s.seats_per_table - 1}")
    out.extend(_clock_problems(s.clock))
    if s.delay.moves < 0 or s.delay.seconds < 0:
        out.append("spectator delay cannot be negative")
    if not s.game:
        out.append("a tournament needs a game")
    return out


def _clock_problems(clock: ClockSettings | None) -> list[str]:
    return clock.problems() if clock is not None else []
