"""The rules of a player account: the events a command causes, or a :class:`RuleViolation`."""

from __future__ import annotations

import re
from collections.abc import Iterable

from msgspec.structs import replace

from shared.kernel.decider import Rules
from shared.kernel.fold import replay
from shared.kernel.rejection import RuleViolation, require
from shared.players import codes
from shared.players.commands import PlayerCommandUnion, Register, RotateKey
from shared.players.events import KeyRotated, PlayerEventUnion, Registered
from shared.players.state import PlayerState

#: Player ids travel in addresses and in keys of the store.
PLAYER_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
Events = list[PlayerEventUnion]


def decide(state: PlayerState | None, command: PlayerCommandUnion) -> Events:
    match command:
        case Register():
            require(state is None, codes.ALREADY_REGISTERED, f"Player {command.player_id} already exists.")
            require(
                PLAYER_ID.match(command.player_id) is not None,
                codes.INVALID_PLAYER,
                "A player id is 1 to 64 letters, digits, '-' or '_', starting with a letter or digit.",
            )
            require(bool(command.name.strip()), codes.INVALID_PLAYER, "A player needs a display name.")
            require(
                command.bot or command.operator is None,
                codes.INVALID_PLAYER,
                "Only a bot names who runs it.",
            )
            return [
                Registered(
                    player_id=command.player_id,
                    name=command.name.strip(),
                    bot=command.bot,
                    operator=command.operator,
                    key_hash=command.key_hash,
                    at_ms=command.at_ms,
                )
            ]
        case RotateKey():
            if state is None:
                raise RuleViolation(codes.NO_PLAYER, "There is no such player.")
            require(
                command.key_hash != state.key_hash, codes.SAME_KEY, "The new key must differ from the old."
            )
            return [KeyRotated(key_hash=command.key_hash, at_ms=command.at_ms)]
    raise AssertionError(f"unhandled command {command!r}")


def evolve(state: PlayerState | None, event: PlayerEventUnion) -> PlayerState:
    match event:
        case Registered():
            return PlayerState(
                player_id=event.player_id,
                name=event.name,
                bot=event.bot,
                operator=event.operator,
                key_hash=event.key_hash,
                registered_at=event.at_ms,
            )
        case KeyRotated():
            if state is None:
                raise ValueError("player.key_rotated before player.registered")
            return replace(state, key_hash=event.key_hash, rotations=state.rotations + 1)
    raise AssertionError(f"unhandled event {event!r}")


def fold(events: Iterable[PlayerEventUnion], state: PlayerState | None = None) -> PlayerState | None:
    return replay(evolve, events, state)


#: The account's decider: the one host of platform aggregates runs it.
DECIDER: Rules[PlayerCommandUnion, PlayerState | None, PlayerEventUnion] = Rules(None, decide, evolve)
