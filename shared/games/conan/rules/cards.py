"""Cards and effects: drawing with reshuffles, table cards, event effects.

Contest effects (dice, faces, rerolls, free forced march) are applied by the
contest module through ``contest_effects``; everything else is here.
"""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.conan import events as ev
from shared.games.conan.content import Effect, KingdomCard, Pack
from shared.games.conan.rules.board import ConanFold, friendly, home, reserve, room, supply_left
from shared.games.conan.state import Side, State


def draw(fold: ConanFold, seat: int, deck: str, n: int) -> None:
    """Draw ``n`` cards, reshuffling the discards when the deck runs out."""
    got: list[str] = []
    while len(got) < n:
        pile = fold.state.strategy_deck if deck == "strategy" else fold.state.seats[seat].kingdom_deck
        if not pile:
            if not _reshuffle(fold, seat, deck):
                break
            continue
        take = pile[: n - len(got)]
        fold.emit(ev.CardsDrawn(seat=seat, deck=deck, cards=take))
        got.extend(take)
    if got:
        fold.emit(ev.CardsDrawnCount(seat=seat, deck=deck, count=len(got)))


def _reshuffle(fold: ConanFold, seat: int, deck: str) -> bool:
    if deck == "strategy":
        discard = fold.state.strategy_discard
    else:
        discard = fold.state.seats[seat].kingdom_discard
    if not discard:
        return False
    order = tuple(fold.rng.shuffled(sorted(discard)))
    fold.emit(ev.DeckShuffled(deck=deck, order=order, seat=seat if deck == "kingdom" else -1))
    return True


def table_cost(pack: Pack, state: State, seat: int, card: KingdomCard) -> int:

    cost = card.cost
    s = state.seats[seat]
    for art in s.artifacts:
        for e in pack.artifacts[art].effects:
            if e.op == "cost_modifier" and e.card_type in ("table", ""):
                cost = max(min(e.min, cost), cost + e.delta)
    return cost


def play_table_card(fold: ConanFold, seat: int, card: KingdomCard) -> None:
    cost = table_cost(fold.pack, fold.state, seat, card)
    fold.emit(ev.ResourcesChanged(seat=seat, reason="table_card", gold=-cost))
    fold.emit(ev.TableCardPlayed(seat=seat, card=card.id))


def refresh_table_card(fold: ConanFold, seat: int, card: KingdomCard) -> None:
    cost = table_cost(fold.pack, fold.state, seat, card)
    fold.emit(ev.ResourcesChanged(seat=seat, reason="refresh", gold=-cost))
    fold.emit(ev.TableCardTurned(seat=seat, card=card.id, exhausted=False))


def resolve_event(fold: ConanFold, seat: int, card: KingdomCard) -> None:
    fold.emit(ev.CardsDiscarded(seat=seat, deck="kingdom", cards=(card.id,)))
    for effect in card.effects:
        _event_effect(fold, seat, effect)


def _event_effect(fold: ConanFold, seat: int, e: Effect) -> None:
    match e.op:
        case "draw":
            draw(fold, seat, e.deck, e.n)
        case "gain":
            amount = e.n if e.resource == "gold" else min(e.n, supply_left(fold.pack, fold.state, e.resource))
            fold.emit(ev.ResourcesChanged(seat=seat, reason="event", **{e.resource: amount}))
        case "place_units":
            where = home(fold.pack, fold.state, seat)
            n = min(e.n, reserve(fold.pack, fold.state, seat), room(fold.pack, fold.state, seat, where))
            if n > 0:
                fold.emit(ev.UnitsChanged(seat=seat, province=where, delta=n))
        case "raider_remove":
            left = e.n
            for p in fold.pack.provinces:
                here = fold.state.provinces[fold.pack.index[p.id]]
                if left > 0 and here.raiders and friendly(fold.pack, fold.state, seat, p.id):
                    gone = min(left, here.raiders)
                    fold.emit(ev.RaidersChanged(province=p.id, delta=-gone))
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


def hand_limit(fold: ConanFold, seat: int) -> None:
    """Discard down to the option's hand limit (0 = none): the oldest-sorted first."""
    limit = fold.state.options.hand_limit
    if not limit:
        return
    s = fold.state.seats[seat]
    if len(s.strategy_hand) > limit:
        fold.emit(ev.CardsDiscarded(seat=seat, deck="strategy", cards=s.strategy_hand[limit:]))
    if len(s.kingdom_hand) > limit:
        fold.emit(ev.CardsDiscarded(seat=seat, deck="kingdom", cards=s.kingdom_hand[limit:]))
