"""City improvements (three tracks, level n costs n commodities) and metropolises
(docs/rules/catan.md §11)."""

from __future__ import annotations

from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.cards import TRACK_COMMODITY, covers, one
from shared.games.catan.rules.building import cities
from shared.games.catan.rules.flow import CatanFold, set_effects
from shared.games.catan.state import State

MAX_LEVEL = 5


def cost(state: State, seat: int, track: int, crane: bool) -> tuple[int, ...]:
    level = state.players[seat].levels[track] + 1
    return one(TRACK_COMMODITY[track], level - (1 if crane else 0))


def free_cities(state: State, seat: int) -> list[int]:
    return [c for c in cities(state, seat) if c not in state.metropolis]


def metropolis_due(state: State, seat: int, track: int, level: int) -> bool:
    """Whether buying ``level`` places (or takes) the track's metropolis."""
    holder_spot = state.metropolis[track]
    if holder_spot < 0:
        return level == 4
    holder = state.owner[holder_spot]
    return level == 5 and holder != seat and state.players[holder].levels[track] < 5


def buyable(state: State, seat: int, track: int) -> bool:
    level = state.players[seat].levels[track] + 1
    if level > MAX_LEVEL or not cities(state, seat):
        return False
    spot = state.metropolis[track]
    holds = spot >= 0 and state.owner[spot] == seat
    # Levels 4 and 5 need a city able to carry a metropolis, unless completing one's own track.
    return level < 4 or bool(free_cities(state, seat)) or (level == 5 and holds)


def options(state: State, seat: int) -> list[cmd.BuyImprovement]:
    out: list[cmd.BuyImprovement] = []
    hand = state.players[seat].hand
    crane = state.effects.cranes > 0
    for track in range(3):
        if not (buyable(state, seat, track) and covers(hand, cost(state, seat, track, crane))):
            continue
        level = state.players[seat].levels[track] + 1
        if metropolis_due(state, seat, track, level):
            out += [cmd.BuyImprovement(track=track, spot=c) for c in free_cities(state, seat)]
        else:
            out.append(cmd.BuyImprovement(track=track))
    return out


def buy(f: CatanFold, seat: int, c: cmd.BuyImprovement) -> None:
    s = f.state
    crane = s.effects.cranes > 0
    level = s.players[seat].levels[c.track] + 1
    price = cost(s, seat, c.track, crane)
    if any(price):
        f.emit(ev.CardsPaid(seat=seat, cards=price))
    if crane:
        set_effects(f, cranes=s.effects.cranes - 1)
    f.emit(ev.ImprovementBought(seat=seat, track=c.track, level=level))
    if c.spot >= 0:
        f.emit(ev.MetropolisPlaced(track=c.track, spot=c.spot))
