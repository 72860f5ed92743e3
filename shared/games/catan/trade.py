"""Maritime trade (4:1, harbors, C&K 2:1 rates) and domestic offers with answers."""

from __future__ import annotations

from shared.games.catan import board
from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.cards import COMMODITIES, KINDS, RESOURCES, TRADE, Hand, covers, one
from shared.games.catan.flow import Ctx, open_task
from shared.games.catan.state import State
from shared.kernel.rejection import require


def kinds(state: State) -> tuple[int, ...]:
    return KINDS if state.options.ck else RESOURCES


def _harbors(state: State, seat: int) -> set[int]:
    out = set()
    for spot in range(board.N_SPOTS):
        if state.owner[spot] == seat:
            h = board.harbor_at(state.harbors, spot)
            if h is not None:
                out.add(h)
    return out


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


def bank_options(state: State, seat: int) -> list[cmd.TradeBank]:
    hand = state.players[seat].hand
    ks = kinds(state)
    harbors = _harbors(state, seat)
    out = []
    for give in ks:
        if hand[give] >= rate(state, seat, give, harbors):
            out.extend(cmd.TradeBank(give=give, get=get) for get in ks if get != give and state.bank[get] > 0)
    return out


def trade_bank(ctx: Ctx, seat: int, c: cmd.TradeBank) -> None:
    ctx.emit(
        ev.CardsPaid(seat=seat, cards=one(c.give, rate(ctx.state, seat, c.give))),
        ev.CardsGained(seat=seat, cards=one(c.get)),
    )


def offer_valid(state: State, seat: int, give: Hand, get: Hand, to: int) -> bool:
    ks = set(kinds(state))
    if len(give) != 8 or len(get) != 8 or min(give) < 0 or min(get) < 0:
        return False
    if not any(give) or not any(get) or any(give[k] and get[k] for k in KINDS):
        return False
    if any((give[k] or get[k]) and k not in ks for k in KINDS):
        return False
    if to != -1 and (to == seat or not 0 <= to < state.seats):
        return False
    return (
        covers(state.players[seat].hand, give)
        and state.effects.trade_offers < state.options.trade_offers_per_turn
    )


def offer_options(state: State, seat: int) -> list[cmd.OfferTrade]:
    """A bounded canonical family: one card for one card, offered to every other seat."""
    if state.effects.trade_offers >= state.options.trade_offers_per_turn:
        return []
    hand = state.players[seat].hand
    ks = kinds(state)
    return [cmd.OfferTrade(give=one(g), get=one(w)) for g in ks if hand[g] for w in ks if w != g]


def offer(ctx: Ctx, seat: int, c: cmd.OfferTrade) -> None:
    require(
        offer_valid(ctx.state, seat, c.give, c.get, c.to), "invalid_trade", "This trade offer is not allowed."
    )
    ctx.effects(trade_offers=ctx.state.effects.trade_offers + 1)
    others = tuple(s for s in range(ctx.state.seats) if s != seat) if c.to == -1 else (c.to,)
    open_task(ctx, "trade", others, owner=seat, data=c.give + c.get)


def answer_options(state: State, seat: int) -> list[cmd.Choose]:
    task = state.task
    assert task is not None
    get = task.data[8:]
    yes = [cmd.Choose(choice=1)] if covers(state.players[seat].hand, get) else []
    return [cmd.Choose(choice=0), *yes]


def answers_closed(ctx: Ctx, owner: int, data: tuple[int, ...], accepted: tuple[int, ...]) -> None:
    if accepted:
        open_task(ctx, "trade_confirm", (owner,), owner=owner, data=data + accepted)


def confirm_options(state: State) -> list[cmd.Choose]:
    task = state.task
    assert task is not None
    return [cmd.Choose(choice=-1), *(cmd.Choose(choice=s) for s in task.data[16:])]


def execute(ctx: Ctx, owner: int, data: tuple[int, ...], partner: int) -> None:
    give, get = data[:8], data[8:16]
    ctx.emit(
        ev.CardsPassed(src=owner, dst=partner, cards=give), ev.CardsPassed(src=partner, dst=owner, cards=get)
    )
