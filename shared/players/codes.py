"""Rejection codes of player commands: stable once published."""

NO_PLAYER = "unknown_player"
ALREADY_REGISTERED = "player_exists"
INVALID_PLAYER = "invalid_player"
SAME_KEY = "key_unchanged"
