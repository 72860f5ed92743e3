"""Player accounts: pure, event-sourced, in the decide/evolve style of games and tournaments.

A player (a person or a bot someone runs) registers once and holds a player
key, the credential of the bot API. The platform keeps only the key's hash
(:func:`shared.kernel.auth.token_hash`), as for seat tokens; rotating the key
replaces the hash, so the old key stops working at once.

- :func:`decide.decide` ``(state | None, command) -> list[event]``
- :func:`decide.evolve` ``(state | None, event) -> state``
- commands :data:`commands.PlayerCommandUnion`, events :data:`events.PlayerEventUnion`
  (tags ``player.<snake_name>``), rejection codes in :mod:`codes`.
"""

from shared.players.commands import PlayerCommandUnion, Register, RotateKey
from shared.players.decide import decide, evolve, fold
from shared.players.events import KeyRotated, PlayerEventUnion, Registered
from shared.players.state import PlayerState

__all__ = [
    "KeyRotated",
    "PlayerCommandUnion",
    "PlayerEventUnion",
    "PlayerState",
    "Register",
    "Registered",
    "RotateKey",
    "decide",
    "evolve",
    "fold",
]
