"""Given/when/then helpers: a real opening, then a hand-set position, then
commands decided with scripted dice."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from msgspec.structs import replace

from shared.games.conan import GAME, Game
from shared.games.conan.content import Pack
from shared.games.conan.loader import BUNDLED, load_pack
from shared.games.conan.state import State
from shared.kernel.rng import Rng

SEED = b"\x07" * 32

#: The packs these tests play, each read once: the bundled one and a tiny one
#: that shows the engine needs no code for new content.
PACK = load_pack(BUNDLED / "ziggurat")
TINY = load_pack(Path(__file__).parent / "packs" / "tiny")
PACKS: dict[str, Pack] = {"ziggurat": PACK, "tiny": TINY}


class ScriptedRng(Rng):
    """Deals the given faces to ``choice`` calls (contest and fate dice)."""

    def __init__(self, faces: Sequence[str] = ()) -> None:
        super().__init__(SEED, 99)
        self.faces = list(faces)

    def choice(self, items):  # type: ignore[override]  # scripted: a test hands in the faces
        if self.faces:
            face = self.faces.pop(0)
            assert face in items, f"{face} is not a possible outcome"
            return face
        return super().choice(items)


def opening(seats: int = 4, game: Game = GAME, **options: Any) -> State:
    return game.fold(game.create(game.options(options), seats, Rng(SEED, 0)))


def seat_of(state: State, kingdom: str) -> int:
    return next(i for i, s in enumerate(state.seats) if s.kingdom == kingdom)


def edit_seat(state: State, seat: int, **changes: Any) -> State:
    seats = list(state.seats)
    seats[seat] = replace(seats[seat], **changes)
    return replace(state, seats=tuple(seats))


def edit_province(state: State, pid: str, **changes: Any) -> State:
    i = PACK.index[pid]
    provs = list(state.provinces)
    provs[i] = replace(provs[i], **changes)
    return replace(state, provinces=tuple(provs))


def set_units(state: State, pid: str, seat: int, n: int) -> State:
    i = PACK.index[pid]
    units = list(state.provinces[i].units)
    units[seat] = n
    return edit_province(state, pid, units=tuple(units))


def set_emissaries(state: State, pid: str, seat: int, n: int) -> State:
    i = PACK.index[pid]
    em = list(state.provinces[i].emissaries)
    em[seat] = n
    return edit_province(state, pid, emissaries=tuple(em))


def province(state: State, pid: str):
    return state.provinces[PACK.index[pid]]


def when(
    state: State, seat: int, command: Any, faces: Sequence[str] = (), game: Game = GAME
) -> tuple[State, list[Any]]:
    events = game.decide(state, seat, command, ScriptedRng(faces))
    return game.fold(events, state), events


def of_type(events: list[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]
