"""Commands on a player account. Ids, key hashes and times come from the shell,
so deciding twice gives the same events."""

from __future__ import annotations

from typing import Annotated

import msgspec

from shared.kernel.bounds import EpochMs, Name
from shared.kernel.messages import Command

#: A SHA-256 hex digest (:func:`shared.kernel.auth.token_hash`).
KeyHash = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$")]
#: A display name: what people read on a leaderboard.
DisplayName = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]


class PlayerCommand(Command, kw_only=True):
    at_ms: EpochMs = 0


class Register(PlayerCommand, tag="player.register", kw_only=True):
    player_id: Name
    name: DisplayName
    #: A program plays this account (through the bot API), not a person.
    bot: bool = False
    #: Who runs the bot: a person or a team, for the leaderboard (bots only).
    operator: Name | None = None
    key_hash: KeyHash


class RotateKey(PlayerCommand, tag="player.rotate_key", kw_only=True):
    key_hash: KeyHash


PlayerCommandUnion = Register | RotateKey
