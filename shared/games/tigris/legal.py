"""Who is awaited, and every command a seat may issue now.

``legal`` filters candidates through the same predicates ``decide`` enforces,
so the two agree by construction (and the tests check it both ways).
"""

from __future__ import annotations

from itertools import product

from shared.games.tigris.board import INDEX, NEIGHBOURS, RIVER, SQUARES
from shared.games.tigris.commands import (
    BuildMonument,
    ChooseWarColour,
    CommitSupport,
    DeclineMonument,
    Pass,
    PlaceCatastrophe,
    PlaceTile,
    PositionLeader,
    SwapTiles,
    TakeTreasures,
    TigrisCommand,
    WithdrawLeader,
)
from shared.games.tigris.rules import catastrophes, placement, support, treasures
from shared.games.tigris.rules.kingdoms import Regions
from shared.games.tigris.state import (
    Acting,
    ChooseMonument,
    ChooseTreasures,
    ChooseWar,
    Over,
    State,
    Support,
)
from shared.games.tigris_common.colours import COLOURS, LEADERS, Colour


def actors(state: State) -> frozenset[int]:
    phase = state.phase
    if isinstance(phase, Over):
        return frozenset()
    if isinstance(phase, Support):
        return frozenset((support.awaited(phase),))
    if isinstance(phase, ChooseTreasures):
        return frozenset((phase.seat,))
    return frozenset((state.active,))


def legal(state: State, seat: int) -> list[TigrisCommand]:
    if seat not in actors(state):
        return []
    phase = state.phase
    if isinstance(phase, Support):
        return [CommitSupport(count=c) for c in support.support_range(state, phase, seat)]
    if isinstance(phase, ChooseWar):
        return [ChooseWarColour(colour=c) for c in phase.colours]
    if isinstance(phase, ChooseMonument):
        built: list[TigrisCommand] = [
            BuildMonument(top_left=o.top_left, monument=o.monument) for o in phase.options
        ]
        return [*built, DeclineMonument()]
    if isinstance(phase, ChooseTreasures):
        picks = treasures.choices(phase.candidates, phase.count)
        return [TakeTreasures(squares=p) for p in picks]
    assert isinstance(phase, Acting)
    return actions(state, seat)


def actions(state: State, seat: int) -> list[TigrisCommand]:
    base = Regions(state)  # one flood fill serves every check that lifts no leader
    out: list[TigrisCommand] = [*leader_actions(state, seat, base), *tile_actions(state, seat, base)]
    out += catastrophe_actions(state, seat, base)
    out += swap_actions(state, seat)
    if state.options.allow_pass or not out:
        out.append(Pass())
    return out


def leader_actions(state: State, seat: int, base: Regions) -> list[TigrisCommand]:
    """Every square next to a face-up temple, then the checks of
    ``placement.leader_problem`` that depend on which leader moves."""
    down, tiles, gone = base.down, state.tiles, set(state.catastrophes)
    temples = [sq for sq in range(SQUARES) if tiles[sq] is Colour.RED and sq not in down]
    near = sorted({n for t in temples for n in NEIGHBOURS[t]})
    near = [sq for sq in near if tiles[sq] is None and sq not in RIVER and sq not in gone]
    stay = state.options.allow_move_in_place
    out: list[TigrisCommand] = []
    for index, leader in enumerate(LEADERS):
        current = state.leaders[seat][index]
        regions = placement.judged_regions(state, seat, index, base)
        for sq in near:
            if sq in regions.pieces or (sq == current and not stay):
                continue
            if len(regions.adjacent_kingdoms(sq)) <= 1:
                out.append(PositionLeader(leader=leader, square=sq))
        if current is not None:
            out.append(WithdrawLeader(leader=leader))
    return out


def tile_actions(state: State, seat: int, regions: Regions) -> list[TigrisCommand]:
    """The checks of ``placement.tile_problem``, with the kingdom count shared by colours."""
    free = [sq for sq in range(SQUARES) if placement.empty(state, sq, regions.pieces)]
    fits = [sq for sq in free if len(regions.adjacent_kingdoms(sq)) <= 2]
    out: list[TigrisCommand] = []
    for colour in COLOURS:
        if state.hands[seat][INDEX[colour]] == 0:
            continue
        wet = colour is Colour.BLUE
        out += [PlaceTile(colour=colour, square=sq) for sq in fits if (sq in RIVER) == wet]
    return out


def catastrophe_actions(state: State, seat: int, regions: Regions) -> list[TigrisCommand]:
    if state.catastrophes_left[seat] == 0:
        return []
    return [
        PlaceCatastrophe(square=sq)
        for sq in range(SQUARES)
        if catastrophes.catastrophe_problem(state, seat, sq, regions) is None
    ]


def swap_actions(state: State, seat: int) -> list[TigrisCommand]:
    held = state.hands[seat]
    out: list[TigrisCommand] = []
    for counts in product(*(range(h + 1) for h in held)):
        if catastrophes.swap_problem(state, seat, counts) is None:  # type: ignore[arg-type]
            red, blue, green, black = counts
            out.append(SwapTiles(red=red, blue=blue, green=green, black=black))
    return out
