"""Drawing from the bag: its order was shuffled at setup and recorded, so a draw
takes tiles from the front and never needs randomness (docs/rules/tigris.md §3, §15, §16.1)."""

from __future__ import annotations

from collections.abc import Iterable

from shared.games.tigris import events as ev
from shared.games.tigris.board import HAND_SIZE, INDEX
from shared.games.tigris.rules.play import Play
from shared.games.tigris_common.colours import Colour


def sorted_tiles(tiles: Iterable[Colour]) -> tuple[Colour, ...]:
    """Drawn tiles in colour order: the event says what was drawn, not in which order."""
    return tuple(sorted(tiles, key=INDEX.__getitem__))


def draw(play: Play, seat: int, count: int) -> bool:
    """Draw ``count`` tiles for ``seat``; end the game instead if the bag is short.
    ``False`` when the game ended."""
    bag = play.state.bag
    if count > len(bag):
        play.emit(ev.GameEnded(reason="bag_empty"))
        return False
    if count:
        play.emit(
            ev.TilesDrawn(seat=seat, tiles=sorted_tiles(bag[:count])),
            ev.TilesDrawnCount(seat=seat, count=count),
        )
        if play.state.options.end_when_bag_emptied and not play.state.bag:
            play.emit(ev.GameEnded(reason="bag_empty"))
            return False
    return True


def refill(play: Play, seat: int) -> bool:
    return draw(play, seat, HAND_SIZE - sum(play.state.hands[seat]))
