"""The store's keys of arenas: each arena's stream in its partition's slot, and the
records the arena runner and the gateway share in the platform's slot."""

from __future__ import annotations

from shared.eventstore.keys import AggregateKeys, platform_key, platform_record


class ArenaKeys(AggregateKeys):
    __slots__ = ()
    namespace = "arena"


arena_keys = ArenaKeys.of

#: The ids of arenas not yet closed (or with tables still in play): the arena runner's round.
ARENAS_OPEN = platform_key("arenas:open")
#: table id -> arena id, for every table an arena opened.
ARENA_TABLES = platform_key("arenas:tables")
#: Sorted set of arena ids by creation time.
ARENAS_INDEX = platform_key("arenas:index")
#: Hash: ``"<table id>:<seat>"`` -> that seat's token (kept once, server-side).
arena_tokens = platform_record("arenas", ":tokens")
