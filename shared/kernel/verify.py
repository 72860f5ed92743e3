"""Check that a finished game was fair, from its complete log and revealed seed.

Every random outcome came from the seed through ``decide`` (and ``create``),
so re-running them from the revealed seed must reproduce the stored events
byte for byte. That proves at once that the seed matches the commitment
published when the table opened, that no shuffle or roll was rigged, and that
every accepted command was legal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from shared.kernel import table as tables
from shared.kernel.contract import GameModule
from shared.kernel.messages import Record
from shared.kernel.rejection import RuleViolation
from shared.kernel.rng import commitment
from shared.kernel.table import TableFinished, TableOpened, TableSealed

_pack = msgspec.msgpack.Encoder().encode


class Decided(Record, frozen=True):
    """One accepted command as the store recorded it."""

    seat: int
    version: int
    command: Any  # None for a timeout
    kind: str = "move"
    at_ms: int = 0


class Verdict(Record, frozen=True):
    fair: bool
    commands: int
    events: int
    problems: tuple[str, ...] = ()


def verify(
    game: GameModule[Any, Any, Any, Any], events: Sequence[Any], decided: Sequence[Decided]
) -> Verdict:
    problems: list[str] = []
    try:
        _check(game, list(events), list(decided), problems)
    except (RuleViolation, AssertionError, ValueError, IndexError) as exc:
        problems.append(f"re-deciding failed: {exc}")
    return Verdict(fair=not problems, commands=len(decided), events=len(events), problems=tuple(problems))


def _check(
    game: GameModule[Any, Any, Any, Any], events: list[Any], decided: list[Decided], problems: list[str]
) -> None:
    opened, sealed, finished = events[0], events[1], events[-1]
    if not (isinstance(opened, TableOpened) and isinstance(sealed, TableSealed)):
        problems.append("the log does not start with table.opened and table.sealed")
        return
    if not isinstance(finished, TableFinished):
        problems.append("the game is not finished: its seed is not revealed yet")
        return
    seed = bytes.fromhex(finished.seed)
    if commitment(seed) != opened.commitment:
        problems.append("the revealed seed does not match the commitment published at the start")
    opening = tables.open_table(
        game,
        opened.seats,
        opened.options,
        seed,
        sealed.token_hashes,
        opened.opened_at,
        opened.clock,
        opened.spectator_delay,
    )
    if _differs(opening, events[: len(opening)]):
        problems.append("the opening (shuffles and deals) does not follow from the seed")
    table = tables.fold(game, events[: len(opening)])
    position = len(opening)
    for step in decided:
        if step.version != table.version:
            problems.append(f"a command was recorded at version {step.version}, expected {table.version}")
            return
        if step.kind == "timeout":
            expected = tables.timeout(game, table, step.seat, step.at_ms)
        else:
            expected = tables.decide(game, table, step.seat, step.command, step.at_ms)
        if _differs(expected, events[position : position + len(expected)]):
            problems.append(
                f"the events after version {step.version} do not follow from the seed and the command"
            )
            return
        table = tables.fold(game, expected, table)
        position += len(expected)
    if position != len(events):
        problems.append(f"{len(events) - position} events are not explained by any command")


def _differs(a: Sequence[Any], b: Sequence[Any]) -> bool:
    return len(a) != len(b) or any(_pack(x) != _pack(y) for x, y in zip(a, b, strict=True))
