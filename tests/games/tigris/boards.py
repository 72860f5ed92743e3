"""Small ASCII boards for rule tests, laid onto the real board's terrain.

Tokens, separated by spaces: ``.`` empty, ``r b g k`` a red/blue/green/black
tile (``r*`` a temple with a treasure), ``x`` a catastrophe, and a leader as
its initial plus the seat: ``P0`` priest, ``F1`` farmer, ``T0`` trader,
``K1`` king. The grid's first token lands on ``origin`` (a label like ``A10``).
Unlike the opening position, the board starts empty: no temples, no treasures.
"""

from __future__ import annotations

from collections.abc import Mapping

from msgspec.structs import replace

from shared.games.tigris import GAME
from shared.games.tigris.board import SQUARES, TILE_COUNTS, WIDTH, parse
from shared.games.tigris.commands import TigrisCommand as Command
from shared.games.tigris.events import TigrisEvent
from shared.games.tigris.options import Options
from shared.games.tigris.state import NO_COUNTS, Counts, State
from shared.games.tigris_common.colours import COLOURS, LEADERS, Colour
from shared.kernel.rng import Rng

TILE = {"r": Colour.RED, "b": Colour.BLUE, "g": Colour.GREEN, "k": Colour.BLACK}
LEADER = {"P": 0, "F": 1, "T": 2, "K": 3}
assert [LEADERS[i].value[0].upper() for i in LEADER.values()] == list(LEADER)


SPARE = ("P9", "P11", "N11")


def counts(text: str) -> Counts:
    """``"rrgk"`` -> (2, 0, 1, 1) in COLOURS order."""
    return tuple(text.count(k) for k in "rbgk")  # type: ignore[return-value]


def at(name: str) -> int:
    return parse(name)


def _lay(grid: str, top: int, seats: int) -> tuple[list, list, list, list]:
    tiles: list[Colour | None] = [None] * SQUARES
    treasures, catastrophes = [], []
    leaders = [[None] * 4 for _ in range(seats)]
    for dy, line in enumerate(row for row in grid.strip("\n").splitlines() if row.strip()):
        for dx, token in enumerate(line.split()):
            sq = top + dy * WIDTH + dx
            if token == ".":
                continue
            if token == "x":
                catastrophes.append(sq)
            elif token[0] in TILE:
                tiles[sq] = TILE[token[0]]
                if token.endswith("*"):
                    treasures.append(sq)
            else:
                leaders[int(token[1])][LEADER[token[0]]] = sq  # type: ignore[call-overload]
    return tiles, treasures, catastrophes, leaders


def build(
    grid: str,
    origin: str = "A10",
    seats: int = 2,
    hands: Mapping[int, str] | None = None,
    active: int = 0,
    options: Mapping[str, object] | None = None,
    bag: str = "kkkkkkkkkkkk",
    spare_treasures: bool = True,
) -> State:
    """``spare_treasures`` puts three lone treasure temples in the far south-east
    so that the game does not end at the first end of turn."""
    tiles, treasures, catastrophes, leaders = _lay(grid, parse(origin), seats)
    if spare_treasures:
        for name in SPARE:
            tiles[parse(name)] = Colour.RED
            treasures.append(parse(name))
    opts = GAME.options(dict(options or {}))
    bag_tiles = tuple(TILE[c] for c in bag)
    return State(
        options=opts,
        seats=seats,
        tiles=tuple(tiles),
        treasures=tuple(sorted(treasures)),
        catastrophes=tuple(sorted(catastrophes)),
        leaders=tuple(tuple(row) for row in leaders),
        bag=bag_tiles,
        hands=tuple(counts((hands or {}).get(s, "")) for s in range(seats)),
        points=(NO_COUNTS,) * seats,
        treasures_won=(0,) * seats,
        catastrophes_left=(2,) * seats,
        active=active,
    )


def run(state: State, *moves: tuple[int, Command]) -> tuple[State, list[TigrisEvent]]:
    """Given a state, when seats issue commands, then these events and this state."""
    events: list[TigrisEvent] = []
    for seat, command in moves:
        new = GAME.decide(state, seat, command, Rng(b"\0" * 32, 0))
        events += new
        state = GAME.fold(new, state)
    return state, events


def of_type(events: list[TigrisEvent], kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


def with_options(state: State, **overrides: object) -> State:
    return replace(state, options=replace(state.options, **overrides))


def points(state: State, seat: int) -> dict[str, int]:
    return {c.value: state.points[seat][i] for i, c in enumerate(COLOURS) if state.points[seat][i]}


def conserved(state: State) -> bool:
    """Bag + hands + board + out of the game is every tile in the box, per colour."""
    for i, colour in enumerate(COLOURS):
        total = state.bag.count(colour) + sum(h[i] for h in state.hands)
        total += sum(1 for t in state.tiles if t is colour) + state.out_of_game[i]
        if total != TILE_COUNTS[colour]:
            return False
    return True


__all__ = ["Options", "at", "build", "conserved", "counts", "of_type", "points", "run", "with_options"]
