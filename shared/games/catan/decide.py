"""``decide``: dispatch on (phase, command), settle Longest Road, run queued stages, check victory."""

from __future__ import annotations

from typing import NoReturn

from shared.games.catan import commands as cmd
from shared.games.catan import setup
from shared.games.catan.events import CatanEvent
from shared.games.catan.evolve import Folded, apply, remember
from shared.games.catan.legal import actors
from shared.games.catan.rules import actions, domestic, tasks, turn
from shared.games.catan.rules.flow import CatanFold
from shared.games.catan.rules.longest_road import settle
from shared.games.catan.rules.victory import check_win
from shared.games.catan.state import State
from shared.kernel.fold import Fold
from shared.kernel.rejection import GAME_OVER, ILLEGAL_MOVE, NOT_YOUR_TURN, RuleViolation
from shared.kernel.rng import Rng


def _illegal(command: cmd.CatanCommand) -> NoReturn:
    raise RuleViolation(ILLEGAL_MOVE, "That move is not allowed now.", command=type(command).__name__)


def decide(state: State, seat: int, command: cmd.CatanCommand, rng: Rng) -> list[CatanEvent]:
    # ``require`` written out: its keyword details would be built at every accepted command.
    if state.phase == "over":
        raise RuleViolation(GAME_OVER, "The game is over.")
    if seat not in actors(state):
        raise RuleViolation(NOT_YOUR_TURN, "Nothing is awaited from you now.", seat=seat)
    steps: Folded = {}

    def step(before: State, event: CatanEvent) -> State:
        after = apply(before, event)
        steps[id(event)] = (before, event, after)
        return after

    f: CatanFold = Fold(state, step, rng)
    if state.task is not None:
        if not tasks.valid(command, state, seat):
            _illegal(command)
        tasks.handle(f, seat, command)
    elif state.phase == "setup":
        if not setup.accepts(command, state, seat):
            _illegal(command)
        setup.apply(f, seat, command)
    elif state.phase == "roll":
        if not actions.roll_accepts(command, state, seat):
            _illegal(command)
        actions.roll_apply(f, seat, command)
    elif isinstance(command, cmd.OfferTrade):
        # Checked by predicate, not by listing: the family of offers is too large to list.
        domestic.offer(f, seat, command)
    else:
        if not actions.main_accepts(command, state, seat):
            _illegal(command)
        actions.main_apply(f, seat, command)
    settle(f, state)
    turn.advance(f)
    check_win(f)
    # The caller folds these very events into ``state`` next: ``evolve`` answers from the steps.
    remember(steps)
    return f.events
