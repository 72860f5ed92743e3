"""The turn: rolling (event die first), the resolution stages, ending the turn
(docs/rules/catan.md §4)."""

from __future__ import annotations

from collections.abc import Callable

from shared.games.catan import events as ev
from shared.games.catan.rules import barbarians, production, robber
from shared.games.catan.rules.flow import NO_EFFECTS, CatanFold
from shared.games.catan.rules.progress import draws
from shared.games.catan.rules.victory import check_win

EVENT_FACES = ("ship", "ship", "ship", "trade", "politics", "science")

STAGES: dict[str, Callable[[CatanFold], None]] = {
    "ship": barbarians.advance_ship,
    "gate": draws.gate,
    "limit": draws.open_limit_discards,
    "production": production.produce,
    "discard": robber.open_discards,
    "robber": robber.open_robber,
}


def roll(f: CatanFold, yellow: int | None = None, red: int | None = None) -> None:
    s = f.state
    yellow = f.rng.between(1, 6) if yellow is None else yellow
    red = f.rng.between(1, 6) if red is None else red
    face = f.rng.choice(EVENT_FACES) if s.options.ck else ""
    f.emit(ev.DiceRolled(yellow=yellow, red=red, event=face))
    f.emit(ev.PhaseSet(phase="main", active=s.active, turn=s.turn))
    stages: tuple[str, ...] = ()
    if face == "ship":
        stages = ("ship", "limit")
    elif face:
        stages = ("gate", "limit")
    stages += ("discard", "robber") if yellow + red == 7 else ("production",)
    run(f, stages)


def run(f: CatanFold, stages: tuple[str, ...]) -> None:
    """Run stages in order; the ones left when a decision is awaited are stored for later."""
    for i, stage in enumerate(stages):
        if f.state.phase == "over":
            return
        STAGES[stage](f)
        if f.state.task is not None:
            rest = stages[i + 1 :]
            if rest:
                f.emit(ev.TodoSet(todo=rest))
            return


def advance(f: CatanFold) -> None:
    """Resume the stored stages once the decision that paused them is taken."""
    if f.state.task is None and f.state.todo and f.state.phase != "over":
        todo = f.state.todo
        f.emit(ev.TodoSet(todo=()))
        run(f, todo)


def end_turn(f: CatanFold) -> None:
    s = f.state
    if s.effects != NO_EFFECTS:
        f.emit(ev.EffectsSet(effects=NO_EFFECTS))
    f.emit(ev.PhaseSet(phase="roll", active=(s.active + 1) % s.seats, turn=s.turn + 1))
    # A seat that reached the target on another's turn wins at the start of its own.
    check_win(f)
