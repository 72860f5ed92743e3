"""Treasures: a trader takes all but one of its kingdom's treasures (digest 1.14)."""

from __future__ import annotations

from itertools import combinations

from shared.games.tigris import events as ev
from shared.games.tigris.board import CORNERS
from shared.games.tigris.rules.flow import Emitter, resume
from shared.games.tigris.rules.kingdoms import Regions
from shared.games.tigris.state import ChooseTreasures, Stage, State
from shared.games.tigris_common.colours import LEADERS, Leader

TRADER = LEADERS.index(Leader.TRADER)


def due(state: State) -> tuple[int, int, tuple[int, ...]] | None:
    """The first kingdom owing treasures: (trader's seat, count, its treasure squares)."""
    if len(state.treasures) < 2:
        return None
    regions = Regions(state)
    on_board = set(state.treasures)
    for rid in regions.kingdoms():
        seat = regions.leader_of(rid, TRADER)
        if seat is None:
            continue
        here = tuple(sorted(sq for sq in regions.members[rid] if sq in on_board))
        if len(here) >= 2:
            return seat, len(here) - 1, here
    return None


def choices(candidates: tuple[int, ...], count: int) -> list[tuple[int, ...]]:
    """Every allowed pick: corner treasures must be taken first."""
    corners = [sq for sq in candidates if sq in CORNERS]
    if len(corners) >= count:
        return [tuple(c) for c in combinations(corners, count)]
    others = [sq for sq in candidates if sq not in CORNERS]
    return [tuple(sorted((*corners, *extra))) for extra in combinations(others, count - len(corners))]


def collect(em: Emitter, stage: Stage) -> bool:
    """Hand out every treasure owed; ``True`` if a seat must choose which."""
    while (owed := due(em.state)) is not None:
        seat, count, candidates = owed
        picks = choices(candidates, count)
        if len(picks) > 1:
            em.emit(ev.TreasureChoiceOffered(seat=seat, count=count, candidates=candidates, stage=stage))
            return True
        em.emit(ev.TreasuresTaken(seat=seat, squares=picks[0]))
    return False


def take(em: Emitter, phase: ChooseTreasures, squares: tuple[int, ...]) -> None:
    em.emit(ev.TreasuresTaken(seat=phase.seat, squares=squares))
    resume(em, phase.stage)
