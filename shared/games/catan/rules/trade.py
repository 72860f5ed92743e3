"""Maritime trade: 4:1, harbors, and the C&K 2:1 rates (Trade level 3, merchant,
Merchant Fleet) (docs/rules/catan.md §6)."""

from __future__ import annotations

from collections.abc import Mapping, Set

from shared.games.catan import board
from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.cards import COMMODITIES, KINDS, RESOURCES, TRADE, one
from shared.games.catan.memo import last_by_identity
from shared.games.catan.rules.flow import CatanFold
from shared.games.catan.state import State


def kinds(state: State) -> tuple[int, ...]:
    return KINDS if state.options.ck else RESOURCES


_NO_HARBOR: frozenset[int] = frozenset()


def _harbors(state: State, seat: int) -> Set[int]:
    return _harbors_by_seat(state.owner, state.harbors).get(seat, _NO_HARBOR)


# Every listing of bank trades asks; the buildings change a few dozen times a game.
@last_by_identity
def _harbors_by_seat(owner: tuple[int, ...], harbors: tuple[int, ...]) -> Mapping[int, Set[int]]:
    """Each seat's harbor kinds, from the spots at a harbor (read-only: the mapping is shared)."""
    out: dict[int, set[int]] = {}
    for spot, i in board.HARBOR_SPOT_INDEX:
        if owner[spot] >= 0:
            out.setdefault(owner[spot], set()).add(harbors[i])
    return {seat: frozenset(kinds) for seat, kinds in out.items()}


def rate(state: State, seat: int, kind: int, harbors: Set[int] | None = None) -> int:
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


# Every trade there can be, built once: commands are frozen, and listing trades is frequent.
_TRADES = tuple(tuple(cmd.TradeBank(give=give, get=get) for get in KINDS) for give in KINDS)


def bank_options(state: State, seat: int) -> list[cmd.TradeBank]:
    hand = state.players[seat].hand
    ks = kinds(state)
    gives = [k for k in ks if hand[k] >= BEST_RATE]
    if not gives:
        return []
    harbors = _harbors(state, seat)
    bank = state.bank
    gets = [k for k in ks if bank[k] > 0]
    out: list[cmd.TradeBank] = []
    for give in gives:
        if hand[give] >= rate(state, seat, give, harbors):
            trades = _TRADES[give]
            out.extend(trades[get] for get in gets if get != give)
    return out


def trade_bank(f: CatanFold, seat: int, c: cmd.TradeBank) -> None:
    f.emit(
        ev.CardsPaid(seat=seat, cards=one(c.give, rate(f.state, seat, c.give))),
        ev.CardsGained(seat=seat, cards=one(c.get)),
    )
