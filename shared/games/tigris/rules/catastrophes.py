"""Catastrophes, swaps and passes: the actions that place nothing that scores
(docs/rules/tigris.md §5.3, §8, §9)."""

from __future__ import annotations

from shared.games.tigris import events as ev
from shared.games.tigris import rejections as rj
from shared.games.tigris.board import SQUARES
from shared.games.tigris.rules.bag import draw
from shared.games.tigris.rules.kingdoms import Kingdoms, LocalKingdoms, stranded
from shared.games.tigris.rules.play import Play
from shared.games.tigris.state import Counts, Stage, State
from shared.games.tigris_common.colours import COLOURS, LEADERS


def catastrophe_problem(state: State, seat: int, sq: int, regions: Kingdoms | None = None) -> str | None:
    if not 0 <= sq < SQUARES:
        return rj.OFF_BOARD
    if state.catastrophes_left[seat] == 0:
        return rj.NO_CATASTROPHES_LEFT
    regions = regions or LocalKingdoms(state)  # only leaders and flipped tiles are asked
    if sq in regions.pieces:
        return rj.CATASTROPHE_ON_LEADER
    if sq in state.catastrophes:
        return rj.CATASTROPHE_ON_CATASTROPHE
    if sq in regions.down:
        return rj.CATASTROPHE_ON_MONUMENT
    if sq in state.treasures:
        return rj.CATASTROPHE_ON_TREASURE
    return None


def place_catastrophe(play: Play, seat: int, sq: int) -> Stage:
    play.emit(ev.CatastrophePlaced(seat=seat, square=sq, destroyed=play.state.tiles[sq]))
    for owner, index in stranded(play.state):
        play.emit(ev.LeaderReturned(seat=owner, leader=LEADERS[index], reason="no_temple"))
    return "wars"


def swap_problem(state: State, seat: int, counts: Counts) -> str | None:
    held = state.hands[seat]
    if any(not 0 <= n <= h for n, h in zip(counts, held, strict=True)):
        return rj.BAD_SWAP
    if sum(counts) == 0:
        opts = state.options
        return None if opts.allow_pass and opts.empty_swap_is_pass else rj.BAD_SWAP
    return None


def swap(play: Play, seat: int, counts: Counts) -> Stage | None:
    if sum(counts) == 0:
        return pass_action(play, seat)
    tiles = tuple(c for c, n in zip(COLOURS, counts, strict=True) for _ in range(n))
    play.emit(
        ev.TilesDiscarded(seat=seat, tiles=tiles),
        ev.TilesDiscardedCount(seat=seat, count=len(tiles)),
    )
    # A swap the bag cannot supply ends the game at once (docs/rules/tigris.md §9, §16.1).
    return "wars" if draw(play, seat, len(tiles)) else None


def pass_action(play: Play, seat: int) -> Stage:
    play.emit(ev.ActionPassed(seat=seat))
    return "wars"
