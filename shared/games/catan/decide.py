"""``decide``: dispatch on (phase, command), settle Longest Road, run queued stages, check victory."""

from __future__ import annotations

from typing import Any

from shared.games.catan import setup
from shared.games.catan.events import CatanEvent
from shared.games.catan.legal import actors
from shared.games.catan.rules import actions, tasks, turn
from shared.games.catan.rules.flow import Ctx
from shared.games.catan.rules.longest_road import settle
from shared.games.catan.rules.victory import check_win
from shared.games.catan.state import State
from shared.kernel.rejection import GAME_OVER, ILLEGAL_MOVE, NOT_YOUR_TURN, require
from shared.kernel.rng import Rng


def _illegal(command: Any) -> None:
    require(False, ILLEGAL_MOVE, "That move is not allowed now.", command=type(command).__name__)


def decide(state: State, seat: int, command: Any, rng: Rng) -> list[CatanEvent]:
    require(state.phase != "over", GAME_OVER, "The game is over.")
    require(seat in actors(state), NOT_YOUR_TURN, "Nothing is awaited from you now.", seat=seat)
    ctx = Ctx(state, rng)
    if state.task is not None:
        if not tasks.valid(state, seat, command):
            _illegal(command)
        tasks.handle(ctx, seat, command)
    elif state.phase == "setup":
        if command not in setup.options(state, seat):
            _illegal(command)
        setup.apply(ctx, seat, command)
    elif state.phase == "roll":
        options, apply = actions.ROLL
        if command not in options(state, seat):
            _illegal(command)
        apply(ctx, seat, command)
    else:
        _main(ctx, seat, command)
    settle(ctx, state)
    turn.advance(ctx)
    check_win(ctx)
    return ctx.events


def _main(ctx: Ctx, seat: int, command: Any) -> None:
    kind = type(command)
    if kind in actions.OPEN:
        actions.OPEN[kind](ctx, seat, command)
        return
    entry = actions.MAIN.get(kind)
    if entry is None or command not in entry[0](ctx.state, seat):
        _illegal(command)
        return
    entry[1](ctx, seat, command)
