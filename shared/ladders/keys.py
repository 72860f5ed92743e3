"""The store's keys of ladders: each game's ladder stream in its partition's slot,
and its read models in the platform's slot."""

from __future__ import annotations

from shared.eventstore.keys import AggregateKeys, platform_key, platform_record


class LadderKeys(AggregateKeys):
    """The log of one game's ladder (``game_id`` holds the game's key)."""

    __slots__ = ()
    namespace = "ladder"


ladder_keys = LadderKeys.of

#: The set of games that have a ladder.
LADDERS = platform_key("ladders")
#: String: the game's leaderboard (JSON :class:`shared.ladders.ladder.LadderView`).
ladder_board = platform_record("ladders", ":board")
#: The ladder version the read models were last written at.
ladder_checkpoint = platform_record("ladders", ":projected")
