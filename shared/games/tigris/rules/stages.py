"""The order of the stages of an action and of the end of a turn (docs/rules/tigris.md §5.2, §15).

Kept apart from the walk itself (``flow``) so that a rule which ends a stage
can name the next one without importing the walk, which imports the rules.
"""

from __future__ import annotations

from shared.games.tigris.options import Options
from shared.games.tigris.state import Stage


def stages(options: Options) -> tuple[Stage, ...]:
    if options.treasures_before_monument:
        middle: tuple[Stage, ...] = ("treasures", "monument")
    else:
        middle = ("monument", "treasures")
    return ("wars", *middle, "end_action", "turn_treasures", "turn_end")


def after(stage: Stage, options: Options) -> Stage:
    order = stages(options)
    return order[order.index(stage) + 1]
