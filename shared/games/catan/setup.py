"""Opening: the board, the decks, and the snake-order set-up placements."""

from __future__ import annotations

from typing import TypeGuard, assert_never

from shared.games.catan import board
from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.cards import DEV_DECK, EMPTY, Hand, add, deck_cards, one
from shared.games.catan.options import Options
from shared.games.catan.rules.building import road_spots, settlement_spots
from shared.games.catan.rules.flow import CatanFold
from shared.games.catan.state import State
from shared.kernel.rng import Rng


def _layout(options: Options, rng: Rng) -> ev.BoardLaid:
    t: tuple[int, ...]
    n: tuple[int, ...]
    h: tuple[int, ...]
    if options.layout == "beginner" and options.ck:
        t, n, h = board.CK_BEGINNER_TERRAIN, board.CK_BEGINNER_NUMBERS, board.CK_BEGINNER_HARBORS
    elif options.layout == "beginner":
        t, n, h = board.BEGINNER_TERRAIN, board.BEGINNER_NUMBERS, board.BEGINNER_HARBORS
    else:
        spiral = options.numbers == "spiral"
        t, n, h = board.variable_layout(
            rng, spiral, options.house_no_adjacent_2_12, options.house_no_adjacent_equal
        )
    return ev.BoardLaid(terrain=t, numbers=n, harbors=h)


def roll_off(seats: int, rng: Rng) -> tuple[int, list[ev.StartRolled]]:
    """Every seat rolls both dice; the highest total starts, tied seats roll again
    (docs/rules/catan.md §3)."""
    rounds: list[ev.StartRolled] = []
    rolling = tuple(range(seats))
    while len(rolling) > 1:
        dice = tuple((rng.between(1, 6), rng.between(1, 6)) for _ in rolling)
        rounds.append(ev.StartRolled(seats=rolling, dice=dice))
        best = max(sum(d) for d in dice)
        rolling = tuple(s for s, d in zip(rolling, dice, strict=True) if sum(d) == best)
    return rolling[0], rounds


def create(options: Options, seats: int, rng: Rng) -> list[ev.CatanEvent]:
    first, rolls = roll_off(seats, rng)
    laid = _layout(options, rng)
    if options.ck:
        shuffled = ev.DecksShuffled(
            dev=(), progress=tuple(tuple(rng.shuffled(deck_cards(t))) for t in range(3))
        )
    else:
        shuffled = ev.DecksShuffled(dev=tuple(rng.shuffled(DEV_DECK)), progress=((), (), ()))
    order = tuple((first + i) % seats for i in range(seats))
    return [
        ev.Started(seats=seats, options=options, first=first),
        *rolls,
        laid,
        shuffled,
        ev.PhaseSet(phase="setup", active=first, turn=0, setup_queue=order + order[::-1]),
    ]


def second_round(state: State) -> bool:
    return len(state.setup_queue) <= state.seats


#: What a seat may send during the set-up placements.
SetupCommand = cmd.BuildSettlement | cmd.BuildCity | cmd.BuildRoad


def options(state: State, seat: int) -> list[SetupCommand]:
    if state.setup_spot >= 0:
        return [cmd.BUILD_ROAD[p] for p in road_spots(state, seat)]
    spots = settlement_spots(state, seat, setup=True)
    if second_round(state) and state.options.ck:
        return [cmd.BUILD_CITY[s] for s in spots]
    return [cmd.BUILD_SETTLEMENT[s] for s in spots]


def accepts(command: cmd.CatanCommand, state: State, seat: int) -> TypeGuard[SetupCommand]:
    return command in options(state, seat)


def starting_cards(state: State, spot: int) -> Hand:
    gained = EMPTY
    for h in board.SPOT_HEXES[spot]:
        kind = board.TERRAIN_RESOURCE[state.terrain[h]]
        if kind >= 0 and state.bank[kind] > gained[kind]:
            gained = add(gained, one(kind))
    return gained


def apply(f: CatanFold, seat: int, command: SetupCommand) -> None:
    s = f.state
    match command:
        case cmd.BuildRoad(path=path):
            f.emit(ev.RoadPlaced(seat=seat, path=path))
            rest = s.setup_queue[1:]
            if rest:
                f.emit(ev.PhaseSet(phase="setup", active=rest[0], turn=0, setup_queue=rest))
            else:
                f.emit(ev.PhaseSet(phase="roll", active=seat, turn=1))
        case cmd.BuildSettlement(spot=spot) | cmd.BuildCity(spot=spot):
            level = 2 if isinstance(command, cmd.BuildCity) else 1
            f.emit(ev.BuildingPlaced(seat=seat, spot=spot, level=level))
            if second_round(s):
                gained = starting_cards(f.state, spot)
                if any(gained):
                    f.emit(ev.CardsGained(seat=seat, cards=gained))
            f.emit(
                ev.PhaseSet(phase="setup", active=seat, turn=0, setup_queue=s.setup_queue, setup_spot=spot)
            )
        case _:
            assert_never(command)
