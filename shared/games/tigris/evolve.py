"""Fold one event into the state: apply recorded facts, never decide anything."""

from __future__ import annotations

from typing import Literal, TypeVar, assert_never

from msgspec.structs import replace

from shared.games.tigris import events as ev
from shared.games.tigris.bitboard import retiled
from shared.games.tigris.board import CATASTROPHES_PER_SEAT, INDEX, SQUARES, block
from shared.games.tigris.state import (
    NO_COUNTS,
    Acting,
    BuiltMonument,
    ChooseMonument,
    ChooseTreasures,
    ChooseWar,
    Counts,
    Over,
    State,
    Support,
)
from shared.games.tigris_common.colours import LEADERS, Colour, Leader

T = TypeVar("T")


def _put(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*items[:index], value, *items[index + 1 :])


def added(counts: Counts, colour: Colour, amount: int) -> Counts:
    """``counts`` with ``amount`` more of ``colour``."""
    i = INDEX[colour]
    red, blue, green, black = (n + amount if j == i else n for j, n in enumerate(counts))
    return red, blue, green, black


def _add_all(counts: Counts, tiles: tuple[Colour, ...], sign: int) -> Counts:
    for colour in tiles:
        counts = added(counts, colour, sign)
    return counts


def _seat_counts(table: tuple[Counts, ...], seat: int, colour: Colour, amount: int) -> tuple[Counts, ...]:
    return _put(table, seat, added(table[seat], colour, amount))


def _move_leader(state: State, seat: int, leader: Leader, square: int | None) -> State:
    row = _put(state.leaders[seat], LEADERS.index(leader), square)
    return replace(state, leaders=_put(state.leaders, seat, row))


def _started(e: ev.GameStarted) -> State:
    tiles: list[Colour | None] = [None] * SQUARES
    for sq in e.temples:
        tiles[sq] = Colour.RED
    n = e.seats
    return State(
        options=e.options,
        seats=n,
        tiles=tuple(tiles),
        treasures=tuple(sorted(e.temples)),
        leaders=((None,) * 4,) * n,
        hands=(NO_COUNTS,) * n,
        points=(NO_COUNTS,) * n,
        treasures_won=(0,) * n,
        catastrophes_left=(CATASTROPHES_PER_SEAT,) * n,
        first=e.first,
        active=e.first,
    )


def _drawn(s: State, e: ev.TilesDrawn) -> State:
    hand = _add_all(s.hands[e.seat], e.tiles, 1)
    return replace(s, hands=_put(s.hands, e.seat, hand), bag=s.bag[len(e.tiles) :], progressed=True)


def _discarded(s: State, e: ev.TilesDiscarded) -> State:
    hand = _add_all(s.hands[e.seat], e.tiles, -1)
    out = _add_all(s.out_of_game, e.tiles, 1)
    return replace(s, hands=_put(s.hands, e.seat, hand), out_of_game=out)


def _tile_placed(s: State, e: ev.TilePlaced) -> State:
    tiles = _put(s.tiles, e.square, e.colour)
    retiled(s.tiles, tiles, (e.square,))
    return replace(
        s,
        tiles=tiles,
        hands=_seat_counts(s.hands, e.seat, e.colour, -1),
        placed=e.square,
    )


def _without_declined(s: State, gone: tuple[int, ...]) -> tuple[int, ...]:
    # The bar on a declined square's tiles goes with the tiles: a tile later laid on
    # the emptied square was never part of the declined square.
    return tuple(sq for sq in s.declined if sq not in gone) if s.declined else ()


def _declined(s: State, e: ev.MonumentDeclined) -> State:
    squares = {sq for tl in e.top_lefts for sq in block(tl) or ()}
    return replace(s, declined=tuple(sorted(squares.union(s.declined))), phase=Acting())


def _catastrophe(s: State, e: ev.CatastrophePlaced) -> State:
    out = s.out_of_game if e.destroyed is None else added(s.out_of_game, e.destroyed, 1)
    tiles = _put(s.tiles, e.square, None)
    retiled(s.tiles, tiles, (e.square,))
    return replace(
        s,
        tiles=tiles,
        catastrophes=tuple(sorted((*s.catastrophes, e.square))),
        catastrophes_left=_put(s.catastrophes_left, e.seat, s.catastrophes_left[e.seat] - 1),
        out_of_game=out,
        declined=_without_declined(s, (e.square,)),
    )


