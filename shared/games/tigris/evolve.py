"""Fold one event into the state: apply recorded facts, never decide anything."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from shared.games.tigris import events as ev
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
from shared.games.tigris_common.colours import LEADERS, Colour


def _put(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _add(counts: Counts, colour: Colour, amount: int) -> Counts:
    i = INDEX[colour]
    return _put(counts, i, counts[i] + amount)  # type: ignore[return-value]


def _add_all(counts: Counts, tiles: tuple[Colour, ...], sign: int) -> Counts:
    for colour in tiles:
        counts = _add(counts, colour, sign)
    return counts


def _seat_counts(table: tuple[Counts, ...], seat: int, colour: Colour, amount: int) -> tuple[Counts, ...]:
    return _put(table, seat, _add(table[seat], colour, amount))


def _move_leader(state: State, seat: int, leader: Any, square: int | None) -> State:
    row = _put(state.leaders[seat], LEADERS.index(leader), square)
    return replace(state, leaders=_put(state.leaders, seat, row))


def _started(_: State | None, e: ev.GameStarted) -> State:
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
    return replace(
        s,
        tiles=_put(s.tiles, e.square, e.colour),
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
    out = s.out_of_game if e.destroyed is None else _add(s.out_of_game, e.destroyed, 1)
    return replace(
        s,
        tiles=_put(s.tiles, e.square, None),
        catastrophes=tuple(sorted((*s.catastrophes, e.square))),
        catastrophes_left=_put(s.catastrophes_left, e.seat, s.catastrophes_left[e.seat] - 1),
        out_of_game=out,
        declined=_without_declined(s, (e.square,)),
    )


def _committed(s: State, e: ev.SupportCommitted) -> State:
    s = replace(
        s,
        hands=_seat_counts(s.hands, e.seat, e.colour, -e.count),
        out_of_game=_add(s.out_of_game, e.colour, e.count),
    )
    phase = s.phase
    if isinstance(phase, Support) and phase.attacker_commit is None:
        s = replace(s, phase=replace(phase, attacker_commit=e.count))
    return s


def _removed(s: State, e: ev.TilesRemoved) -> State:
    tiles = list(s.tiles)
    for sq in e.squares:
        tiles[sq] = None
    out = _add(s.out_of_game, e.colour, len(e.squares))
    return replace(s, tiles=tuple(tiles), out_of_game=out, declined=_without_declined(s, e.squares))


def _support(s: State, e: ev.RevoltStarted | ev.WarStarted) -> State:
    kind = "revolt" if isinstance(e, ev.RevoltStarted) else "war"
    phase = Support(
        conflict=kind,
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


_HANDLERS: dict[type, Callable[[Any, Any], State]] = {
    ev.GameStarted: _started,
    ev.BagFilled: lambda s, e: replace(s, bag=e.order),
    ev.TilesDrawn: _drawn,
    ev.TilesDrawnCount: lambda s, e: s,
    ev.TilesDiscarded: _discarded,
    ev.TilesDiscardedCount: lambda s, e: s,
    ev.TurnStarted: lambda s, e: replace(
        s, active=e.seat, actions_done=0, quiet_turns=e.quiet, progressed=False, phase=Acting()
    ),
    ev.LeaderPositioned: lambda s, e: _move_leader(s, e.seat, e.leader, e.square),
    ev.LeaderReturned: lambda s, e: _move_leader(s, e.seat, e.leader, None),
    ev.TilePlaced: _tile_placed,
    ev.MarkerPlaced: lambda s, e: replace(s, marker=e.square),
    ev.MarkerRemoved: lambda s, e: replace(s, marker=None),
    ev.PointsScored: lambda s, e: replace(s, points=_seat_counts(s.points, e.seat, e.colour, e.amount)),
    ev.CatastrophePlaced: _catastrophe,
    ev.ActionPassed: lambda s, e: s,
    ev.RevoltStarted: _support,
    ev.WarsPending: lambda s, e: replace(s, phase=ChooseWar(colours=e.colours)),
    ev.WarStarted: _support,
    ev.SupportCommitted: _committed,
    ev.ConflictResolved: lambda s, e: replace(s, phase=Acting()),
    ev.TilesRemoved: _removed,
    ev.MonumentOffered: lambda s, e: replace(s, phase=ChooseMonument(options=e.options)),
    ev.MonumentBuilt: _built,
    ev.MonumentDeclined: _declined,
    ev.TreasureChoiceOffered: lambda s, e: replace(
        s, phase=ChooseTreasures(seat=e.seat, count=e.count, candidates=e.candidates, stage=e.stage)
    ),
    ev.TreasuresTaken: _taken,
    ev.ActionEnded: lambda s, e: replace(s, actions_done=e.number, placed=None, phase=Acting()),
    ev.GameEnded: lambda s, e: replace(s, phase=Over(reason=e.reason)),
}


def evolve(state: State | None, event: ev.TigrisEvent) -> State:
    return _HANDLERS[type(event)](state, event)


def handled_event_types() -> frozenset[type]:
    """For the test that every member of the event union has a handler."""
    return frozenset(_HANDLERS)
