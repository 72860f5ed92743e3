"""Age change step 3 (docs/rules/conan.md §11): each player, in turn, places one unit in every
friendly province with a fort or city and one at home, or turns a fort into a
city instead. Every placement is the player's choice, one at a time."""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.conan import events as ev
from shared.games.conan.rules.board import Tx, home, pack_of, prov, reserve, room
from shared.games.conan.state import AgeChange, Garrison, State


def spots(state: State, seat: int) -> list[str]:
    """Provinces that may each take one placement: forts, cities, then home."""
    marked = [
        p.id
        for p in pack_of(state).provinces
        if prov(state, p.id).owner == seat and prov(state, p.id).marker in ("fort", "city")
    ]
    return [*marked, *([home(state, seat)] if home(state, seat) not in marked else [])]


def options(state: State, phase: Garrison) -> list[tuple[str, bool]]:
    """(province, city?) placements still open to the seat."""
    seat = phase.seat
    out = []
    for pid in spots(state, seat):
        if pid in phase.used:
            continue
        if reserve(state, seat) > 0 and room(state, seat, pid) > 0:
            out.append((pid, False))
        if prov(state, pid).marker == "fort" and prov(state, pid).owner == seat:
            out.append((pid, True))
    return out


def begin(tx: Tx, phase: AgeChange, seat: int) -> None:
    """Ask the seat for its placements, or pass on when it has none."""
    garrison = Garrison(seat=seat)
    if options(tx.state, garrison):
        tx.emit(ev.PhasePushed(phase=garrison))
    else:
        tx.emit(ev.PhaseReplaced(phase=replace(phase, pos=phase.pos + 1)))


def place(tx: Tx, phase: Garrison, pid: str, city: bool) -> None:
    if city:
        tx.emit(ev.MarkerSet(province=pid, owner=phase.seat, marker="city"))
    else:
        tx.emit(ev.UnitsChanged(seat=phase.seat, province=pid, delta=1))
    tx.emit(ev.PhaseReplaced(phase=replace(phase, used=tuple(sorted((*phase.used, pid))))))


def finish(tx: Tx) -> None:
    """The seat is done (or has nothing left to place): the next one goes."""
    tx.emit(ev.PhasePopped())
    age = tx.state.phase
    assert isinstance(age, AgeChange)
    tx.emit(ev.PhaseReplaced(phase=replace(age, pos=age.pos + 1)))
