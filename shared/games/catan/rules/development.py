"""Base-game development cards and Largest Army (docs/rules/catan.md §13)."""

from __future__ import annotations

from shared.games.catan import commands as cmd
from shared.games.catan import events as ev
from shared.games.catan.cards import DEV_CARD, EMPTY, RESOURCES, add, covers, one
from shared.games.catan.rules.building import ROADS, road_spots, roads_built
from shared.games.catan.rules.flow import CatanFold, open_task, set_effects
from shared.games.catan.state import State

LARGEST_ARMY_MIN = 3


def can_buy(state: State, seat: int) -> bool:
    return bool(state.dev_deck) and covers(state.players[seat].hand, DEV_CARD)


def buy(f: CatanFold, seat: int) -> None:
    card = f.state.dev_deck[0]
    f.emit(
        ev.CardsPaid(seat=seat, cards=DEV_CARD),
        ev.CardDrawn(seat=seat, deck=-1, card=card),
        ev.CardDrawnShadow(seat=seat, deck=-1),
    )


def playable(state: State, seat: int) -> list[str]:
    p = state.players[seat]
    if state.effects.dev_played or not p.cards:
        return []
    old = list(p.cards)
    for c in p.fresh:
        old.remove(c)
    return sorted({c for c in old if c != "victory_point"})


def play_options(state: State, seat: int) -> list[cmd.PlayDevCard]:
    out: list[cmd.PlayDevCard] = []
    for card in playable(state, seat):
        if card == "knight" or (card == "road_building" and road_spots(state, seat)):
            out.append(cmd.PlayDevCard(card=card))
        elif card == "monopoly":
            out.extend(cmd.PlayDevCard(card=card, kinds=(k,)) for k in RESOURCES)
        elif card == "year_of_plenty":
            out.extend(cmd.PlayDevCard(card=card, kinds=ab) for ab in plenty_choices(state))
    return out


def plenty_choices(state: State) -> list[tuple[int, ...]]:
    """Year of Plenty takes two resources; from a bank holding fewer, what it holds
    (docs/rules/catan.md §13)."""
    left = [k for k in RESOURCES for _ in range(state.bank[k])]
    if len(left) < 2:
        return [tuple(left)]
    pairs = [(a, b) for a in RESOURCES for b in RESOURCES if a <= b]
    return [ab for ab in pairs if _bank_has(state, ab)]


def _bank_has(state: State, kinds: tuple[int, ...]) -> bool:
    need = EMPTY
    for k in kinds:
        need = add(need, one(k))
    return covers(state.bank, need)


def play(f: CatanFold, seat: int, c: cmd.PlayDevCard) -> None:
    f.emit(ev.CardPlayed(seat=seat, card=c.card))
    set_effects(f, dev_played=True)
    if c.card == "knight":
        _army(f, seat)
        open_task(f, "robber", (seat,), owner=seat)
    elif c.card == "road_building":
        n = min(2, ROADS - roads_built(f.state, seat))
        open_task(f, "free_roads", (seat,), owner=seat, amounts=(n,))
    elif c.card == "year_of_plenty":
        gained = EMPTY
        for k in c.kinds:
            gained = add(gained, one(k))
        if any(gained):
            f.emit(ev.CardsGained(seat=seat, cards=gained))
    elif c.card == "monopoly":
        monopoly(f, seat, c.kinds[0], cap=99)


def monopoly(f: CatanFold, seat: int, kind: int, cap: int) -> None:
    for other in range(f.state.seats):
        n = min(cap, f.state.players[other].hand[kind])
        if other != seat and n:
            f.emit(ev.CardsPassed(src=other, dst=seat, cards=one(kind, n)))


def _army(f: CatanFold, seat: int) -> None:
    s = f.state
    mine = s.players[seat].knights_played
    holder = s.largest_army
    if holder == seat or mine < LARGEST_ARMY_MIN:
        return
    if holder < 0 or mine > s.players[holder].knights_played:
        f.emit(ev.LargestArmySet(holder=seat))
