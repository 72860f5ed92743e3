"""Positioning leaders and placing civilisation tiles (docs/rules/tigris.md §6, §7)."""

from __future__ import annotations

from shared.games.tigris import events as ev
from shared.games.tigris.board import INDEX, RIVER, SQUARES
from shared.games.tigris.rules import revolts
from shared.games.tigris.rules.flow import Emitter, resume
from shared.games.tigris.rules.kingdoms import Kingdoms, LocalKingdoms, adjacent_temples
from shared.games.tigris.state import State
from shared.games.tigris_common.colours import COLOURS, LEADERS, Colour

KING = LEADERS.index(COLOURS[3].leader)


def empty(state: State, sq: int, pieces: dict[int, object]) -> bool:
    return state.tiles[sq] is None and sq not in pieces and sq not in state.catastrophes


def judged_regions(state: State, seat: int, index: int) -> LocalKingdoms:
    """The board a leader is placed on: with the moving leader lifted (option)."""
    current = state.leaders[seat][index]
    if current is not None and state.options.judge_move_with_leader_lifted:
        return LocalKingdoms(state, lifted=current)
    return LocalKingdoms(state)


def leader_problem(state: State, regions: Kingdoms, seat: int, index: int, sq: int) -> str | None:
    if not 0 <= sq < SQUARES:
        return "off_board"
    current = state.leaders[seat][index]
    if current == sq and not state.options.allow_move_in_place:
        return "same_square"
    # ``regions`` was built with the moving leader lifted when the option says so.
    if not empty(state, sq, regions.pieces):
        return "square_occupied"
    if sq in RIVER:
        return "leader_on_river"
    if adjacent_temples(state, sq, regions.down) == 0:
        return "no_adjacent_temple"
    if len(regions.adjacent_kingdoms(sq)) > 1:
        return "joins_kingdoms"
    return None


def position_leader(em: Emitter, seat: int, index: int, sq: int) -> None:
    origin = em.state.leaders[seat][index]
    em.emit(ev.LeaderPositioned(seat=seat, leader=LEADERS[index], square=sq, origin=origin))
    if not revolts.start_if_any(em, seat, index):
        resume(em, "wars")


def withdraw_leader(em: Emitter, seat: int, index: int) -> None:
    em.emit(ev.LeaderReturned(seat=seat, leader=LEADERS[index], reason="withdrawn"))
    resume(em, "wars")


def tile_problem(state: State, regions: Kingdoms, seat: int, colour: Colour, sq: int) -> str | None:
    if not 0 <= sq < SQUARES:
        return "off_board"
    if state.hands[seat][INDEX[colour]] == 0:
        return "tile_not_in_hand"
    if not empty(state, sq, regions.pieces):
        return "square_occupied"
    if (colour is Colour.BLUE) != (sq in RIVER):
        return "farm_off_river" if colour is Colour.BLUE else "tile_on_river"
    if len(regions.adjacent_kingdoms(sq)) > 2:
        return "joins_three_kingdoms"
    return None


def tile_scorer(regions: Kingdoms, kingdom: int, colour: Colour) -> int | None:
    """Who scores a tile joining one kingdom: the matching leader, else the king."""
    seat = regions.leader_of(kingdom, INDEX[colour])
    return seat if seat is not None else regions.leader_of(kingdom, KING)


def place_tile(em: Emitter, regions: Kingdoms, seat: int, colour: Colour, sq: int) -> None:
    kingdoms = regions.adjacent_kingdoms(sq)
    em.emit(ev.TilePlaced(seat=seat, colour=colour, square=sq))
    if len(kingdoms) == 2:
        # A uniting tile never scores, not even after the wars (docs/rules/tigris.md §7.2).
        em.emit(ev.MarkerPlaced(square=sq))
    elif len(kingdoms) == 1:
        scorer = tile_scorer(regions, next(iter(kingdoms)), colour)
        if scorer is not None:
            em.emit(ev.PointsScored(seat=scorer, colour=colour, amount=1, reason="tile"))
    resume(em, "wars")
