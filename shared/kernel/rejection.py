"""Rule violations: a player's mistake is a value with a stable code, not a crash.

``decide`` raises :class:`RuleViolation`; the platform turns it into a
rejection with the code, a message a person understands, and details. Codes
are lowercase snake case and never change once published. Bugs and broken
invariants are ordinary exceptions.
"""

from __future__ import annotations

from typing import Any


class RuleViolation(Exception):
    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.details = details


def require(condition: bool, code: str, message: str, **details: Any) -> None:
    """Raise a :class:`RuleViolation` unless ``condition`` holds."""
    if not condition:
        raise RuleViolation(code, message, **details)


# Codes every game shares; games add their own (``tile_not_in_hand`` ...).
NOT_YOUR_TURN = "not_your_turn"
WRONG_PHASE = "wrong_phase"
GAME_OVER = "game_over"
ILLEGAL_MOVE = "illegal_move"
