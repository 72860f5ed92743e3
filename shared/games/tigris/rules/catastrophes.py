"""Catastrophes, swaps and passes: the actions that place nothing that scores
(docs/rules/tigris.md §5.3, §8, §9)."""

from __future__ import annotations

from shared.games.tigris import events as ev
from shared.games.tigris.board import SQUARES
from shared.games.tigris.rules.flow import Emitter, draw, resume
from shared.games.tigris.rules.kingdoms import Kingdoms, LocalKingdoms, stranded
from shared.games.tigris.state import Counts, State
from shared.games.tigris_common.colours import COLOURS, LEADERS


def catastrophe_problem(state: State, seat: int, sq: int, regions: Kingdoms | None = None) -> str | None:
    if not 0 <= sq < SQUARES:
        return "off_board"
    if state.catastrophes_left[seat] == 0:
        return "no_catastrophes_left"
    regions = regions or LocalKingdoms(state)  # only leaders and flipped tiles are asked
    if sq in regions.pieces:
        return "catastrophe_on_leader"
    if sq in state.catastrophes:
        return "catastrophe_on_catastrophe"
    if sq in regions.down:
        return "catastrophe_on_monument"
    if sq in state.treasures:
        return "catastrophe_on_treasure"
    return None


def place_catastrophe(em: Emitter, seat: int, sq: int) -> None:
    em.emit(ev.CatastrophePlaced(seat=seat, square=sq, destroyed=em.state.tiles[sq]))
    for owner, index in stranded(em.state):
        em.emit(ev.LeaderReturned(seat=owner, leader=LEADERS[index], reason="no_temple"))
    resume(em, "wars")


def swap_problem(state: State, seat: int, counts: Counts) -> str | None:
    held = state.hands[seat]
    if any(not 0 <= n <= h for n, h in zip(counts, held, strict=True)):
        return "bad_swap"
    if sum(counts) == 0:
        opts = state.options
        return None if opts.allow_pass and opts.empty_swap_is_pass else "bad_swap"
    return None


def swap(em: Emitter, seat: int, counts: Counts) -> None:
    if sum(counts) == 0:
        pass_action(em, seat)
        return
    tiles = tuple(c for c, n in zip(COLOURS, counts, strict=True) for _ in range(n))
    em.emit(
        ev.TilesDiscarded(seat=seat, tiles=tiles),
        ev.TilesDiscardedCount(seat=seat, count=len(tiles)),
    )
    # A swap the bag cannot supply ends the game at once (docs/rules/tigris.md §9, §16.1).
    if draw(em, seat, len(tiles)):
        resume(em, "wars")


def pass_action(em: Emitter, seat: int) -> None:
    em.emit(ev.ActionPassed(seat=seat))
    resume(em, "wars")
