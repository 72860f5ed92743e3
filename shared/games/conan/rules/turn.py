"""A player turn (docs/rules/conan.md §4): Conan's move, table cards, one fate
die and its action (the fate pool, §4.2), the Court + Conan die (§9.2), turn end."""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.conan import events as ev
from shared.games.conan.content import Pack
from shared.games.conan.rules.adventure import take_leftmost
from shared.games.conan.rules.board import ConanFold, clockwise, home_owner, in_play, supply_left
from shared.games.conan.rules.cards import draw, hand_limit, resolve_event
from shared.games.conan.state import (
    AdventureEnd,
    AgeChange,
    ConanCourt,
    Court,
    Intrigue,
    Military,
    State,
    Turn,
)

#: The mandatory die order per action: dual and wild faces are last resorts.
PREFERENCE = {
    "military": ("MILITARY", "MILITARY_INTRIGUE", "WILD"),
    "intrigue": ("INTRIGUE", "MILITARY_INTRIGUE", "WILD"),
    "court": ("COURT_CONAN", "COURT", "WILD"),
}


def roll_pool(fold: ConanFold) -> None:
    faces = fold.state.options.fate_faces or fold.pack.dice.fate_faces
    fold.emit(ev.FatePoolRolled(faces=tuple(fold.rng.choice(faces) for _ in range(fold.pack.dice.pool_size))))


def die_for(state: State, action: str) -> str | None:
    return next((f for f in PREFERENCE[action] if f in state.fate_pool), None)


def actions(state: State) -> list[str]:
    return [a for a in PREFERENCE if die_for(state, a) is not None]


def take_die(fold: ConanFold, turn: Turn, action: str) -> None:
    face = die_for(fold.state, action)
    assert face is not None
    seat = turn.seat
    fold.emit(ev.FateDieTaken(seat=seat, face=face, action=action))
    fold.emit(ev.PhaseReplaced(phase=replace(turn, step="die")))
    match action:
        case "military":
            fold.emit(ev.PhasePushed(phase=Military(seat=seat)))
        case "intrigue":
            fold.emit(ev.PhasePushed(phase=Intrigue(seat=seat)))
        case _ if face == "COURT_CONAN" and seat == fold.state.conan_player:
            fold.emit(ev.PhasePushed(phase=ConanCourt(seat=seat)))
        case _:
            fold.emit(ev.PhasePushed(phase=Court(seat=seat)))
            if face == "COURT_CONAN":
                take_leftmost(fold, seat)  # a non-Conan player takes the leftmost token


def raider_spots(pack: Pack, state: State, start: str, end: str) -> list[str]:
    if supply_left(pack, state, "raiders") <= 0:
        return []
    near = {start, end, *pack.neighbours(start), *pack.neighbours(end)}
    out = []
    for pid in sorted(near):
        if not in_play(pack, state, pid) and not state.options.raiders_out_of_play:
            continue
        if home_owner(pack, state, pid) != -1 and not state.options.raiders_in_home:
            continue
        out.append(pid)
    return out


def conan_act(fold: ConanFold, seat: int, to: str | None, raider: str | None) -> None:
    """The Conan part of the die: an extra move (no token effect) and a raid."""
    if to is not None:
        fold.emit(ev.ConanMoved(to=to))
    if raider is not None:
        fold.emit(ev.RaidersChanged(province=raider, delta=1))
    fold.emit(ev.PhaseReplaced(phase=Court(seat=seat)))


def court_draw(fold: ConanFold, seat: int, option: str) -> None:
    if option == "strategy_kingdom":
        draw(fold, seat, "strategy", 1)
        draw(fold, seat, "kingdom", 1)
    else:
        draw(fold, seat, "strategy", 2)
    hand_limit(fold, seat)
    fold.emit(ev.PhasePopped())


def play_event(fold: ConanFold, seat: int, card: str) -> None:
    fold.emit(ev.PhasePopped())
    resolve_event(fold, seat, fold.pack.kingdom_cards[card])
    hand_limit(fold, seat)


def end_turn(fold: ConanFold, turn: Turn) -> None:
    """Pass the turn on, or change the age once its last adventure is done."""
    state = fold.state
    nxt = clockwise(state, (turn.seat + 1) % len(state.seats))[0]
    if state.adventure and not state.track:
        fold.emit(ev.PhasePushed(phase=AdventureEnd()))  # deferred to the end of the turn
        return
    if state.age_over:
        final = state.age == fold.pack.header.ages
        fold.emit(ev.FirstPlayerSet(seat=nxt), ev.PhaseReplaced(phase=AgeChange(final=final)))
        return
    if not state.fate_pool:
        roll_pool(fold)  # the player whose turn it is rerolls an empty pool
    fold.emit(ev.PhaseReplaced(phase=Turn(seat=nxt)))
