"""Self-play: drive a game with bots, exactly as the platform would.

Used by the bots' tests, the engine benchmarks and the property tests, so all
three exercise the same sequence of ``create``/``decide``/``evolve`` calls the
reducer makes: ``create`` draws from stream 0, and each command is decided
with a generator whose stream is the game version (the event count) before it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from shared.kernel.contract import Bot, GameModule
from shared.kernel.messages import Record
from shared.kernel.rng import Rng


class Step(Record, frozen=True):
    version: int  # the version the command was decided at
    seat: int
    command: Any
    events: tuple[Any, ...]


class Playout(Record, frozen=True):
    opening: tuple[Any, ...]
    steps: tuple[Step, ...]
    state: Any

    @property
    def events(self) -> list[Any]:
        out = list(self.opening)
        for step in self.steps:
            out.extend(step.events)
        return out


def play(
    game: GameModule[Any, Any, Any, Any],
    seats: int,
    seed: bytes,
    bots: Mapping[int, Bot] | None = None,
    options: Mapping[str, Any] | None = None,
    max_steps: int = 100_000,
    after_event: Callable[[Any, Any], None] | None = None,
) -> Playout:
    """Play until the game is over or ``max_steps`` commands were decided.

    ``bots`` maps seats to bots (default: the game's random bot). The bots'
    own randomness comes from a different stream family than the game's, so a
    bot never sees the game's future draws. ``after_event(state, event)`` runs
    after every folded event (invariant checks).
    """
    opts = game.options(options)
    chooser = {s: (bots or {}).get(s, game.bots["random"]) for s in range(seats)}
    opening = game.create(opts, seats, Rng(seed, 0))
    state = None
    for event in opening:
        state = game.evolve(state, event)
        if after_event:
            after_event(state, event)
    version = len(opening)
    steps: list[Step] = []
    bot_seed = bytes(b ^ 0x5A for b in seed)
    while len(steps) < max_steps and not game.is_over(state):
        actors = game.actors(state)
        if not actors:
            raise AssertionError(f"{game.key}: nobody may act in a running game")
        seat = min(actors)
        command = chooser[seat](state, seat, Rng(bot_seed, version))
        events = game.decide(state, seat, command, Rng(seed, version))
        for event in events:
            state = game.evolve(state, event)
            if after_event:
                after_event(state, event)
        steps.append(Step(version=version, seat=seat, command=command, events=tuple(events)))
        version += len(events)
    return Playout(opening=tuple(opening), steps=tuple(steps), state=state)
