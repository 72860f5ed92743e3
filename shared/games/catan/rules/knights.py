"""Knights: recruit, activate, promote, and the three actions (move, displace, chase)
(docs/rules/catan.md §9)."""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from shared.games.catan import board
from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.cards import ACTIVATION, KNIGHT, POLITICS, PROMOTION, covers
from shared.games.catan.rules import robber
from shared.games.catan.rules.building import blocked_for, free_spot, road_ends
from shared.games.catan.rules.flow import CatanFold, open_task
from shared.games.catan.state import Knight, State, knight_at, knight_on

PER_LEVEL = 2


def own(state: State, seat: int) -> list[Knight]:
    return [k for k in state.knights if k.owner == seat]


def pieces_left(state: State, seat: int, strength: int) -> int:
    return PER_LEVEL - sum(1 for k in own(state, seat) if k.strength == strength)


def recruit_spots(state: State, seat: int) -> list[int]:
    """Free spots an own road touches."""
    return sorted(s for s in road_ends(state, seat) if free_spot(state, s))


def reachable(state: State, seat: int, start: int) -> set[int]:
    """Spots reached along ``seat``'s roads, never passing another player's piece."""
    seen, frontier = {start}, [start]
    while frontier:
        spot = frontier.pop()
        if spot != start and blocked_for(state, seat, spot):
            continue
        for p in board.SPOT_PATHS[spot]:
            nxt = board.other_end(p, spot)
            if state.roads[p] == seat and nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
    seen.discard(start)
    return seen


def can_act(state: State, k: Knight) -> bool:
    if not state.options.promoted_knight_may_act and k.promoted_turn == state.turn:
        return False
    return k.active and k.activated_turn != state.turn


def can_promote(state: State, k: Knight) -> bool:
    if k.strength == 3 or k.promoted_turn == state.turn:
        return False
    if k.strength == 2 and state.players[k.owner].levels[POLITICS] < 3:
        return False
    return pieces_left(state, k.owner, k.strength + 1) > 0


def options(state: State, seat: int) -> list[cmd.CatanCommand]:
    hand = state.players[seat].hand
    out: list[cmd.CatanCommand] = []
    if covers(hand, KNIGHT) and pieces_left(state, seat, 1) > 0:
        out += [cmd.BuildKnight(spot=s) for s in recruit_spots(state, seat)]
    for k in own(state, seat):
        if not k.active and covers(hand, ACTIVATION):
            out.append(cmd.ActivateKnight(spot=k.spot))
        if covers(hand, PROMOTION) and can_promote(state, k):
            out.append(cmd.PromoteKnight(spot=k.spot))
        if can_act(state, k):
            out += action_options(state, k)
    return out


def move_targets(state: State, k: Knight) -> list[int]:
    out: list[int] = []
    for spot in sorted(reachable(state, k.owner, k.spot)):
        other = knight_at(state, spot)
        if state.owner[spot] == -1 and (
            other is None or (other.owner != k.owner and other.strength < k.strength)
        ):
            out.append(spot)
    return out


def action_options(state: State, k: Knight) -> list[cmd.CatanCommand]:
    out: list[cmd.CatanCommand] = [cmd.MoveKnight(spot=k.spot, to=t) for t in move_targets(state, k)]
    if robber.robber_active(state) and state.robber in board.SPOT_HEXES[k.spot]:
        out += [
            cmd.ChaseRobber(spot=k.spot, hex=h, victim=v) for h, v in robber.moves(state, k.owner, chase=True)
        ]
    return out


#: The knight's own commands: recruit, activate, promote, and its actions.
KnightCommand = cmd.BuildKnight | cmd.ActivateKnight | cmd.PromoteKnight | cmd.MoveKnight | cmd.ChaseRobber


def apply(f: CatanFold, seat: int, c: KnightCommand) -> None:
    s = f.state
    match c:
        case cmd.BuildKnight(spot=spot):
            f.emit(
                ev.CardsPaid(seat=seat, cards=KNIGHT),
                ev.KnightSet(knight=Knight(spot=spot, owner=seat, strength=1)),
            )
        case cmd.ActivateKnight(spot=spot):
            k = replace(knight_on(s, spot), active=True, activated_turn=s.turn)
            f.emit(ev.CardsPaid(seat=seat, cards=ACTIVATION), ev.KnightSet(knight=k))
        case cmd.PromoteKnight(spot=spot):
            f.emit(ev.CardsPaid(seat=seat, cards=PROMOTION))
            promote(f, spot)
        case cmd.MoveKnight(spot=spot, to=to):
            move(f, spot, to)
        case cmd.ChaseRobber(spot=spot, hex=hex_, victim=victim):
            f.emit(ev.KnightSet(knight=replace(knight_on(s, spot), active=False)))
            robber.move(f, seat, hex_, victim)
        case _:
            assert_never(c)


def promote(f: CatanFold, spot: int) -> None:
    k = knight_on(f.state, spot)
    f.emit(ev.KnightSet(knight=replace(k, strength=k.strength + 1, promoted_turn=f.state.turn)))


def move(f: CatanFold, spot: int, to: int) -> None:
    k = knight_on(f.state, spot)
    victim = knight_at(f.state, to)
    f.emit(ev.KnightRemoved(spot=spot))
    if victim is not None:
        f.emit(ev.KnightRemoved(spot=to))
    f.emit(ev.KnightSet(knight=replace(k, spot=to, active=False)))
    if victim is not None:
        displaced(f, victim)


def retreat_spots(state: State, k: Knight) -> list[int]:
    return sorted(s for s in reachable(state, k.owner, k.spot) if free_spot(state, s))


def displaced(f: CatanFold, k: Knight) -> None:
    """The owner moves a displaced knight along its own roads, or it leaves the board."""
    spots = retreat_spots(f.state, k)
    if spots:
        data = (k.spot, k.strength, int(k.active), k.activated_turn, k.promoted_turn)
        open_task(f, "retreat", (k.owner,), data=data)


def retreat(f: CatanFold, owner: int, data: tuple[int, ...], to: int) -> None:
    _, strength, active, activated, promoted = data
    k = Knight(
        spot=to,
        owner=owner,
        strength=strength,
        active=bool(active),
        activated_turn=activated,
        promoted_turn=promoted,
    )
    f.emit(ev.KnightSet(knight=k))


def retreat_options(state: State, owner: int, data: tuple[int, ...]) -> list[int]:
    ghost = Knight(spot=data[0], owner=owner, strength=data[1])
    return retreat_spots(state, ghost)
