"""Untrusted input: any command with any field values is accepted or rejected, never a crash."""

from __future__ import annotations

import contextlib
import typing

import msgspec
import pytest

from shared.games.catan import CATAN, CATAN_CK
from shared.games.catan.commands import CatanCommand
from shared.kernel.playout import play
from shared.kernel.rejection import RuleViolation
from shared.kernel.rng import Rng

NAMES = ("spy", "merchant", "knight", "alchemist", "bogus", "")


def _value(t, rng: Rng):
    if t is int:
        return rng.between(-3, 80)
    if t is str:
        return rng.choice(NAMES)
    if t == tuple[int, ...]:
        return tuple(rng.between(-1, 3) for _ in range(rng.choice((0, 3, 8, 8, 8))))
    if t == tuple[str, ...]:
        return tuple(rng.choice(NAMES) for _ in range(rng.below(3)))
    raise AssertionError(t)


def random_command(rng: Rng):
    kind = rng.choice(typing.get_args(CatanCommand))
    # Built in code, commands skip the decoder's bounds: the rules must still cope with any value.
    hints = typing.get_type_hints(kind)  # bounds (Annotated) stripped
    return kind(**{f.name: _value(hints[f.name], rng) for f in msgspec.structs.fields(kind)})


@pytest.mark.parametrize("game", [CATAN, CATAN_CK], ids=lambda g: g.key)
def test_random_commands_never_crash_decide(game):
    p = play(game, 4, bytes(range(1, 33)), max_steps=700)
    state = None
    rng = Rng(bytes(32), 3)
    for i, event in enumerate(p.events):
        state = game.evolve(state, event)
        if i < len(p.opening) - 1 or i % 40:
            continue
        for _ in range(60):
            command = random_command(rng)
            for seat in game.actors(state) or {0}:
                with contextlib.suppress(RuleViolation):
                    game.decide(state, seat, command, Rng(bytes(32), i))
