"""Table ``g`` of high card as the reducer tests drive it against a real Valkey:
its seats' tokens, a random legal move sent as the gateway would, and the check
that its log stayed a single line whatever the faults."""

from __future__ import annotations

import random
from typing import Any

from shared.games import registry
from shared.messaging.messages import CommandMsg
from tests.support.messages import move_msg

GAME = "highcard"
TOKENS = ("seat-0", "seat-1")


def a_move(table: Any, command_id: str, rng: random.Random) -> CommandMsg:
    game = registry.get(GAME)
    seat = rng.choice(sorted(game.actors(table.state)))
    command = rng.choice(game.legal(table.state, seat))
    return move_msg(TOKENS[seat], command, command_id, seat=seat)


def assert_linear(envelopes: list[Any], commands: list[Any]) -> None:
    assert [e.version for e in envelopes] == list(range(1, len(envelopes) + 1)), "a gap or a fork"
    ids = [c.command_id for c in commands]
    assert len(ids) == len(set(ids)), "a command applied twice"
