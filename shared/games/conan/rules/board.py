"""Board queries, and the fold every rule module writes its effects through.

Rules run procedurally: ``ConanFold.emit`` records an event and folds it at
once, so a rule reads the state as it is after its own earlier effects. The
content pack is handed in, never looked up: a query that needs the map or the
cards takes the pack as its first argument, and a fold carries the pack its
``evolve`` was bound to.
"""

from __future__ import annotations

from shared.games.conan.content import Pack
from shared.games.conan.events import AnyEvent
from shared.games.conan.evolve import Evolve
from shared.games.conan.state import NEUTRAL, ProvinceState, State
from shared.kernel.fold import Fold
from shared.kernel.rng import Rng


class ConanFold(Fold[State, AnyEvent]):
    """A decision in progress over one content pack."""

    __slots__ = ("pack",)

    def __init__(self, pack: Pack, state: State, rng: Rng) -> None:
        super().__init__(state, Evolve(pack), rng)
        #: The table's content pack, which every board query of the rules reads.
        self.pack = pack


def prov(pack: Pack, state: State, pid: str) -> ProvinceState:
    return state.provinces[pack.index[pid]]


def home(pack: Pack, state: State, seat: int) -> str:
    return pack.home(state.seats[seat].kingdom)


def home_owner(pack: Pack, state: State, pid: str) -> int:
    """The seat whose home this is, or NEUTRAL (also for kingdoms not in play)."""
    kingdom = pack.province(pid).home_of
    for i, s in enumerate(state.seats):
        if s.kingdom == kingdom:
            return i
    return NEUTRAL


def in_play(pack: Pack, state: State, pid: str) -> bool:
    return pack.province(pid).zone in state.zones


def friendly(pack: Pack, state: State, seat: int, pid: str) -> bool:
    return prov(pack, state, pid).owner == seat or home(pack, state, seat) == pid


def units_on_map(state: State, seat: int) -> int:
    return sum(p.units[seat] for p in state.provinces)


def emissaries_on_map(state: State, seat: int) -> int:
    return sum(p.emissaries[seat] for p in state.provinces)


def unit_cap(pack: Pack, state: State, seat: int) -> int:
    return pack.kingdoms[state.seats[seat].kingdom].units


def emissary_cap(pack: Pack, state: State, seat: int) -> int:
    return pack.kingdoms[state.seats[seat].kingdom].emissaries


def room(pack: Pack, state: State, seat: int, pid: str) -> int:
    """How many more of ``seat``'s units fit in ``pid`` (the home has no limit)."""
    if home(pack, state, seat) == pid:
        return 10_000
    return max(0, pack.header.stack_limit - prov(pack, state, pid).units[seat])


def reserve(pack: Pack, state: State, seat: int) -> int:
    return unit_cap(pack, state, seat) - units_on_map(state, seat)


def friendly_provinces(pack: Pack, state: State, seat: int) -> list[str]:
    return [p.id for p in pack.provinces if friendly(pack, state, seat, p.id)]


def others_with_units(pack: Pack, state: State, seat: int, pid: str) -> list[int]:
    return [i for i, n in enumerate(prov(pack, state, pid).units) if n > 0 and i != seat]


def engagement(pack: Pack, state: State, seat: int, pid: str) -> str:
    """How the seat's army in ``pid`` stands, which decides how it may leave
    (docs/rules/conan.md §5.3): ``""`` free (friendly ground, or no army),
    ``besieged`` (its friendly province holds another army: it may not leave),
    ``campaign`` (alone in a neutral province), ``battle`` (with other armies
    in a neutral province) or ``siege`` (in another player's province)."""
    here = prov(pack, state, pid)
    if here.units[seat] == 0:
        return ""
    others = others_with_units(pack, state, seat, pid)
    if friendly(pack, state, seat, pid):
        return "besieged" if others else ""
    if here.owner not in (NEUTRAL, seat):
        return "siege"
    return "battle" if others else "campaign"


def active_seats(state: State) -> list[int]:
    return [i for i, s in enumerate(state.seats) if not s.dead]


def clockwise(state: State, start: int) -> list[int]:
    n = len(state.seats)
    return [(start + k) % n for k in range(n) if not state.seats[(start + k) % n].dead]


def has_artifact_op(pack: Pack, state: State, seat: int, op: str, **match: str) -> int:
    """Sum of ``n`` (or count) of permanent effects ``op`` the seat holds."""
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


def supply_left(pack: Pack, state: State, what: str) -> int:
    cap = pack.header.supply.get(what, 0)
    if what == "raiders":
        return cap - sum(p.raiders for p in state.provinces)
    total: int = sum(getattr(s, what) for s in state.seats)
    return cap - total