def _committed(s: State, e: ev.SupportCommitted) -> State:
    s = replace(
        s,
        hands=_seat_counts(s.hands, e.seat, e.colour, -e.count),
        out_of_game=added(s.out_of_game, e.colour, e.count),
    )
    phase = s.phase
    if isinstance(phase, Support) and phase.attacker_commit is None:
        s = replace(s, phase=replace(phase, attacker_commit=e.count))
    return s


def _removed(s: State, e: ev.TilesRemoved) -> State:
    board = list(s.tiles)
    for sq in e.squares:
        board[sq] = None
    tiles = tuple(board)
    retiled(s.tiles, tiles, e.squares)
    out = added(s.out_of_game, e.colour, len(e.squares))
    return replace(s, tiles=tiles, out_of_game=out, declined=_without_declined(s, e.squares))


def _support(s: State, conflict: Literal["revolt", "war"], e: ev.RevoltStarted | ev.WarStarted) -> State:
    phase = Support(
        conflict=conflict,
        colour=e.colour,
        attacker=e.attacker,
        defender=e.defender,
        attacker_base=e.attacker_base,
        defender_base=e.defender_base,
    )
    return replace(s, phase=phase)


def _built(s: State, e: ev.MonumentBuilt) -> State:
    built = BuiltMonument(monument=e.monument, top_left=e.top_left)
    return replace(s, monuments=(*s.monuments, built), phase=Acting())


def _taken(s: State, e: ev.TreasuresTaken) -> State:
    left = tuple(sq for sq in s.treasures if sq not in e.squares)
    won = _put(s.treasures_won, e.seat, s.treasures_won[e.seat] + len(e.squares))
    return replace(s, treasures=left, treasures_won=won, progressed=True, phase=Acting())


def evolve(state: State | None, event: ev.TigrisEvent) -> State:
    if isinstance(event, ev.GameStarted):
        return _started(event)
    assert state is not None, "a game's first event is GameStarted"
    return _apply(state, event)


def _apply(s: State, e: ev.TigrisEvent) -> State:
    # Roughly most frequent first: a match tries its cases in order.
    match e:
        case ev.TilePlaced():
            return _tile_placed(s, e)
        case ev.ActionEnded():
            return replace(s, actions_done=e.number, placed=None, phase=Acting())
        case ev.TilesDrawn():
            return _drawn(s, e)
        case ev.TilesDrawnCount() | ev.TilesDiscardedCount() | ev.ActionPassed():
            return s  # public shadows and markers of what other events record
        case ev.PointsScored():
            return replace(s, points=_seat_counts(s.points, e.seat, e.colour, e.amount))
        case ev.TurnStarted():
            return replace(
                s, active=e.seat, actions_done=0, quiet_turns=e.quiet, progressed=False, phase=Acting()
            )
        case ev.LeaderPositioned():
            return _move_leader(s, e.seat, e.leader, e.square)
        case ev.LeaderReturned():
            return _move_leader(s, e.seat, e.leader, None)
        case ev.TilesDiscarded():
            return _discarded(s, e)
        case ev.CatastrophePlaced():
            return _catastrophe(s, e)
        case ev.MarkerPlaced():
            return replace(s, marker=e.square)
        case ev.MarkerRemoved():
            return replace(s, marker=None)
        case ev.RevoltStarted():
            return _support(s, "revolt", e)
        case ev.WarStarted():
            return _support(s, "war", e)
        case ev.WarsPending():
            return replace(s, phase=ChooseWar(colours=e.colours))
        case ev.SupportCommitted():
            return _committed(s, e)
        case ev.ConflictResolved():
            return replace(s, phase=Acting())
        case ev.TilesRemoved():
            return _removed(s, e)
        case ev.MonumentOffered():
            return replace(s, phase=ChooseMonument(options=e.options))
        case ev.MonumentBuilt():
            return _built(s, e)
        case ev.MonumentDeclined():
            return _declined(s, e)
        case ev.TreasureChoiceOffered():
            phase = ChooseTreasures(seat=e.seat, count=e.count, candidates=e.candidates, stage=e.stage)
            return replace(s, phase=phase)
        case ev.TreasuresTaken():
            return _taken(s, e)
        case ev.BagFilled():
            return replace(s, bag=e.order)
        case ev.GameEnded():
            return replace(s, phase=Over(reason=e.reason))
        case ev.GameStarted():
            return _started(e)
        case _:
            assert_never(e)
