"""The folded state of one player account."""

from __future__ import annotations

from typing import Annotated

import msgspec

from shared.kernel.bounds import EpochMs, Name
from shared.kernel.messages import Record
from shared.players.commands import DisplayName, KeyHash


class PlayerState(Record, frozen=True):
    player_id: Name
    name: DisplayName
    bot: bool
    operator: Name | None
    #: The current key's hash: the only credential kept.
    key_hash: KeyHash
    registered_at: EpochMs
    #: How often the key was replaced.
    rotations: Annotated[int, msgspec.Meta(ge=0, le=2**31)] = 0
