"""The walk through an action's remaining stages and the end of the turn
(docs/rules/tigris.md §5.2, §15).

``decide`` performs an action's main effect (or applies the answer a seat
gave), which says where the walk goes on; ``resume`` then runs the stages
from there until one of them awaits a seat's decision. Every stage is a
no-op when it does not apply (no marker: no wars; no placed tile: no
monument), so the same walk serves every action. The stage rules only
report whether they await a seat; none of them calls back into this walk.
"""

from __future__ import annotations

from typing import assert_never

from shared.games.tigris.rules import monuments, treasures, turn, wars
from shared.games.tigris.rules.play import Play
from shared.games.tigris.rules.stages import stages
from shared.games.tigris.state import Stage


def resume(play: Play, start: Stage) -> None:
    """Run the stages from ``start`` until a seat is awaited or the turn is over."""
    order = stages(play.state.options)
    for stage in order[order.index(start) :]:
        if play.over:
            return
        if _awaits(play, stage):
            return


def _awaits(play: Play, stage: Stage) -> bool:
    """Run one stage; ``True`` when it leaves a seat's decision awaited (or the turn ended)."""
    timing = play.state.options.treasure_timing
    match stage:
        case "wars":
            return wars.next_war(play)
        case "monument":
            return monuments.offer(play)
        case "treasures":
            return timing == "action" and treasures.collect(play, stage)
        case "end_action":
            return turn.end_action(play)
        case "turn_treasures":
            return timing == "turn" and treasures.collect(play, stage)
        case "turn_end":
            turn.end_turn(play)
            return True
        case _:
            assert_never(stage)
