"""Age change step 3 (docs/rules/conan.md §11): each player, in turn, places one unit in every
friendly province with a fort or city and one at home, or turns a fort into a
city instead. Every placement is the player's choice, one at a time."""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.conan import events as ev
from shared.games.conan.content import Pack
from shared.games.conan.rules.board import ConanFold, home, prov, reserve, room
from shared.games.conan.state import AgeChange, Garrison, State


def spots(pack: Pack, state: State, seat: int) -> list[str]:
    """Provinces that may each take one placement: forts, cities, then home."""
    marked = [
        p.id
        for p in pack.provinces
        if prov(pack, state, p.id).owner == seat and prov(pack, state, p.id).marker in ("fort", "city")
    ]
    return [*marked, *([home(pack, state, seat)] if home(pack, state, seat) not in marked else [])]


def options(pack: Pack, state: State, phase: Garrison) -> list[tuple[str, bool]]:
    """(province, city?) placements still open to the seat."""
    seat = phase.seat
    out = []
    for pid in spots(pack, state, seat):
        if pid in phase.used:
            continue
        if reserve(pack, state, seat) > 0 and room(pack, state, seat, pid) > 0:
            out.append((pid, False))
        if prov(pack, state, pid).marker == "fort" and prov(pack, state, pid).owner == seat:
            out.append((pid, True))
    return out


def begin(fold: ConanFold, phase: AgeChange, seat: int) -> None:
    """Ask the seat for its placements, or pass on when it has none."""
    garrison = Garrison(seat=seat)
    if options(fold.pack, fold.state, garrison):
        fold.emit(ev.PhasePushed(phase=garrison))
    else:
        fold.emit(ev.PhaseReplaced(phase=replace(phase, pos=phase.pos + 1)))


def place(fold: ConanFold, phase: Garrison, pid: str, city: bool) -> None:
    if city:
        fold.emit(ev.MarkerSet(province=pid, owner=phase.seat, marker="city"))
    else:
        fold.emit(ev.UnitsChanged(seat=phase.seat, province=pid, delta=1))
    fold.emit(ev.PhaseReplaced(phase=replace(phase, used=tuple(sorted((*phase.used, pid))))))


def finish(fold: ConanFold) -> None:
    """The seat is done (or has nothing left to place): the next one goes."""
    fold.emit(ev.PhasePopped())
    age = fold.state.phase
    assert isinstance(age, AgeChange)
    fold.emit(ev.PhaseReplaced(phase=replace(age, pos=age.pos + 1)))
