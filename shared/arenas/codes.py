"""Rejection codes of arena commands: stable once published."""

NO_ARENA = "unknown_arena"
ALREADY_CREATED = "arena_exists"
INVALID_ARENA = "invalid_arena"
CLOSED = "arena_closed"
NOT_OPEN_YET = "arena_not_open_yet"
ALREADY_IN = "already_in_arena"
NOT_IN = "not_in_arena"
UNKNOWN_TABLE = "unknown_table"
RESULT_CONFLICT = "result_conflict"
#: The arena has as many players as it may take.
FULL = "arena_full"
