"""Stable rejection codes with a sentence a player understands.

Legality checks return a code (or ``None``) so that ``legal`` can filter with
the very same predicates ``decide`` enforces.
"""

from __future__ import annotations

from typing import Any, NoReturn

from shared.kernel.rejection import GAME_OVER, NOT_YOUR_TURN, WRONG_PHASE, RuleViolation

MESSAGES: dict[str, str] = {
    GAME_OVER: "The game is over.",
    NOT_YOUR_TURN: "Another seat is awaited now.",
    WRONG_PHASE: "That command does not answer the decision awaited now.",
    "off_board": "That square is not on the board.",
    "square_occupied": "That square is not empty.",
    "leader_on_river": "Leaders may not stand on a river square.",
    "no_adjacent_temple": "A leader must stand next to a face-up temple.",
    "joins_kingdoms": "A leader may not join two kingdoms.",
    "same_square": "Moving a leader onto its own square is no action.",
    "leader_not_on_board": "That leader is not on the board.",
    "tile_not_in_hand": "You do not hold enough tiles of that colour.",
    "farm_off_river": "Blue farms may only be placed on river squares.",
    "tile_on_river": "Only blue farms may be placed on river squares.",
    "joins_three_kingdoms": "A tile may not touch three or more kingdoms.",
    "no_catastrophes_left": "You have no catastrophe tiles left.",
    "catastrophe_on_leader": "A catastrophe may not hit a leader.",
    "catastrophe_on_catastrophe": "That square already holds a catastrophe.",
    "catastrophe_on_monument": "A catastrophe may not hit a monument.",
    "catastrophe_on_treasure": "A catastrophe may not hit a tile with a treasure.",
    "bad_swap": "Swap between one tile and your whole hand, counting each colour from hand.",
    "pass_not_allowed": "Passing is not allowed while another action is possible.",
    "bad_support": "Commit between zero and all the supporter tiles you hold.",
    "support_variant": "In the English variant a committed support must exceed (attacker) or tie (defender).",
    "not_a_pending_war": "No war of that colour is pending.",
    "not_a_monument_option": "That monument cannot be built on that square now.",
    "bad_treasures": "Take exactly the offered number of treasures, corner treasures first.",
}


def fail(code: str, **details: Any) -> NoReturn:
    raise RuleViolation(code, MESSAGES[code], **details)


def check(problem: str | None, **details: Any) -> None:
    if problem is not None:
        fail(problem, **details)
