"""``decide``: dispatch on (phase, command), settle Longest Road, run queued stages, check victory."""

from __future__ import annotations

from typing import Any

from shared.games.catan import setup
from shared.games.catan.events import CatanEvent
from shared.games.catan.evolve import evolve
from shared.games.catan.legal import actors
from shared.games.catan.rules import actions, tasks, turn
from shared.games.catan.rules.flow import CatanFold
from shared.games.catan.rules.longest_road import settle
from shared.games.catan.rules.victory import check_win
from shared.games.catan.state import State
from shared.kernel.fold import Fold
from shared.kernel.rejection import GAME_OVER, ILLEGAL_MOVE, NOT_YOUR_TURN, require
from shared.kernel.rng import Rng


def _illegal(command: Any) -> None:
    require(False, ILLEGAL_MOVE, "That move is not allowed now.", command=type(command).__name__)


def decide(state: State, seat: int, command: Any, rng: Rng) -> list[CatanEvent]:
    require(state.phase != "over", GAME_OVER, "The game is over.")
    require(seat in actors(state), NOT_YOUR_TURN, "Nothing is awaited from you now.", seat=seat)
    f: CatanFold = Fold(state, evolve, rng)
    if state.task is not None:
        if not tasks.valid(state, seat, command):
            _illegal(command)
        tasks.handle(f, seat, command)
    elif state.phase == "setup":
        if command not in setup.options(state, seat):
            _illegal(command)
        setup.apply(f, seat, command)
    elif state.phase == "roll":
        options, apply = actions.ROLL
        if command not in options(state, seat):
            _illegal(command)
        apply(f, seat, command)
    else:
        _main(f, seat, command)
    settle(f, state)
    turn.advance(f)
    check_win(f)
    return f.events


def _main(f: CatanFold, seat: int, command: Any) -> None:
    kind = type(command)
    if kind in actions.OPEN:
        actions.OPEN[kind](f, seat, command)
        return
    entry = actions.MAIN.get(kind)
    if entry is None or command not in entry[0](f.state, seat):
        _illegal(command)
        return
    entry[1](f, seat, command)
