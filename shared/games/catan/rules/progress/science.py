"""Science deck: Alchemist, Crane, Engineer, Inventor, Irrigation, Medicine,
Mining, Printer (a VP card, never played), Road Building, Smith (docs/rules/catan.md §12.4)."""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.catan import board
from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.cards import MEDICINE_CITY, covers, one
from shared.games.catan.rules import improvements, knights
from shared.games.catan.rules.building import (
    CITIES,
    ROADS,
    buildings,
    cities_built,
    city_spots,
    road_spots,
    roads_built,
    wall_spots,
)
from shared.games.catan.rules.flow import CatanFold, open_task, set_effects
from shared.games.catan.state import State, knight_on

P = cmd.PlayProgress
SWAPPABLE = (3, 4, 5, 9, 10, 11)


def alchemist_options(state: State, seat: int) -> list[P]:
    if "alchemist" not in state.players[seat].cards:
        return []
    return [P(card="alchemist", a=y, b=r) for y in range(1, 7) for r in range(1, 7)]


def terrain_hexes(state: State, seat: int, terrain: int) -> list[int]:
    spots = buildings(state, seat)
    return [
        h for h in range(19) if state.terrain[h] == terrain and any(s in board.HEX_CORNERS[h] for s in spots)
    ]


def _smith_pairs(state: State, seat: int) -> list[P]:
    ks = [k for k in knights.own(state, seat) if knights.can_promote(state, k)]
    out = [P(card="smith", a=k.spot) for k in ks]
    for k in ks:
        lifted = replace(
            state,
            knights=tuple(
                replace(x, strength=x.strength + 1) if x.spot == k.spot else x for x in state.knights
            ),
        )
        out += [
            P(card="smith", a=k.spot, b=o.spot)
            for o in ks
            if o.spot > k.spot and knights.can_promote(lifted, knight_on(lifted, o.spot))
        ]
    return out


def _crane_useful(state: State, seat: int) -> bool:
    hand = state.players[seat].hand
    return any(
        improvements.buyable(state, seat, t) and covers(hand, improvements.cost(state, seat, t, True))
        for t in range(3)
    )


def _medicine_spots(state: State, seat: int) -> list[int]:
    if not covers(state.players[seat].hand, MEDICINE_CITY):
        return []
    return city_spots(state, seat) if cities_built(state, seat) < CITIES or state.tipped else []


def options(state: State, seat: int) -> list[P]:
    held = set(state.players[seat].cards)
    out: list[P] = []
    if "crane" in held and _crane_useful(state, seat):
        out.append(P(card="crane"))
    if "engineer" in held:
        out += [P(card="engineer", a=s) for s in wall_spots(state, seat)]
    if "inventor" in held:
        hs = [h for h in range(19) if state.numbers[h] in SWAPPABLE]
        out += [
            P(card="inventor", a=a, b=b)
            for a in hs
            for b in hs
            if a < b and state.numbers[a] != state.numbers[b]
        ]
    if "irrigation" in held and terrain_hexes(state, seat, board.FIELDS):
        out.append(P(card="irrigation"))
    if "mining" in held and terrain_hexes(state, seat, board.MOUNTAINS):
        out.append(P(card="mining"))
    if "medicine" in held:
        out += [P(card="medicine", a=s) for s in _medicine_spots(state, seat)]
    if "road_building" in held and road_spots(state, seat):
        out.append(P(card="road_building"))
    if "smith" in held:
        out += _smith_pairs(state, seat)
    return out


def play(f: CatanFold, seat: int, c: P) -> None:
    s = f.state
    match c.card:
        case "crane":
            set_effects(f, cranes=s.effects.cranes + 1)
        case "engineer":
            f.emit(ev.WallPlaced(seat=seat, spot=c.a))
        case "inventor":
            f.emit(ev.NumbersSwapped(a=c.a, b=c.b))
        case "irrigation" | "mining":
            terrain, kind = (board.FIELDS, 3) if c.card == "irrigation" else (board.MOUNTAINS, 4)
            n = min(s.bank[kind], 2 * len(terrain_hexes(s, seat, terrain)))
            if n:
                f.emit(ev.CardsGained(seat=seat, cards=one(kind, n)))
        case "medicine":
            f.emit(
                ev.CardsPaid(seat=seat, cards=MEDICINE_CITY), ev.BuildingPlaced(seat=seat, spot=c.a, level=2)
            )
        case "road_building":
            open_task(f, "free_roads", (seat,), owner=seat, amounts=(min(2, ROADS - roads_built(s, seat)),))
        case "smith":
            for spot in (c.a, c.b):
                if spot >= 0:
                    knights.promote(f, spot)
