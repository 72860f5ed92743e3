"""Treasures: a trader takes all but one of its kingdom's treasures (docs/rules/tigris.md §13)."""

from __future__ import annotations

from itertools import combinations, compress

from shared.games.tigris import events as ev
from shared.games.tigris.bitboard import BIT, Masks, flags, flood, squares_mask
from shared.games.tigris.board import CORNERS, SQUARES
from shared.games.tigris.rules.kingdoms import Regions
from shared.games.tigris.rules.play import Play
from shared.games.tigris.state import ChooseTreasures, Stage, State
from shared.games.tigris_common.colours import LEADERS, Leader

TRADER = LEADERS.index(Leader.TRADER)


def due(state: State) -> tuple[int, int, tuple[int, ...]] | None:
    """The first kingdom owing treasures: (trader's seat, count, its treasure squares)."""
    if len(state.treasures) < 2:
        return None
    # Runs after every action, so it floods only the traders' kingdoms (as masks)
    # rather than labelling the whole board.
    occupied = Masks(state).occupied
    on_board = squares_mask(state.treasures)
    owing: list[tuple[int, int, int]] = []  # (lowest square's bit, seat, treasures)
    seen = 0
    for seat, row in enumerate(state.leaders):
        sq = row[TRADER]
        if sq is None:
            continue
        if seen & BIT[sq]:
            # Two traders in one kingdom: play never gets here (a revolt or war settles
            # them first); kept exact all the same: the full labelling's order decides.
            return _due_by_regions(state)
        kingdom = flood(BIT[sq], occupied)
        seen |= kingdom
        here = kingdom & on_board
        if here & (here - 1):  # at least two
            owing.append((kingdom & -kingdom, seat, here))
    if not owing:
        return None
    # Regions are numbered by their lowest square: the first kingdom is the lowest.
    _, seat, here = min(owing)
    squares = tuple(compress(range(SQUARES), flags(here)))
    return seat, len(squares) - 1, squares


def _due_by_regions(state: State) -> tuple[int, int, tuple[int, ...]] | None:
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


def collect(play: Play, stage: Stage) -> bool:
    """Hand out every treasure owed; ``True`` if a seat must choose which."""
    while (owed := due(play.state)) is not None:
        seat, count, candidates = owed
        picks = choices(candidates, count)
        if len(picks) > 1:
            play.emit(ev.TreasureChoiceOffered(seat=seat, count=count, candidates=candidates, stage=stage))
            return True
        play.emit(ev.TreasuresTaken(seat=seat, squares=picks[0]))
    return False


def take(play: Play, phase: ChooseTreasures, squares: tuple[int, ...]) -> Stage:
    """Hand out the chosen treasures; the walk goes on at the stage that offered them."""
    play.emit(ev.TreasuresTaken(seat=phase.seat, squares=squares))
    return phase.stage
