"""Trade deck: Commercial Harbor, Master Merchant, Merchant, Merchant Fleet,
Resource Monopoly, Trade Monopoly (docs/rules/catan.md §12.2)."""

from __future__ import annotations

from shared.games.catan import board
from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.cards import COMMODITIES, KINDS, RESOURCES, total
from shared.games.catan.rules import development
from shared.games.catan.rules.building import buildings
from shared.games.catan.rules.flow import CatanFold, open_task, set_effects
from shared.games.catan.rules.progress.politics import others, richer
from shared.games.catan.state import State

P = cmd.PlayProgress


def merchant_hexes(state: State, seat: int) -> list[int]:
    spots = buildings(state, seat)
    out = []
    for h in range(19):
        if state.terrain[h] == board.DESERT and not state.options.merchant_on_desert:
            continue
        if state.merchant_owner == seat and state.merchant == h:
            continue
        if any(s in board.HEX_CORNERS[h] for s in spots):
            out.append(h)
    return out


def commodities(state: State, seat: int) -> int:
    return sum(state.players[seat].hand[k] for k in COMMODITIES)


def options(state: State, seat: int) -> list[P]:
    held = set(state.players[seat].cards)
    hand = state.players[seat].hand
    out: list[P] = []
    has_resource = any(hand[k] for k in RESOURCES)
    if (
        "commercial_harbor" in held
        and has_resource
        and any(commodities(state, o) for o in others(state, seat))
    ):
        out.append(P(card="commercial_harbor"))
    if "master_merchant" in held:
        out += [P(card="master_merchant", a=o) for o in richer(state, seat) if total(state.players[o].hand)]
    if "merchant" in held:
        out += [P(card="merchant", a=h) for h in merchant_hexes(state, seat)]
    if "merchant_fleet" in held:
        out += [P(card="merchant_fleet", a=k) for k in KINDS if k not in state.effects.fleet]
    if "resource_monopoly" in held:
        out += [P(card="resource_monopoly", a=k) for k in RESOURCES]
    if "trade_monopoly" in held:
        out += [P(card="trade_monopoly", a=k) for k in COMMODITIES]
    return out


def play(f: CatanFold, seat: int, c: P) -> None:
    s = f.state
    match c.card:
        case "commercial_harbor":
            # One exchange with each opponent per card: a second card adds a second round.
            set_effects(f, harbor_targets=tuple(sorted((*s.effects.harbor_targets, *others(s, seat)))))
        case "master_merchant":
            hand = s.players[c.a].hand
            f.emit(ev.HandShown(seat=seat, target=c.a, cards=hand))
            open_task(f, "master_merchant", (seat,), owner=seat, amounts=(min(2, total(hand)),), data=(c.a,))
        case "merchant":
            f.emit(ev.MerchantMoved(seat=seat, hex=c.a))
        case "merchant_fleet":
            set_effects(f, fleet=tuple(sorted((*s.effects.fleet, c.a))))
        case "resource_monopoly":
            development.monopoly(f, seat, c.a, cap=2)
        case "trade_monopoly":
            development.monopoly(f, seat, c.a, cap=1)


def harbor_options(state: State, seat: int) -> list[cmd.HarborExchange]:
    hand = state.players[seat].hand
    return [
        cmd.HarborExchange(seat=o, kind=k)
        for o in sorted(set(state.effects.harbor_targets))
        for k in RESOURCES
        if hand[k]
    ]


def harbor(f: CatanFold, seat: int, c: cmd.HarborExchange) -> None:
    targets = list(f.state.effects.harbor_targets)
    targets.remove(c.seat)  # uses up one card's exchange with that seat
    set_effects(f, harbor_targets=tuple(targets))
    if commodities(f.state, c.seat):
        # The task is public, the resource face down: it reaches the two seats apart.
        open_task(f, "harbor", (c.seat,), owner=seat)
        f.emit(ev.HarborOffered(owner=seat, seat=c.seat, kind=c.kind))
