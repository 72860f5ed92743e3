"""Politics deck: Bishop, Constitution (VP), Deserter, Diplomat, Intrigue,
Saboteur, Spy, Warlord, Wedding (docs/rules/catan.md §12.3)."""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.catan import board
from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.cards import total
from shared.games.catan.rules import knights, robber
from shared.games.catan.rules.building import touches_own_road
from shared.games.catan.rules.flow import CatanFold, open_task
from shared.games.catan.rules.victory import public_points
from shared.games.catan.state import State, knight_at, knight_on

P = cmd.PlayProgress


def others(state: State, seat: int) -> list[int]:
    return [o for o in range(state.seats) if o != seat]


def open_road(state: State, path: int) -> bool:
    """A road is open when one of its ends holds no other road, building or knight of its owner."""
    owner = state.roads[path]
    for end in board.PATH_ENDS[path]:
        k = knight_at(state, end)
        if state.owner[end] == owner or (k is not None and k.owner == owner):
            continue
        if not any(state.roads[p] == owner for p in board.SPOT_PATHS[end] if p != path):
            return True
    return False


def saboteur_targets(state: State, seat: int) -> list[int]:
    mine = public_points(state, seat)
    return [
        o
        for o in others(state, seat)
        if public_points(state, o) >= mine and total(state.players[o].hand) >= 2
    ]


def richer(state: State, seat: int) -> list[int]:
    mine = public_points(state, seat)
    return [o for o in others(state, seat) if public_points(state, o) > mine]


def intrigue_spots(state: State, seat: int) -> list[int]:
    return [k.spot for k in state.knights if k.owner != seat and touches_own_road(state, seat, k.spot)]


def options(state: State, seat: int) -> list[P]:
    held = set(state.players[seat].cards)
    out: list[P] = []
    if "bishop" in held and robber.robber_active(state):
        out += [P(card="bishop", a=h) for h in range(19) if h != state.robber]
    if "deserter" in held:
        out += [P(card="deserter", a=o) for o in others(state, seat) if knights.own(state, o)]
    if "diplomat" in held:
        out += [
            P(card="diplomat", a=p)
            for p in range(board.N_PATHS)
            if state.roads[p] >= 0 and open_road(state, p)
        ]
    if "intrigue" in held:
        out += [P(card="intrigue", a=s) for s in intrigue_spots(state, seat)]
    if "saboteur" in held and saboteur_targets(state, seat):
        out.append(P(card="saboteur"))
    if "spy" in held:
        out += [P(card="spy", a=o) for o in others(state, seat) if state.players[o].cards]
    if "warlord" in held and any(not k.active for k in knights.own(state, seat)):
        out.append(P(card="warlord"))
    if "wedding" in held and richer(state, seat):
        out.append(P(card="wedding"))
    return out


def play(f: CatanFold, seat: int, c: P) -> None:
    s = f.state
    match c.card:
        case "bishop":
            _bishop(f, seat, c.a)
        case "deserter":
            theirs = knights.own(s, c.a)
            if len(theirs) == 1:
                desert(f, seat, theirs[0].spot)
            else:
                open_task(f, "deserter", (c.a,), owner=seat)
        case "diplomat":
            mine = s.roads[c.a] == seat
            f.emit(ev.RoadRemoved(path=c.a))
            if mine:
                open_task(f, "diplomat", (seat,), owner=seat, data=(c.a,))
        case "intrigue":
            k = knight_on(s, c.a)
            f.emit(ev.KnightRemoved(spot=c.a))
            knights.displaced(f, k)
        case "saboteur":
            targets = tuple(saboteur_targets(s, seat))
            open_task(f, "discard", targets, amounts=tuple(total(s.players[o].hand) // 2 for o in targets))
        case "spy":
            # Only the progress cards: the target's resources and commodities stay hidden.
            f.emit(ev.ProgressShown(seat=seat, target=c.a, cards=s.players[c.a].cards))
            open_task(f, "spy", (seat,), owner=seat, data=(c.a,))
        case "warlord":
            for k in knights.own(s, seat):
                if not k.active:
                    f.emit(ev.KnightSet(knight=replace(k, active=True, activated_turn=s.turn)))
        case "wedding":
            _wedding(f, seat)


def _bishop(f: CatanFold, seat: int, hex_: int) -> None:
    """Robber moves; one random card from each opponent with a building beside it."""
    f.emit(ev.RobberMoved(hex=hex_))
    for victim in robber.adjacent_opponents(f.state, seat, hex_):
        robber.steal(f, seat, victim)


def _wedding(f: CatanFold, seat: int) -> None:
    s = f.state
    givers = tuple(o for o in richer(s, seat) if total(s.players[o].hand))
    if givers:
        amounts = tuple(min(2, total(s.players[o].hand)) for o in givers)
        open_task(f, "gift", givers, owner=seat, amounts=amounts)


def deserter_strengths(state: State, seat: int, strength: int) -> list[int]:
    """Strengths the card's player may place for a removed knight of ``strength``, strongest first."""
    if state.options.deserter_replacement == "same_or_lower":  # 2025: the player picks one
        return [n for n in range(strength, 0, -1) if knights.pieces_left(state, seat, n) > 0]
    if knights.pieces_left(state, seat, strength) > 0:
        return [strength]
    return [1] if knights.pieces_left(state, seat, 1) > 0 else []


def desert(f: CatanFold, seat: int, spot: int) -> None:
    """The chosen knight leaves; the card's player may place one of theirs with its status."""
    k = knight_on(f.state, spot)
    f.emit(ev.KnightRemoved(spot=spot))
    strengths = deserter_strengths(f.state, seat, k.strength)
    if not (strengths and knights.recruit_spots(f.state, seat)):
        return
    data = (k.strength, int(k.active), k.activated_turn)
    if len(strengths) > 1:
        open_task(f, "deserter_strength", (seat,), owner=seat, data=data)
    else:
        recruit(f, seat, (strengths[0], *data[1:]))


def recruit(f: CatanFold, seat: int, data: tuple[int, ...]) -> None:
    """Ask where the deserting knight goes; ``data`` is its strength, status and activation turn."""
    open_task(f, "deserter_place", (seat,), owner=seat, data=data)
