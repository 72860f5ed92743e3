"""Cards and effects: drawing with reshuffles, table cards, event effects.

Contest effects (dice, faces, rerolls, free forced march) are applied by the
contest module through ``contest_effects``; everything else is here.
"""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.conan import events as ev
from shared.games.conan.content import Effect, KingdomCard
from shared.games.conan.rules.board import Tx, home, room, supply_left, units_on_map
from shared.games.conan.state import Side, State


def draw(tx: Tx, seat: int, deck: str, n: int) -> None:
    """Draw ``n`` cards, reshuffling the discards when the deck runs out."""
    got: list[str] = []
    while len(got) < n:
        pile = tx.state.strategy_deck if deck == "strategy" else tx.state.seats[seat].kingdom_deck
        if not pile:
            if not _reshuffle(tx, seat, deck):
                break
            continue
        take = pile[: n - len(got)]
        tx.emit(ev.CardsDrawn(seat=seat, deck=deck, cards=take))
        got.extend(take)
    if got:
        tx.emit(ev.CardsDrawnCount(seat=seat, deck=deck, count=len(got)))


def _reshuffle(tx: Tx, seat: int, deck: str) -> bool:
    if deck == "strategy":
        discard = tx.state.strategy_discard
    else:
        discard = tx.state.seats[seat].kingdom_discard
    if not discard:
        return False
    order = tuple(tx.rng.shuffled(sorted(discard)))
    tx.emit(ev.DeckShuffled(deck=deck, order=order, seat=seat if deck == "kingdom" else -1))
    return True


def table_cost(state: State, seat: int, card: KingdomCard) -> int:
    from shared.games.conan.rules.board import pack_of

    cost = card.cost
    s = state.seats[seat]
    for art in s.artifacts:
        for e in pack_of(state).artifacts[art].effects:
            if e.op == "cost_modifier" and e.card_type in ("table", ""):
                cost = max(min(e.min, cost), cost + e.delta)
    return cost


def play_table_card(tx: Tx, seat: int, card: KingdomCard) -> None:
    cost = table_cost(tx.state, seat, card)
    tx.emit(ev.ResourcesChanged(seat=seat, reason="table_card", gold=-cost))
    tx.emit(ev.TableCardPlayed(seat=seat, card=card.id))


def refresh_table_card(tx: Tx, seat: int, card: KingdomCard) -> None:
    cost = table_cost(tx.state, seat, card)
    tx.emit(ev.ResourcesChanged(seat=seat, reason="refresh", gold=-cost))
    tx.emit(ev.TableCardTurned(seat=seat, card=card.id, exhausted=False))


def resolve_event(tx: Tx, seat: int, card: KingdomCard) -> None:
    tx.emit(ev.CardsDiscarded(seat=seat, deck="kingdom", cards=(card.id,)))
    for effect in card.effects:
        _event_effect(tx, seat, effect)


def _event_effect(tx: Tx, seat: int, e: Effect) -> None:
    match e.op:
        case "draw":
            draw(tx, seat, e.deck, e.n)
        case "gain":
            amount = e.n if e.resource == "gold" else min(e.n, supply_left(tx.state, e.resource))
            tx.emit(ev.ResourcesChanged(seat=seat, reason="event", **{e.resource: amount}))
        case "place_units":
            where = home(tx.state, seat)
            cap = tx.pack.kingdoms[tx.state.seats[seat].kingdom].units - units_on_map(tx.state, seat)
            n = min(e.n, cap, room(tx.state, seat, where))
            if n > 0:
                tx.emit(ev.UnitsChanged(seat=seat, province=where, delta=n))
        case "raider_remove":
            left = e.n
            for p in tx.pack.provinces:
                here = tx.state.provinces[tx.pack.index[p.id]]
                from shared.games.conan.rules.board import friendly

                if left > 0 and here.raiders and friendly(tx.state, seat, p.id):
                    gone = min(left, here.raiders)
                    tx.emit(ev.RaidersChanged(province=p.id, delta=-gone))
                    left -= gone


def apply_to_side(side: Side, card: KingdomCard) -> Side:
    """Contest effects of a kingdom card on its player's side of the roll
    (``conan_counts_present`` is not one: Conan helps whom his rule says, see
    ``contest.with_conan``)."""
    for e in card.effects:
        match e.op:
            case "add_dice":
                side = replace(side, extra_dice=side.extra_dice + e.n)
            case "face_counts_as":
                side = replace(side, faces=(*side.faces, (e.face, e.successes, e.limit)))
            case "reroll":
                side = replace(side, free_rerolls=side.free_rerolls + 1)
    return side


def card_fits(card: KingdomCard, window: str, contest_kind: str, role: str) -> bool:
    if window not in card.windows:
        return False
    if card.when.contest and card.when.contest != contest_kind:
        return False
    return not card.when.role or card.when.role == role


def hand_limit(tx: Tx, seat: int) -> None:
    """Discard down to the option's hand limit (0 = none): the oldest-sorted first."""
    limit = tx.state.options.hand_limit
    if not limit:
        return
    s = tx.state.seats[seat]
    if len(s.strategy_hand) > limit:
        tx.emit(ev.CardsDiscarded(seat=seat, deck="strategy", cards=s.strategy_hand[limit:]))
    if len(s.kingdom_hand) > limit:
        tx.emit(ev.CardsDiscarded(seat=seat, deck="kingdom", cards=s.kingdom_hand[limit:]))
