"""Where a player account sits: the records the bot API is built on."""

from __future__ import annotations

from shared.kernel.messages import Record


class Seat(Record, frozen=True):
    """One table a player sits at, with the seat's token (kept server-side: a
    player's key resolves to it, so the key acts only for the player's own seats)."""

    table_id: str
    game: str
    seat: int
    token: str
    #: ``tournament:<id>`` or ``casual``.
    source: str


class Turn(Record, frozen=True):
    """An inbox entry: look at this seat of this table, as of at least ``version``
    (0: whatever the table shows now)."""

    table_id: str
    seat: int
    version: int
