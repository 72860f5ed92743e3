"""The change of age in seven steps (docs/rules/conan.md §11); with ``final``
it runs the raids and then final scoring instead (§12). Steps go clockwise from the first
player; each is finished by everyone before the next begins."""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.conan import events as ev
from shared.games.conan.rules import garrison, scoring
from shared.games.conan.rules.adventure import reveal_next
from shared.games.conan.rules.bidding import start_bidding
from shared.games.conan.rules.board import (
    Tx,
    active_seats,
    clockwise,
    emissaries_on_map,
    emissary_cap,
    friendly_provinces,
    home,
    pack_of,
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


def raided(state: State, seat: int) -> list[str]:
    """The seat's friendly provinces whose raiders count (§11 step 1)."""
    spots = friendly_provinces(state, seat)
    if not state.options.raids_count_home:
        spots = [p for p in spots if p != home(state, seat)]
    return [p for p in spots if prov(state, p).raiders]


def raid_choices(state: State, seat: int) -> list[str]:
    return [p for p in raided(state, seat) if prov(state, p).units[seat]]


def needs_input(state: State, phase: AgeChange) -> bool:
    seat = current(state, phase)
    if seat is None:
        return phase.step == 5
    match phase.step:
        case 1:
            return bool(raid_choices(state, seat))
        case 3:
            return False  # ``auto`` asks the seat through a Garrison phase
        case _:
            return state.seats[seat].gold >= min(pack_of(state).header.purchase_costs.values())


def auto(tx: Tx, phase: AgeChange) -> None:
    """Run the part of the current step that needs nobody's decision."""
    seat = current(tx.state, phase)
    if seat is not None:
        if phase.step == 1:
            resolve_raids(tx, phase, seat, ())
        elif phase.step == 3:
            garrison.begin(tx, phase, seat)
        else:
            _next(tx, phase)
        return
    match phase.step:
        case 1:
            for p in tx.pack.provinces:
                if prov(tx.state, p.id).raiders:
                    tx.emit(ev.RaidersChanged(province=p.id, delta=-prov(tx.state, p.id).raiders))
            if phase.final:
                scoring.final(tx)
                tx.emit(ev.PhaseReplaced(phase=GameOver()))
                return
            _step(tx, phase, 2)
        case 2:
            for s in order(tx.state):
                scoring.income(tx, s, flat=True)
            scoring.objectives(tx)
            _step(tx, phase, 3)
        case 3 | 4:
            _step(tx, phase, phase.step + 1)
        case 5:
            pass  # awaiting the secret category choices
        case 6:
            tx.emit(ev.AgeStarted(age=tx.state.age + 1))
            if tx.state.options.bid_tokens_reset_each_age:
                tokens = tuple(sorted(tx.pack.header.bidding_tokens))
                for s in range(len(tx.state.seats)):
                    tx.emit(ev.BidTokensSet(seat=s, available=tokens, spent=()))
            reveal_next(tx)
            _step(tx, phase, 7)
            start_bidding(tx)
        case 7:
            _refresh_and_begin(tx)


def _step(tx: Tx, phase: AgeChange, step: int) -> None:
    tx.emit(ev.PhaseReplaced(phase=replace(phase, step=step, pos=0)))


def _next(tx: Tx, phase: AgeChange) -> None:
    tx.emit(ev.PhaseReplaced(phase=replace(phase, pos=phase.pos + 1)))


def resolve_raids(tx: Tx, phase: AgeChange, seat: int, sacrifice_in: tuple[str, ...]) -> None:
    for pid in sacrifice_in:
        tx.emit(ev.UnitsChanged(seat=seat, province=pid, delta=-1))
        tx.emit(ev.RaidersChanged(province=pid, delta=-prov(tx.state, pid).raiders))
    left = sum(prov(tx.state, p).raiders for p in raided(tx.state, seat))
    if left:
        tx.emit(ev.ResourcesChanged(seat=seat, reason="raids", ep=-scoring.ep_loss(tx.state, seat, left)))
    _next(tx, phase)


def purchases(state: State, seat: int) -> list[tuple[str, str | None]]:
    costs = pack_of(state).header.purchase_costs
    gold = state.seats[seat].gold
    out: list[tuple[str, str | None]] = []
    if gold >= costs["emissary"] and emissaries_on_map(state, seat) < emissary_cap(state, seat):
        spots = (
            friendly_provinces(state, seat)
            if state.options.emissary_purchase_anywhere
            else [home(state, seat)]
        )
        out += [("emissary", p) for p in spots]
    if gold >= costs["unit"] and reserve(state, seat) > 0:
        out += [("unit", p) for p in friendly_provinces(state, seat) if room(state, seat, p) > 0]
    if gold >= costs["kingdom_and_strategy"]:
        out.append(("kingdom_and_strategy", None))
    if gold >= costs["strategy"]:
        out.append(("strategy", None))
    return out


def buy(tx: Tx, seat: int, item: str, province: str | None) -> None:
    cost = tx.pack.header.purchase_costs[item]
    tx.emit(ev.ResourcesChanged(seat=seat, reason="purchase", gold=-cost))
    match item:
        case "emissary":
            tx.emit(ev.EmissariesChanged(seat=seat, province=province or "", delta=1))
        case "unit":
            tx.emit(ev.UnitsChanged(seat=seat, province=province or "", delta=1))
        case "kingdom_and_strategy":
            draw(tx, seat, "kingdom", 1)
            draw(tx, seat, "strategy", 1)
        case _:
            draw(tx, seat, "strategy", 1)


def end_purchases(tx: Tx, phase: AgeChange) -> None:
    _next(tx, phase)


def category_awaited(state: State) -> list[int]:
    return [s for s in active_seats(state) if not state.seats[s].sealed_category]


def choose_category(tx: Tx, phase: AgeChange, seat: int, category: str) -> None:
    tx.emit(ev.CategoryChosen(seat=seat, category=category), ev.CategoryChoiceMade(seat=seat))
    if not category_awaited(tx.state):
        scoring.assign_artifacts(tx)
        _step(tx, phase, 6)


def _refresh_and_begin(tx: Tx) -> None:
    for seat, s in enumerate(tx.state.seats):
        for t in s.table:
            if t.exhausted:
                tx.emit(ev.TableCardTurned(seat=seat, card=t.card, exhausted=False))
    if tx.state.options.reroll_pool_at_age_start or not tx.state.fate_pool:
        roll_pool(tx)
    tx.emit(ev.PhaseReplaced(phase=Turn(seat=order(tx.state)[0])))
