"""``verify`` accepts a fair finished game and catches every kind of tampering."""

from typing import Any

import msgspec
import pytest

from shared.kernel import table as tables
from shared.kernel.rng import Rng
from shared.kernel.table import TableFinished
from shared.kernel.verify import Decided, verify
from tests.support.highcard import GAME, Dealt, DeckShuffled, Played

SEED = b"\x2a" * 32


def finished_game() -> tuple[list[Any], list[Decided]]:
    events = tables.open_table(GAME, 3, {}, SEED, ("a", "b", "c"), 1)
    table = tables.fold(GAME, events)
    decided = []
    while not table.over:
        seat = min(GAME.actors(table.state))
        command = GAME.bots["random"](table.state, seat, Rng(b"\x01" * 32, table.version))
        decided.append(Decided(seat=seat, version=table.version, command=command))
        new = tables.decide(GAME, table, seat, command)
        events += new
        table = tables.fold(GAME, new, table)
    return events, decided


def test_a_fair_game_verifies() -> None:
    events, decided = finished_game()
    verdict = verify(GAME, events, decided)
    assert verdict.fair, verdict.problems
    assert verdict.commands == len(decided) and verdict.events == len(events)


def replace_first(events: list[Any], kind: type, **changes: Any) -> list[Any]:
    i = next(i for i, e in enumerate(events) if isinstance(e, kind))
    return [*events[:i], msgspec.structs.replace(events[i], **changes), *events[i + 1 :]]


@pytest.mark.parametrize(
    ("tamper", "expected"),
    [
        (lambda ev: replace_first(ev, DeckShuffled, order=tuple(reversed(ev[3].order))), "opening"),
        (lambda ev: replace_first(ev, Dealt, cards=(1, 2, 3)), "opening"),
        (lambda ev: replace_first(ev, Played, card=99), "do not follow"),
        (lambda ev: [*ev[:-1], msgspec.structs.replace(ev[-1], seed=(b"\x2b" * 32).hex())], "commitment"),
        (lambda ev: ev[:-1], "not finished"),
        (lambda ev: [*ev[:-1], ev[-2], ev[-1]], "do not follow"),
    ],
    ids=["reshuffled deck", "swapped deal", "changed move", "other seed", "unfinished", "duplicated event"],
)
def test_tampered_logs_are_caught(tamper: Any, expected: str) -> None:
    events, decided = finished_game()
    verdict = verify(GAME, tamper(events), decided)
    assert not verdict.fair
    assert any(expected in p for p in verdict.problems), verdict.problems


def test_a_forged_command_is_caught() -> None:
    events, decided = finished_game()
    forged = [*decided[:-1], msgspec.structs.replace(decided[-1], seat=(decided[-1].seat + 1) % 3)]
    assert not verify(GAME, events, forged).fair
    assert isinstance(events[-1], TableFinished)
