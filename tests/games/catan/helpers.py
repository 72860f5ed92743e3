"""Given/when/then helpers: states built from events on the beginner board."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from msgspec.structs import replace

from shared.games.catan import CATAN, CATAN_CK, board
from shared.games.catan import events as ev
from shared.games.catan.cards import NAMES
from shared.games.catan.decide import decide
from shared.games.catan.evolve import evolve
from shared.games.catan.legal import legal
from shared.games.catan.state import Knight, State
from shared.kernel.rejection import RuleViolation
from shared.kernel.rng import Rng

SEED = b"\x07" * 32
#: The spots along the island's top edge, in order: six paths.
TOP = [3, 0, 4, 1, 5, 2, 6]


def corner(h: int, k: int) -> int:
    """Corner ``k`` of hex ``h``, clockwise from north (0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW)."""
    return board.HEX_CORNERS[h][k]


def side(h: int, k: int) -> int:
    """The path from corner ``k`` to corner ``k + 1`` of hex ``h``."""
    return board.path_between(corner(h, k), corner(h, (k + 1) % 6))


def cards(**counts: int) -> tuple[int, ...]:
    return tuple(counts.get(n, 0) for n in NAMES)


def fresh(ck: bool = True, seats: int = 4, **options: Any) -> State:
    """The beginner board, set-up skipped: seat 0 in its action phase of turn 1."""
    game = CATAN_CK if ck else CATAN
    opts = game.options({"layout": "beginner", **options})
    state = None
    for e in game.create(opts, seats, Rng(SEED, 0)):
        state = evolve(state, e)
    assert state is not None
    return given(state, ev.PhaseSet(phase="main", active=0, turn=1), ev.DiceRolled(yellow=2, red=3, event=""))


def given(state: State, *events: ev.CatanEvent) -> State:
    for e in events:
        state = evolve(state, e)
    return state


def gain(seat: int, **counts: int) -> ev.CardsGained:
    return ev.CardsGained(seat=seat, cards=cards(**counts))


def town(seat: int, spot: int, level: int = 1) -> ev.BuildingPlaced:
    return ev.BuildingPlaced(seat=seat, spot=spot, level=level)


def road(seat: int, path: int) -> ev.RoadPlaced:
    return ev.RoadPlaced(seat=seat, path=path)


def knight(seat: int, spot: int, strength: int = 1, active: bool = False) -> ev.KnightSet:
    return ev.KnightSet(knight=Knight(spot=spot, owner=seat, strength=strength, active=active))


def hold(state: State, seat: int, *names: str) -> State:
    p = state.players[seat]
    players = list(state.players)
    players[seat] = replace(p, cards=tuple(sorted((*p.cards, *names))))
    return replace(state, players=tuple(players))


def when(state: State, seat: int, command: Any, stream: int = 1) -> tuple[State, list[ev.CatanEvent]]:
    events = decide(state, seat, command, Rng(SEED, stream))
    return given(state, *events), events


def rejected(state: State, seat: int, command: Any) -> str:
    assert command not in legal(state, seat)
    with pytest.raises(RuleViolation) as info:
        decide(state, seat, command, Rng(SEED, 1))
    return info.value.code


def of(events: list[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def path_spots(*spots: int) -> list[int]:
    """The paths joining consecutive spots of a trail."""
    return [board.path_between(a, b) for a, b in itertools.pairwise(spots)]


def roll_until(state: State, want: Any, seat: int = 0) -> tuple[State, list[ev.CatanEvent]]:
    """Roll from the roll phase with the first random stream whose dice satisfy ``want``."""
    from shared.games.catan import commands as cmd

    state = replace(state, phase="roll")
    for stream in range(1, 5000):
        events = decide(state, seat, cmd.RollDice(), Rng(SEED, stream))
        dice = next(e for e in events if isinstance(e, ev.DiceRolled))
        if want(dice):
            return given(state, *events), events
    raise AssertionError("no such roll")


def produce(state: State, total: int) -> list[ev.CatanEvent]:
    from shared.games.catan.rules.production import produce as run
    from shared.kernel.fold import Fold

    rolled = given(state, ev.DiceRolled(yellow=total // 2, red=total - total // 2, event=""))
    f = Fold(rolled, evolve, Rng(SEED, 1))
    run(f)
    return f.events
