"""The reference oracle for ``legal`` in the acting phase: slow on purpose.

Every candidate command, in the order the engine lists them, kept exactly
when the predicate ``decide`` enforces finds no problem with it. Each check
gets a freshly flooded board, so none of the engine's shortcuts (shared
regions, incremental refills, bit masks, cached commands) is involved.
"""

from __future__ import annotations

from itertools import product

from shared.games.tigris import commands as cmd
from shared.games.tigris.board import SQUARES
from shared.games.tigris.rules import catastrophes, placement
from shared.games.tigris.rules.kingdoms import Regions
from shared.games.tigris.state import State
from shared.games.tigris_common.colours import COLOURS, LEADERS


def reference_actions(state: State, seat: int) -> list[cmd.TigrisCommand]:
    out: list[cmd.TigrisCommand] = []
    for index, leader in enumerate(LEADERS):
        current = state.leaders[seat][index]
        lift = current is not None and state.options.judge_move_with_leader_lifted
        board = Regions(state, lifted=current if lift else None)
        for sq in range(SQUARES):
            if placement.leader_problem(state, board, seat, index, sq) is None:
                out.append(cmd.PositionLeader(leader=leader, square=sq))
        if current is not None:
            out.append(cmd.WithdrawLeader(leader=leader))
    board = Regions(state)
    for colour in COLOURS:
        for sq in range(SQUARES):
            if placement.tile_problem(state, board, seat, colour, sq) is None:
                out.append(cmd.PlaceTile(colour=colour, square=sq))
    for sq in range(SQUARES):
        if catastrophes.catastrophe_problem(state, seat, sq, board) is None:
            out.append(cmd.PlaceCatastrophe(square=sq))
    for red, blue, green, black in product(*(range(h + 1) for h in state.hands[seat])):
        if catastrophes.swap_problem(state, seat, (red, blue, green, black)) is None:
            out.append(cmd.SwapTiles(red=red, blue=blue, green=green, black=black))
    if state.options.allow_pass or not out:
        out.append(cmd.Pass())
    return out
