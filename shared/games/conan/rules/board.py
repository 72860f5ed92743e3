"""Board queries and the transaction helper every rule module writes through.

Rules run procedurally: ``Tx.emit`` records an event and folds it at once, so
a rule reads the state as it is after its own earlier effects. The input
state is never touched (records are frozen).
"""

from __future__ import annotations

from typing import Any

from shared.games.conan.evolve import evolve
from shared.games.conan.loader import Pack, get_pack
from shared.games.conan.state import NEUTRAL, ProvinceState, State
from shared.kernel.rng import Rng


class Tx:
    __slots__ = ("events", "rng", "state")

    def __init__(self, state: State | None, rng: Rng) -> None:
        self.state = state  # type: ignore[assignment]
        self.rng = rng
        self.events: list[Any] = []

    def emit(self, *events: Any) -> None:
        for e in events:
            self.events.append(e)
            self.state = evolve(self.state, e)

    @property
    def pack(self) -> Pack:
        return get_pack(self.state.options.pack)


def pack_of(state: State) -> Pack:
    return get_pack(state.options.pack)


def prov(state: State, pid: str) -> ProvinceState:
    return state.provinces[pack_of(state).index[pid]]


def home(state: State, seat: int) -> str:
    return pack_of(state).home(state.seats[seat].kingdom)


def home_owner(state: State, pid: str) -> int:
    """The seat whose home this is, or NEUTRAL (also for kingdoms not in play)."""
    kingdom = pack_of(state).province(pid).home_of
    for i, s in enumerate(state.seats):
        if s.kingdom == kingdom:
            return i
    return NEUTRAL


def in_play(state: State, pid: str) -> bool:
    return pack_of(state).province(pid).zone in state.zones


def friendly(state: State, seat: int, pid: str) -> bool:
    return prov(state, pid).owner == seat or home(state, seat) == pid


def enemy(state: State, seat: int, pid: str) -> bool:
    """Holding another player's control marker (homes are never attackable)."""
    owner = prov(state, pid).owner
    return owner not in (NEUTRAL, seat)


def units_on_map(state: State, seat: int) -> int:
    return sum(p.units[seat] for p in state.provinces)


def emissaries_on_map(state: State, seat: int) -> int:
    return sum(p.emissaries[seat] for p in state.provinces)


def unit_cap(state: State, seat: int) -> int:
    return pack_of(state).kingdoms[state.seats[seat].kingdom].units


def emissary_cap(state: State, seat: int) -> int:
    return pack_of(state).kingdoms[state.seats[seat].kingdom].emissaries


def room(state: State, seat: int, pid: str) -> int:
    """How many more of ``seat``'s units fit in ``pid`` (the home has no limit)."""
    if home(state, seat) == pid:
        return 10_000
    return max(0, pack_of(state).header.stack_limit - prov(state, pid).units[seat])


def reserve(state: State, seat: int) -> int:
    return unit_cap(state, seat) - units_on_map(state, seat)


def friendly_provinces(state: State, seat: int) -> list[str]:
    return [p.id for p in pack_of(state).provinces if friendly(state, seat, p.id)]


def others_with_units(state: State, seat: int, pid: str) -> list[int]:
    return [i for i, n in enumerate(prov(state, pid).units) if n > 0 and i != seat]


def engagement(state: State, seat: int, pid: str) -> str:
    """How the seat's army in ``pid`` stands, which decides how it may leave
    (docs/rules/conan.md §5.3): ``""`` free (friendly ground, or no army),
    ``besieged`` (its friendly province holds another army: it may not leave),
    ``campaign`` (alone in a neutral province), ``battle`` (with other armies
    in a neutral province) or ``siege`` (in another player's province)."""
    here = prov(state, pid)
    if here.units[seat] == 0:
        return ""
    others = others_with_units(state, seat, pid)
    if friendly(state, seat, pid):
        return "besieged" if others else ""
    if here.owner not in (NEUTRAL, seat):
        return "siege"
    return "battle" if others else "campaign"


def active_seats(state: State) -> list[int]:
    return [i for i, s in enumerate(state.seats) if not s.dead]


def clockwise(state: State, start: int) -> list[int]:
    n = len(state.seats)
    return [(start + k) % n for k in range(n) if not state.seats[(start + k) % n].dead]


def has_artifact_op(state: State, seat: int, op: str, **match: str) -> int:
    """Sum of ``n`` (or count) of permanent effects ``op`` the seat holds."""
    pack = pack_of(state)
    s = state.seats[seat]
    cards = [pack.artifacts[a] for a in s.artifacts]
    if s.bonus:
        cards.append(pack.bonus)
    total = 0
    for card in cards:
        for e in card.effects:
            if e.op == op and all(getattr(e, k) in (v, "") for k, v in match.items()):
                total += e.n or 1
    return total


def supply_left(state: State, what: str) -> int:
    cap = pack_of(state).header.supply.get(what, 0)
    if what == "raiders":
        return cap - sum(p.raiders for p in state.provinces)
    return cap - sum(getattr(s, what) for s in state.seats)
