"""Maritime trade: 4:1, harbors, and the C&K 2:1 rates (Trade level 3, merchant,
Merchant Fleet) (docs/rules/catan.md §6)."""

from __future__ import annotations

from shared.games.catan import board
from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.cards import COMMODITIES, KINDS, RESOURCES, TRADE, one
from shared.games.catan.rules.flow import CatanFold
from shared.games.catan.state import State


def kinds(state: State) -> tuple[int, ...]:
    return KINDS if state.options.ck else RESOURCES


def _harbors(state: State, seat: int) -> set[int]:
    harbors, owner = state.harbors, state.owner
    return {harbors[i] for spot, i in board.HARBOR_SPOT_INDEX if owner[spot] == seat}


def rate(state: State, seat: int, kind: int, harbors: set[int] | None = None) -> int:
    harbors = _harbors(state, seat) if harbors is None else harbors
    best = 3 if board.GENERIC in harbors else 4
    if kind in RESOURCES and kind in harbors:
        best = 2
    if not state.options.ck:
        return best
    p = state.players[seat]
    merchant_kind = board.TERRAIN_RESOURCE[state.terrain[state.merchant]] if state.merchant >= 0 else -1
    if kind in COMMODITIES and p.levels[TRADE] >= 3:
        best = 2
    if (state.merchant_owner == seat and kind == merchant_kind) or kind in state.effects.fleet:
        best = 2
    return best


#: No rate is better than 2:1, so a kind held fewer than twice is never given.
BEST_RATE = 2


def bank_options(state: State, seat: int) -> list[cmd.TradeBank]:
    hand = state.players[seat].hand
    ks = kinds(state)
    out: list[cmd.TradeBank] = []
    harbors: set[int] | None = None  # looked up only once some kind is held twice
    for give in ks:
        if hand[give] >= BEST_RATE:
            if harbors is None:
                harbors = _harbors(state, seat)
            if hand[give] >= rate(state, seat, give, harbors):
                bank = state.bank
                out.extend(cmd.TradeBank(give=give, get=get) for get in ks if get != give and bank[get] > 0)
    return out


def trade_bank(f: CatanFold, seat: int, c: cmd.TradeBank) -> None:
    f.emit(
        ev.CardsPaid(seat=seat, cards=one(c.give, rate(f.state, seat, c.give))),
        ev.CardsGained(seat=seat, cards=one(c.get)),
    )
