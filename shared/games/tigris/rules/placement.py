"""Positioning leaders and placing civilisation tiles (docs/rules/tigris.md §6, §7)."""

from __future__ import annotations

from collections.abc import Container

from shared.games.tigris import events as ev
from shared.games.tigris import rejections as rj
from shared.games.tigris.board import INDEX, RIVER, SQUARES
from shared.games.tigris.rules import revolts
from shared.games.tigris.rules.kingdoms import Kingdoms, LocalKingdoms, adjacent_temples
from shared.games.tigris.rules.play import Play
from shared.games.tigris.state import Stage, State
from shared.games.tigris_common.colours import COLOURS, LEADERS, Colour

KING = LEADERS.index(COLOURS[3].leader)


def empty(state: State, sq: int, pieces: Container[int]) -> bool:
    return state.tiles[sq] is None and sq not in pieces and sq not in state.catastrophes


def judged_regions(state: State, seat: int, index: int) -> LocalKingdoms:
    """The board a leader is placed on: with the moving leader lifted (option)."""
    current = state.leaders[seat][index]
    if current is not None and state.options.judge_move_with_leader_lifted:
        return LocalKingdoms(state, lifted=current)
    return LocalKingdoms(state)


def leader_problem(state: State, regions: Kingdoms, seat: int, index: int, sq: int) -> str | None:
    if not 0 <= sq < SQUARES:
        return rj.OFF_BOARD
    current = state.leaders[seat][index]
    if current == sq and not state.options.allow_move_in_place:
        return rj.SAME_SQUARE
    # ``regions`` was built with the moving leader lifted when the option says so.
    if not empty(state, sq, regions.pieces):
        return rj.SQUARE_OCCUPIED
    if sq in RIVER:
        return rj.LEADER_ON_RIVER
    if adjacent_temples(state, sq, regions.down) == 0:
        return rj.NO_ADJACENT_TEMPLE
    if len(regions.adjacent_kingdoms(sq)) > 1:
        return rj.JOINS_KINGDOMS
    return None


def position_leader(play: Play, seat: int, index: int, sq: int) -> Stage | None:
    origin = play.state.leaders[seat][index]
    play.emit(ev.LeaderPositioned(seat=seat, leader=LEADERS[index], square=sq, origin=origin))
    # A revolt awaits the attacker's support; the action goes on once it is settled.
    return None if revolts.start_if_any(play, seat, index) else "wars"


def withdraw_leader(play: Play, seat: int, index: int) -> Stage:
    play.emit(ev.LeaderReturned(seat=seat, leader=LEADERS[index], reason="withdrawn"))
    return "wars"


def tile_problem(state: State, regions: Kingdoms, seat: int, colour: Colour, sq: int) -> str | None:
    if not 0 <= sq < SQUARES:
        return rj.OFF_BOARD
    if state.hands[seat][INDEX[colour]] == 0:
        return rj.TILE_NOT_IN_HAND
    if not empty(state, sq, regions.pieces):
        return rj.SQUARE_OCCUPIED
    if (colour is Colour.BLUE) != (sq in RIVER):
        return rj.FARM_OFF_RIVER if colour is Colour.BLUE else rj.TILE_ON_RIVER
    if len(regions.adjacent_kingdoms(sq)) > 2:
        return rj.JOINS_THREE_KINGDOMS
    return None


def tile_scorer(regions: Kingdoms, kingdom: int, colour: Colour) -> int | None:
    """Who scores a tile joining one kingdom: the matching leader, else the king."""
    seat = regions.leader_of(kingdom, INDEX[colour])
    return seat if seat is not None else regions.leader_of(kingdom, KING)


def place_tile(play: Play, regions: Kingdoms, seat: int, colour: Colour, sq: int) -> Stage:
    kingdoms = regions.adjacent_kingdoms(sq)
    play.emit(ev.TilePlaced(seat=seat, colour=colour, square=sq))
    if len(kingdoms) == 2:
        # A uniting tile never scores, not even after the wars (docs/rules/tigris.md §7.2).
        play.emit(ev.MarkerPlaced(square=sq))
    elif len(kingdoms) == 1:
        scorer = tile_scorer(regions, next(iter(kingdoms)), colour)
        if scorer is not None:
            play.emit(ev.PointsScored(seat=scorer, colour=colour, amount=1, reason="tile"))
    return "wars"
