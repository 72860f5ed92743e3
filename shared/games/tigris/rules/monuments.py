"""Monuments: a 2x2 square of one face-up colour may carry one (docs/rules/tigris.md §12)."""

from __future__ import annotations

from shared.games.tigris import events as ev
from shared.games.tigris.board import MONUMENTS, block, blocks_containing
from shared.games.tigris.rules.kingdoms import flipped, stranded
from shared.games.tigris.rules.play import Play
from shared.games.tigris.rules.stages import after
from shared.games.tigris.state import ChooseMonument, MonumentOption, Stage, State
from shared.games.tigris_common.colours import LEADERS


def options(state: State) -> tuple[MonumentOption, ...]:
    """The (square, monument) pairs the tile just placed makes possible."""
    sq = state.placed
    if sq is None or state.marker is not None:
        return ()
    colour = state.tiles[sq]
    built = {m.monument for m in state.monuments}
    free = [m for m in MONUMENTS if m not in built and colour in m.colours]
    if colour is None or not free:
        return ()
    down = flipped(state)
    squares = [
        tl
        for tl in blocks_containing(sq)
        if all(state.tiles[x] is colour and x not in down for x in block(tl) or ())
    ]
    if state.declined and not state.options.monument_new_square_new_chance:
        # Seed: a declined square's tiles are not turned over "and no monument can be
        # built on them later", so no square that includes one of them is a chance.
        barred = set(state.declined)
        squares = [tl for tl in squares if barred.isdisjoint(block(tl) or ())]
    squares.sort()
    if not state.options.choose_monument_square:
        squares = squares[:1]
    return tuple(MonumentOption(top_left=tl, monument=m) for tl in squares for m in free)


def offer(play: Play) -> bool:
    found = options(play.state)
    if not found:
        return False
    play.emit(ev.MonumentOffered(seat=play.state.active, options=found))
    return True


def build(play: Play, option: MonumentOption) -> Stage:
    play.emit(ev.MonumentBuilt(seat=play.state.active, monument=option.monument, top_left=option.top_left))
    # Flipped temples are no temples: leaders that lost their last one go home.
    for seat, index in stranded(play.state):
        play.emit(ev.LeaderReturned(seat=seat, leader=LEADERS[index], reason="no_temple"))
    return after("monument", play.state.options)


def decline(play: Play, phase: ChooseMonument) -> Stage:
    # Every offered square is recorded, so all of their tiles are barred from now on.
    top_lefts = tuple(sorted({o.top_left for o in phase.options}))
    play.emit(ev.MonumentDeclined(seat=play.state.active, top_lefts=top_lefts))
    return after("monument", play.state.options)
