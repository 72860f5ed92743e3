"""The change of age in seven steps (docs/rules/conan.md §11); with ``final``
it runs the raids and then final scoring instead (§12). Steps go clockwise from the first
player; each is finished by everyone before the next begins."""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.conan import events as ev
from shared.games.conan.content import Pack
from shared.games.conan.rules import garrison, scoring
from shared.games.conan.rules.adventure import reveal_next
from shared.games.conan.rules.bidding import start_bidding
from shared.games.conan.rules.board import (
    ConanFold,
    active_seats,
    clockwise,
    emissaries_on_map,
    emissary_cap,
    friendly_provinces,
    home,
    prov,
    reserve,
    room,
)
from shared.games.conan.rules.cards import draw
from shared.games.conan.rules.turn import roll_pool
from shared.games.conan.state import AgeChange, GameOver, State, Turn

INTERACTIVE = (1, 3, 4)


def order(state: State) -> list[int]:
    return clockwise(state, state.first_player)


def current(state: State, phase: AgeChange) -> int | None:
    seats = order(state)
    return seats[phase.pos] if phase.step in INTERACTIVE and phase.pos < len(seats) else None


def raided(pack: Pack, state: State, seat: int) -> list[str]:
    """The seat's friendly provinces whose raiders count (§11 step 1)."""
    spots = friendly_provinces(pack, state, seat)
    if not state.options.raids_count_home:
        spots = [p for p in spots if p != home(pack, state, seat)]
    return [p for p in spots if prov(pack, state, p).raiders]


def raid_choices(pack: Pack, state: State, seat: int) -> list[str]:
    return [p for p in raided(pack, state, seat) if prov(pack, state, p).units[seat]]


def needs_input(pack: Pack, state: State, phase: AgeChange) -> bool:
    seat = current(state, phase)
    if seat is None:
        return phase.step == 5
    match phase.step:
        case 1:
            return bool(raid_choices(pack, state, seat))
        case 3:
            return False  # ``auto`` asks the seat through a Garrison phase
        case _:
            return state.seats[seat].gold >= min(pack.header.purchase_costs.values())


def auto(fold: ConanFold, phase: AgeChange) -> None:
    """Run the part of the current step that needs nobody's decision."""
    seat = current(fold.state, phase)
    if seat is not None:
        if phase.step == 1:
            resolve_raids(fold, phase, seat, ())
        elif phase.step == 3:
            garrison.begin(fold, phase, seat)
        else:
            _next(fold, phase)
        return
    match phase.step:
        case 1:
            for p in fold.pack.provinces:
                if prov(fold.pack, fold.state, p.id).raiders:
                    fold.emit(
                        ev.RaidersChanged(province=p.id, delta=-prov(fold.pack, fold.state, p.id).raiders)
                    )
            if phase.final:
                scoring.final(fold)
                fold.emit(ev.PhaseReplaced(phase=GameOver()))
                return
            _step(fold, phase, 2)
        case 2:
            for s in order(fold.state):
                scoring.income(fold, s, flat=True)
            scoring.objectives(fold)
            _step(fold, phase, 3)
        case 3 | 4:
            _step(fold, phase, phase.step + 1)
        case 5:
            pass  # awaiting the secret category choices
        case 6:
            fold.emit(ev.AgeStarted(age=fold.state.age + 1))
            if fold.state.options.bid_tokens_reset_each_age:
                tokens = tuple(sorted(fold.pack.header.bidding_tokens))
                for s in range(len(fold.state.seats)):
                    fold.emit(ev.BidTokensSet(seat=s, available=tokens, spent=()))
            reveal_next(fold)
            _step(fold, phase, 7)
            start_bidding(fold)
        case 7:
            _refresh_and_begin(fold)


def _step(fold: ConanFold, phase: AgeChange, step: int) -> None:
    fold.emit(ev.PhaseReplaced(phase=replace(phase, step=step, pos=0)))


def _next(fold: ConanFold, phase: AgeChange) -> None:
    fold.emit(ev.PhaseReplaced(phase=replace(phase, pos=phase.pos + 1)))


def resolve_raids(fold: ConanFold, phase: AgeChange, seat: int, sacrifice_in: tuple[str, ...]) -> None:
    for pid in sacrifice_in:
        fold.emit(ev.UnitsChanged(seat=seat, province=pid, delta=-1))
        fold.emit(ev.RaidersChanged(province=pid, delta=-prov(fold.pack, fold.state, pid).raiders))
    left = sum(prov(fold.pack, fold.state, p).raiders for p in raided(fold.pack, fold.state, seat))
    if left:
        fold.emit(ev.ResourcesChanged(seat=seat, reason="raids", ep=-scoring.ep_loss(fold.state, seat, left)))
    _next(fold, phase)


def purchases(pack: Pack, state: State, seat: int) -> list[tuple[str, str | None]]:
    costs = pack.header.purchase_costs
    gold = state.seats[seat].gold
    out: list[tuple[str, str | None]] = []
    if gold >= costs["emissary"] and emissaries_on_map(state, seat) < emissary_cap(pack, state, seat):
        spots = (
            friendly_provinces(pack, state, seat)
            if state.options.emissary_purchase_anywhere
            else [home(pack, state, seat)]
        )
        out += [("emissary", p) for p in spots]
    if gold >= costs["unit"] and reserve(pack, state, seat) > 0:
        out += [("unit", p) for p in friendly_provinces(pack, state, seat) if room(pack, state, seat, p) > 0]
    if gold >= costs["kingdom_and_strategy"]:
        out.append(("kingdom_and_strategy", None))
    if gold >= costs["strategy"]:
        out.append(("strategy", None))
    return out


def buy(fold: ConanFold, seat: int, item: str, province: str | None) -> None:
    cost = fold.pack.header.purchase_costs[item]
    fold.emit(ev.ResourcesChanged(seat=seat, reason="purchase", gold=-cost))
    match item:
        case "emissary":
            fold.emit(ev.EmissariesChanged(seat=seat, province=province or "", delta=1))
        case "unit":
            fold.emit(ev.UnitsChanged(seat=seat, province=province or "", delta=1))
        case "kingdom_and_strategy":
            draw(fold, seat, "kingdom", 1)
            draw(fold, seat, "strategy", 1)
        case _:
            draw(fold, seat, "strategy", 1)


def end_purchases(fold: ConanFold, phase: AgeChange) -> None:
    _next(fold, phase)


def category_awaited(state: State) -> list[int]:
    return [s for s in active_seats(state) if not state.seats[s].sealed_category]


def choose_category(fold: ConanFold, phase: AgeChange, seat: int, category: str) -> None:
    fold.emit(ev.CategoryChosen(seat=seat, category=category), ev.CategoryChoiceMade(seat=seat))
    if not category_awaited(fold.state):
        scoring.assign_artifacts(fold)
        _step(fold, phase, 6)


def _refresh_and_begin(fold: ConanFold) -> None:
    for seat, s in enumerate(fold.state.seats):
        for t in s.table:
            if t.exhausted:
                fold.emit(ev.TableCardTurned(seat=seat, card=t.card, exhausted=False))
    if fold.state.options.reroll_pool_at_age_start or not fold.state.fate_pool:
        roll_pool(fold)
    fold.emit(ev.PhaseReplaced(phase=Turn(seat=order(fold.state)[0])))
