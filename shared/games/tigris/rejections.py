"""Why a command is refused: every rejection code of the game, named once, with a
sentence a player understands.

The code strings are published (clients match on them) and never change. The
legality checks of ``rules`` return a code (or ``None``) rather than raise, so
that ``legal`` and the tests can ask the very same predicates ``decide``
enforces; ``decide`` raises :class:`RuleViolation` through :func:`fail`.
"""

from __future__ import annotations

from typing import Any, NoReturn

from shared.kernel.rejection import GAME_OVER, NOT_YOUR_TURN, WRONG_PHASE, RuleViolation

OFF_BOARD = "off_board"
SQUARE_OCCUPIED = "square_occupied"
LEADER_ON_RIVER = "leader_on_river"
NO_ADJACENT_TEMPLE = "no_adjacent_temple"
JOINS_KINGDOMS = "joins_kingdoms"
SAME_SQUARE = "same_square"
LEADER_NOT_ON_BOARD = "leader_not_on_board"
TILE_NOT_IN_HAND = "tile_not_in_hand"
FARM_OFF_RIVER = "farm_off_river"
TILE_ON_RIVER = "tile_on_river"
JOINS_THREE_KINGDOMS = "joins_three_kingdoms"
NO_CATASTROPHES_LEFT = "no_catastrophes_left"
CATASTROPHE_ON_LEADER = "catastrophe_on_leader"
CATASTROPHE_ON_CATASTROPHE = "catastrophe_on_catastrophe"
CATASTROPHE_ON_MONUMENT = "catastrophe_on_monument"
CATASTROPHE_ON_TREASURE = "catastrophe_on_treasure"
BAD_SWAP = "bad_swap"
PASS_NOT_ALLOWED = "pass_not_allowed"
BAD_SUPPORT = "bad_support"
SUPPORT_VARIANT = "support_variant"
NOT_A_PENDING_WAR = "not_a_pending_war"
NOT_A_MONUMENT_OPTION = "not_a_monument_option"
BAD_TREASURES = "bad_treasures"

MESSAGES: dict[str, str] = {
    GAME_OVER: "The game is over.",
    NOT_YOUR_TURN: "Another seat is awaited now.",
    WRONG_PHASE: "That command does not answer the decision awaited now.",
    OFF_BOARD: "That square is not on the board.",
    SQUARE_OCCUPIED: "That square is not empty.",
    LEADER_ON_RIVER: "Leaders may not stand on a river square.",
    NO_ADJACENT_TEMPLE: "A leader must stand next to a face-up temple.",
    JOINS_KINGDOMS: "A leader may not join two kingdoms.",
    SAME_SQUARE: "Moving a leader onto its own square is no action.",
    LEADER_NOT_ON_BOARD: "That leader is not on the board.",
    TILE_NOT_IN_HAND: "You do not hold enough tiles of that colour.",
    FARM_OFF_RIVER: "Blue farms may only be placed on river squares.",
    TILE_ON_RIVER: "Only blue farms may be placed on river squares.",
    JOINS_THREE_KINGDOMS: "A tile may not touch three or more kingdoms.",
    NO_CATASTROPHES_LEFT: "You have no catastrophe tiles left.",
    CATASTROPHE_ON_LEADER: "A catastrophe may not hit a leader.",
    CATASTROPHE_ON_CATASTROPHE: "That square already holds a catastrophe.",
    CATASTROPHE_ON_MONUMENT: "A catastrophe may not hit a monument.",
    CATASTROPHE_ON_TREASURE: "A catastrophe may not hit a tile with a treasure.",
    BAD_SWAP: "Swap between one tile and your whole hand, counting each colour from hand.",
    PASS_NOT_ALLOWED: "Passing is not allowed while another action is possible.",
    BAD_SUPPORT: "Commit between zero and all the supporter tiles you hold.",
    SUPPORT_VARIANT: "In the English variant a committed support must exceed (attacker) or tie (defender).",
    NOT_A_PENDING_WAR: "No war of that colour is pending.",
    NOT_A_MONUMENT_OPTION: "That monument cannot be built on that square now.",
    BAD_TREASURES: "Take exactly the offered number of treasures, corner treasures first.",
}


def fail(code: str, **details: Any) -> NoReturn:
    raise RuleViolation(code, MESSAGES[code], **details)


def check(problem: str | None, **details: Any) -> None:
    """Refuse with ``problem`` if a legality check found one."""
    if problem is not None:
        fail(problem, **details)
