"""Invariants checked after every event of random self-play."""

from __future__ import annotations

from shared.games.tigris import events as ev
from shared.games.tigris.board import HAND_SIZE, STARTING_TEMPLES
from shared.games.tigris.rules.kingdoms import Regions, flipped, stranded
from shared.games.tigris.state import ChooseWar, State, Support
from shared.games.tigris_common.colours import Colour
from tests.games.tigris.boards import conserved

#: Events after which a stranded leader is legitimately still on the board,
#: because its return is the very next event of the same decision.
_TRANSIENT = (ev.TilesRemoved, ev.CatastrophePlaced, ev.MonumentBuilt, ev.LeaderReturned)


def check(state: State, event: ev.TigrisEvent) -> None:
    if isinstance(event, ev.GameStarted | ev.BagFilled):
        return
    assert conserved(state), "tiles were created or lost"
    assert len(state.treasures) + sum(state.treasures_won) == len(STARTING_TEMPLES), "treasure lost"
    assert all(state.tiles[sq] is Colour.RED for sq in state.treasures), "treasure off its temple"
    assert all(sum(h) <= HAND_SIZE and min(h) >= 0 for h in state.hands)
    assert all(0 <= c <= 2 for c in state.catastrophes_left)
    assert all(state.tiles[sq] is None for sq in state.catastrophes)
    # A declined square's bar lives on its tiles (docs/rules/tigris.md §12.2).
    assert all(state.tiles[sq] is not None for sq in state.declined), "a bar outlived its tile"
    if not state.options.monument_new_square_new_chance:
        assert not set(state.declined) & flipped(state), "a monument on declined tiles"
    limit = state.options.stalemate_rounds * state.seats
    assert state.quiet_turns >= 0 and (not limit or state.quiet_turns < limit)
    if not isinstance(event, _TRANSIENT):
        assert not stranded(state), f"a leader without a temple after {type(event).__name__}"
    # A placement is followed at once by the revolt or the marker it causes.
    settled = not isinstance(event, ev.LeaderPositioned | ev.TilePlaced)
    if settled and state.marker is None and not isinstance(state.phase, Support | ChooseWar):
        regions = Regions(state)
        for leaders in regions.leaders:
            colours = [i for _, i in leaders]
            assert len(colours) == len(set(colours)), "two leaders of one colour in a kingdom"
