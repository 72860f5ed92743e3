"""Secrecy, checked the same way for every registered game (issue 8).

Each game states its own secrets (``GameModule.secrets``); these tests vary
them in random reachable states and require that no other audience can tell,
from its view or from the feed of the commands that follow, and that no event
delivered along a whole game names an item its audience may not know.
"""

from __future__ import annotations

import dataclasses
import hashlib
from typing import Any

import pytest

from shared.games import registry
from shared.kernel.contract import GameModule, Secrets, no_ids
from shared.kernel.playout import play
from shared.kernel.rng import Rng
from shared.kernel.search import by_iterations
from tests.games.secrecy import harness

GAMES = [registry.get(key) for key in registry.available()]
TABLES = [(game.key, seats) for game in GAMES for seats in range(game.min_seats, game.max_seats + 1)]


def _seed(*parts: object) -> bytes:
    return hashlib.blake2b(repr(parts).encode(), digest_size=32).digest()


def test_the_fixture_game_is_among_them() -> None:
    assert "highcard" in registry.available(), "ZIGGURAT_EXTRA_GAMES should name the fixture game"


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.key)
def test_every_registered_game_states_its_secrets(game: Any) -> None:
    assert isinstance(game.secrets, Secrets)
    for hook in ("conceal", "reveals", "hidden_ids", "named_ids"):
        assert callable(getattr(game.secrets, hook)), f"{game.key}: secrets.{hook}"


def test_a_game_without_secrets_cannot_be_built() -> None:
    game = registry.get("highcard")
    fields = {f.name: getattr(game, f.name) for f in dataclasses.fields(game) if f.name != "secrets"}
    with pytest.raises(TypeError, match="secrets"):
        GameModule(**fields)


@pytest.mark.parametrize(("key", "seats"), TABLES)
def test_hidden_facts_reach_no_other_audience(key: str, seats: int) -> None:
    harness.check_game(registry.get(key), seats, _seed("views and feeds", key, seats))


@pytest.mark.parametrize(("key", "seats"), TABLES)
def test_no_event_names_an_id_hidden_from_its_audience(key: str, seats: int) -> None:
    game = registry.get(key)
    seed = _seed("ids", key, seats)
    named = harness.check_ids(game, play(game, seats, seed), seed)
    if game.secrets.hidden_ids is not no_ids:
        assert named, f"{key}: no delivered event named any id, so the check saw nothing"


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.key)
def test_bots_choose_from_what_their_seat_sees(game: Any) -> None:
    """Every bot of every level, the search bot included: the same move whatever
    the seat may not see (another seat's secrets, or what no seat sees). The
    search runs more iterations than its root has candidates, so that UCT, not
    the order of first visits, picks its move."""
    seats = game.max_seats
    seed = _seed("bots", game.key)
    for n, world in enumerate(harness.states(game, seats, seed, count=3)):
        for seat in sorted(game.actors(world.state)):
            for name, level in game.bots.items():
                bot = by_iterations(level, 48)
                chosen = harness.encode(bot(world.state, seat, Rng(seed, n)))
                for owner in harness.audiences(seats):
                    if owner == seat:
                        continue
                    other = game.secrets.conceal(world.state, owner, Rng(seed, 100 + n))
                    again = harness.encode(bot(other, seat, Rng(seed, n)))
                    assert again == chosen, f"{game.key}: the {name} bot of seat {seat} peeks at {owner}"
