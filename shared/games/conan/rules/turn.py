"""A player turn (docs/rules/conan.md §4): Conan's move, table cards, one fate
die and its action (the fate pool, §4.2), the Court + Conan die (§9.2), turn end."""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.conan import events as ev
from shared.games.conan.rules.adventure import take_leftmost
from shared.games.conan.rules.board import Tx, clockwise, home_owner, in_play, pack_of, supply_left
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


def roll_pool(tx: Tx) -> None:
    faces = tx.state.options.fate_faces or tx.pack.dice.fate_faces
    tx.emit(ev.FatePoolRolled(faces=tuple(tx.rng.choice(faces) for _ in range(tx.pack.dice.pool_size))))


def die_for(state: State, action: str) -> str | None:
    return next((f for f in PREFERENCE[action] if f in state.fate_pool), None)


def actions(state: State) -> list[str]:
    return [a for a in PREFERENCE if die_for(state, a) is not None]


def take_die(tx: Tx, turn: Turn, action: str) -> None:
    face = die_for(tx.state, action)
    assert face is not None
    seat = turn.seat
    tx.emit(ev.FateDieTaken(seat=seat, face=face, action=action))
    tx.emit(ev.PhaseReplaced(phase=replace(turn, step="die")))
    match action:
        case "military":
            tx.emit(ev.PhasePushed(phase=Military(seat=seat)))
        case "intrigue":
            tx.emit(ev.PhasePushed(phase=Intrigue(seat=seat)))
        case _ if face == "COURT_CONAN" and seat == tx.state.conan_player:
            tx.emit(ev.PhasePushed(phase=ConanCourt(seat=seat)))
        case _:
            tx.emit(ev.PhasePushed(phase=Court(seat=seat)))
            if face == "COURT_CONAN":
                take_leftmost(tx, seat)  # a non-Conan player takes the leftmost token


def raider_spots(state: State, start: str, end: str) -> list[str]:
    if supply_left(state, "raiders") <= 0:
        return []
    pack = pack_of(state)
    near = {start, end, *pack.neighbours(start), *pack.neighbours(end)}
    out = []
    for pid in sorted(near):
        if not in_play(state, pid) and not state.options.raiders_out_of_play:
            continue
        if home_owner(state, pid) != -1 and not state.options.raiders_in_home:
            continue
        out.append(pid)
    return out


def conan_act(tx: Tx, seat: int, to: str | None, raider: str | None) -> None:
    """The Conan part of the die: an extra move (no token effect) and a raid."""
    if to is not None:
        tx.emit(ev.ConanMoved(to=to))
    if raider is not None:
        tx.emit(ev.RaidersChanged(province=raider, delta=1))
    tx.emit(ev.PhaseReplaced(phase=Court(seat=seat)))


def court_draw(tx: Tx, seat: int, option: str) -> None:
    if option == "strategy_kingdom":
        draw(tx, seat, "strategy", 1)
        draw(tx, seat, "kingdom", 1)
    else:
        draw(tx, seat, "strategy", 2)
    hand_limit(tx, seat)
    tx.emit(ev.PhasePopped())


def play_event(tx: Tx, seat: int, card: str) -> None:
    tx.emit(ev.PhasePopped())
    resolve_event(tx, seat, tx.pack.kingdom_cards[card])
    hand_limit(tx, seat)


def end_turn(tx: Tx, turn: Turn) -> None:
    """Pass the turn on, or change the age once its last adventure is done."""
    state = tx.state
    nxt = clockwise(state, (turn.seat + 1) % len(state.seats))[0]
    if state.adventure and not state.track:
        tx.emit(ev.PhasePushed(phase=AdventureEnd()))  # deferred to the end of the turn
        return
    if state.age_over:
        final = state.age == tx.pack.header.ages
        tx.emit(ev.FirstPlayerSet(seat=nxt), ev.PhaseReplaced(phase=AgeChange(final=final)))
        return
    if not state.fate_pool:
        roll_pool(tx)  # the player whose turn it is rerolls an empty pool
    tx.emit(ev.PhaseReplaced(phase=Turn(seat=nxt)))
