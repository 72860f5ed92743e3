"""The opening events: board, bag order, start player, hands (docs/rules/tigris.md §3)."""

from __future__ import annotations

from shared.games.tigris import events as ev
from shared.games.tigris.board import HAND_SIZE, STARTING_TEMPLES, TILE_COUNTS
from shared.games.tigris.options import Options
from shared.games.tigris.rules.bag import sorted_tiles
from shared.games.tigris_common.colours import COLOURS, Colour
from shared.kernel.rng import Rng


def initial_bag() -> list[Colour]:
    """Every tile except the starting temples, in a fixed order before shuffling."""
    counts = dict(TILE_COUNTS)
    counts[Colour.RED] -= len(STARTING_TEMPLES)
    return [c for c in COLOURS for _ in range(counts[c])]


def create(options: Options, seats: int, rng: Rng) -> list[ev.TigrisEvent]:
    if not 2 <= seats <= 4:
        raise ValueError("Tigris & Euphrates is played by 2 to 4 seats")
    first = rng.below(seats)
    order = tuple(rng.shuffled(initial_bag()))
    events: list[ev.TigrisEvent] = [
        ev.GameStarted(seats=seats, options=options, first=first, temples=STARTING_TEMPLES),
        ev.BagFilled(order=order),
    ]
    for k in range(seats):
        seat = (first + k) % seats
        drawn = order[k * HAND_SIZE : (k + 1) * HAND_SIZE]
        events += [
            ev.TilesDrawn(seat=seat, tiles=sorted_tiles(drawn)),
            ev.TilesDrawnCount(seat=seat, count=HAND_SIZE),
        ]
    events.append(ev.TurnStarted(seat=first))
    return events
