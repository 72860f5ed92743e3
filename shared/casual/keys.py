"""The store's keys of casual tables: each invitation's stream in its partition's
slot, and the records of casual tables in the platform's slot."""

from __future__ import annotations

from shared.eventstore.keys import AggregateKeys, platform_key, platform_record


class CasualKeys(AggregateKeys):
    __slots__ = ()
    namespace = "casual"


casual_keys = CasualKeys.of

#: table id -> JSON ``{"rated": bool, "seats": [player id or null, ...]}`` of each casual table.
CASUAL_TABLES = platform_key("casual:tables")
#: Hash: seat -> that seat's token (kept once, server-side).
casual_tokens = platform_record("casual", ":tokens")
