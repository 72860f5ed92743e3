"""Domestic trade: the active seat offers to one seat or all; each answers at
once (accept, decline, or counter); the active seat then confirms one deal.
Any number of trades a turn; a cap on offers is a house-rule option
(docs/rules/catan.md §6).

The answers are hidden until every addressed seat has answered. Legal lists a
bounded canonical family of offers and counters (one card for one card); decide
accepts any valid offer or counter.
"""

from __future__ import annotations

from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.cards import KINDS, Hand, covers, one
from shared.games.catan.rejections import HOUSE_RULE_OFFER_CAP, INVALID_TRADE
from shared.games.catan.rules.flow import CatanFold, open_task, set_effects
from shared.games.catan.rules.trade import kinds
from shared.games.catan.state import Answer, State
from shared.kernel.rejection import require

DEAL = 17  # a confirmable deal in task data: partner seat, cards the active seat gives, cards it gets


def capped(state: State) -> bool:
    """Whether the table's house rule forbids another offer this turn (the rules set no limit)."""
    cap = state.options.trade_offers_per_turn
    return cap > 0 and state.effects.trade_offers >= cap


def terms_valid(state: State, give: Hand, get: Hand) -> bool:
    """Cards both ways, no gifts, nothing swapped for itself, only tradable kinds."""
    allowed = kinds(state)
    if len(give) != 8 or len(get) != 8 or min(give) < 0 or min(get) < 0:
        return False
    if not any(give) or not any(get) or any(give[k] and get[k] for k in KINDS):
        return False
    return all(k in allowed for k in KINDS if give[k] or get[k])


def offer_valid(state: State, seat: int, c: cmd.OfferTrade) -> bool:
    if c.to != -1 and (c.to == seat or not 0 <= c.to < state.seats):
        return False
    return terms_valid(state, c.give, c.get) and covers(state.players[seat].hand, c.give)


# Every one-for-one offer, built once (commands are frozen): per kind given, one per kind asked.
_ONE_FOR_ONE = tuple(tuple(cmd.OfferTrade(give=one(g), get=one(w)) for w in KINDS) for g in KINDS)


def offer_options(state: State, seat: int) -> list[cmd.OfferTrade]:
    """One card for one card, to every other seat."""
    if capped(state):
        return []
    hand = state.players[seat].hand
    ks = kinds(state)
    return [_ONE_FOR_ONE[g][w] for g in ks if hand[g] for w in ks if w != g]


def offer(f: CatanFold, seat: int, c: cmd.OfferTrade) -> None:
    cap = f.state.options.trade_offers_per_turn
    require(
        not capped(f.state),
        HOUSE_RULE_OFFER_CAP,
        f"A house rule of this table allows {cap} trade offers per turn; the game's rules set no limit.",
        cap=cap,
    )
    require(offer_valid(f.state, seat, c), INVALID_TRADE, "This trade offer is not allowed.")
    if cap:
        set_effects(f, trade_offers=f.state.effects.trade_offers + 1)
    others = tuple(s for s in range(f.state.seats) if s != seat) if c.to == -1 else (c.to,)
    open_task(f, "trade", others, owner=seat, data=c.give + c.get)


def answer_options(state: State, seat: int) -> list[cmd.Choose | cmd.CounterTrade]:
    """Decline, accept if one holds the asked cards, or counter: one held card for what was offered."""
    task = state.task
    assert task is not None
    hand, offered, asked = state.players[seat].hand, task.data[:8], task.data[8:16]
    out: list[cmd.Choose | cmd.CounterTrade] = [cmd.Choose(choice=0)]
    if covers(hand, asked):
        out.append(cmd.Choose(choice=1))
    for k in kinds(state):
        if hand[k] and one(k) != asked and terms_valid(state, one(k), offered):
            out.append(cmd.CounterTrade(give=one(k), get=offered))
    return out


def counter_valid(state: State, seat: int, c: cmd.CounterTrade) -> bool:
    return terms_valid(state, c.give, c.get) and covers(state.players[seat].hand, c.give)


def answers_closed(f: CatanFold, owner: int, data: tuple[int, ...], answers: tuple[Answer, ...]) -> None:
    """Put every acceptance and counter before the active seat. Counters it
    cannot pay stay listed (it may only decline them): dropping them here would
    tell everyone which cards its hand lacks."""
    offered, asked = data[:8], data[8:16]
    deals: list[int] = []
    for a in answers:
        if a.choice == 1:
            deals += (a.seat, *offered, *asked)
        elif a.choice == 2:
            deals += (a.seat, *a.counter, *a.cards)
    if deals:
        open_task(f, "trade_confirm", (owner,), owner=owner, data=tuple(deals))


def confirm_choices(state: State) -> list[int]:
    """Decline, or any listed deal the active seat can pay."""
    task = state.task
    assert task is not None
    hand = state.players[task.owner].hand
    count = len(task.data) // DEAL
    return [-1, *(i for i in range(count) if covers(hand, tuple(task.data[i * DEAL + 1 : i * DEAL + 9])))]


def execute(f: CatanFold, owner: int, data: tuple[int, ...], index: int) -> None:
    deal = data[index * DEAL : (index + 1) * DEAL]
    partner, give, get = deal[0], deal[1:9], deal[9:17]
    f.emit(
        ev.CardsPassed(src=owner, dst=partner, cards=give), ev.CardsPassed(src=partner, dst=owner, cards=get)
    )
