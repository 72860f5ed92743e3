"""Each game's sampler (``Secrets.sample_hidden``), the search bot's only way
to the hidden state (issue 25): a determinisation shows its seat exactly the
view document the true state shows (view, awaited seats, its legal commands),
is the same whatever the seat may not see (``conceal`` of every other owner
and of nobody, with the same generator), actually varies what is hidden, and
is a state the engine plays on from.
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from shared.games import registry
from shared.kernel.rng import Rng
from tests.games.secrecy import harness

BUILTIN = sorted(registry.BUILTIN)
GAMES = [registry.get(key) for key in BUILTIN]
TABLES = [
    (key, seats)
    for key in BUILTIN
    for seats in sorted({registry.get(key).min_seats, registry.get(key).max_seats})
]


def _seed(*parts: object) -> bytes:
    return hashlib.blake2b(repr(parts).encode(), digest_size=32).digest()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.key)
def test_every_builtin_game_has_a_sampler(game: Any) -> None:
    assert callable(game.secrets.sample_hidden), f"{game.key}: no sampler, so no hard bot"
    assert {"easy", "medium", "hard", "random"} <= set(game.bots), f"{game.key}: levels missing"


def _play_on(game: Any, state: Any, seed: bytes, moves: int) -> None:
    for n in range(moves):
        if game.is_over(state):
            return
        seat = min(game.actors(state))
        command = game.bots["random"](state, seat, Rng(seed, 500 + n))
        state = game.fold(game.decide(state, seat, command, Rng(seed, 900 + n)), state)


@pytest.mark.parametrize(("key", "seats"), TABLES)
def test_a_sample_shows_its_seat_what_the_state_shows_and_nothing_else(key: str, seats: int) -> None:
    game = registry.get(key)
    sample = game.secrets.sample_hidden
    assert sample is not None
    seed = _seed("samplers", key, seats)
    varied = 0
    worlds = harness.states(game, seats, seed, count=12)
    assert worlds, f"{key}: no state to sample"
    for n, world in enumerate(worlds):
        docs = world.docs()
        raw = harness.encode(world.state)
        for seat in range(seats):
            for trial in range(2):
                rng_seed = _seed(n, seat, trial)
                drawn = sample(world.state, seat, Rng(rng_seed, 0))
                again = harness.World(game, drawn, world.version).docs()
                assert again[seat] == docs[seat], f"{key}: seat {seat}'s view of a sample differs (state {n})"
                encoded = harness.encode(drawn)
                varied += encoded != raw
                for owner in harness.audiences(seats):
                    if owner == seat:
                        continue
                    other = game.secrets.conceal(world.state, owner, Rng(rng_seed, 1))
                    assert harness.encode(sample(other, seat, Rng(rng_seed, 0))) == encoded, (
                        f"{key}: seat {seat}'s sample depends on what "
                        f"{'no seat' if owner is None else f'seat {owner}'} hides (state {n})"
                    )
                _play_on(game, drawn, rng_seed, 25)
    assert varied, f"{key}: the sampler never drew a state other than the true one"
