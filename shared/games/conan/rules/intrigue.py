"""The Intrigue action (docs/rules/conan.md §8): move emissaries, start an intrigue contest,
collect gold, or build an emissary."""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.conan import events as ev
from shared.games.conan.content import Pack
from shared.games.conan.rules import contest as ct
from shared.games.conan.rules.board import (
    ConanFold,
    emissaries_on_map,
    emissary_cap,
    friendly,
    friendly_provinces,
    has_artifact_op,
    home_owner,
    in_play,
    prov,
)
from shared.games.conan.state import NEUTRAL, Intrigue, State


def emissary_steps(pack: Pack, state: State, phase: Intrigue) -> list[tuple[str, str]]:
    if len(phase.moves) >= 2 or phase.fought:
        return []
    seat = phase.seat
    out = []
    for p in pack.provinces:
        if prov(pack, state, p.id).emissaries[seat] == 0 or not _second_step_ok(pack, state, phase, p.id):
            continue
        out += [(p.id, to) for to in p.adjacent]
    return out


def _second_step_ok(pack: Pack, state: State, phase: Intrigue, frm: str) -> bool:
    if not phase.moves:
        return True
    _, arrived = phase.moves[0]
    if frm != arrived:
        return True  # another emissary takes its single step
    before = dict(phase.had_at).get(frm, 0)
    # The moved emissary may go on only through a friendly province; one that
    # was already there before may always take its own single step.
    return friendly(pack, state, phase.seat, frm) or before > 0


def move_emissary(fold: ConanFold, phase: Intrigue, frm: str, to: str) -> None:
    seat = phase.seat
    had = phase.had_at or tuple(
        (p.id, prov(fold.pack, fold.state, p.id).emissaries[seat])
        for p in fold.pack.provinces
        if prov(fold.pack, fold.state, p.id).emissaries[seat]
    )
    fold.emit(
        ev.EmissariesChanged(seat=seat, province=frm, delta=-1),
        ev.EmissariesChanged(seat=seat, province=to, delta=1),
    )
    fold.emit(ev.PhaseReplaced(phase=replace(phase, moves=(*phase.moves, (frm, to)), had_at=had)))


def intrigue_kind(pack: Pack, state: State, seat: int, pid: str) -> str | None:
    """``alliance`` or ``break`` if an intrigue contest is allowed here, else None."""
    p = prov(pack, state, pid)
    info = pack.province(pid)
    if p.emissaries[seat] == 0 or info.savage or not in_play(pack, state, pid):
        return None
    if home_owner(pack, state, pid) != NEUTRAL:
        return None  # never in a home province
    if any(n for i, n in enumerate(p.units) if i != seat):
        return None  # another player's army is there
    if p.owner == NEUTRAL:
        return "alliance"
    if p.owner != seat and p.marker == "tower":
        return "break"
    return None


def intrigue_targets(pack: Pack, state: State, phase: Intrigue) -> list[str]:
    if len(phase.moves) > 1 or phase.fought:
        return []
    return [p.id for p in pack.provinces if intrigue_kind(pack, state, phase.seat, p.id)]


def start_intrigue(fold: ConanFold, phase: Intrigue, pid: str) -> None:
    kind = intrigue_kind(fold.pack, fold.state, phase.seat, pid)
    assert kind is not None
    defender = prov(fold.pack, fold.state, pid).owner if kind == "break" else NEUTRAL
    fold.emit(ev.PhaseReplaced(phase=replace(phase, fought=True)))
    ct.start(fold, kind, phase.seat, defender, pid, 0, False)


def gold_targets(pack: Pack, state: State, phase: Intrigue) -> list[str]:
    if len(phase.moves) > 1 or phase.fought:
        return []
    seat = phase.seat
    out = []
    for p in pack.provinces:
        here = prov(pack, state, p.id)
        if (
            here.emissaries[seat]
            and here.owner not in (NEUTRAL, seat)
            and home_owner(pack, state, p.id) == NEUTRAL
        ):
            out.append(p.id)
    return out


def collect_gold(fold: ConanFold, phase: Intrigue, pid: str) -> None:
    seat = phase.seat
    bonus = has_artifact_op(fold.pack, fold.state, seat, "gold_bonus", trigger="collect")
    gold = fold.pack.province(pid).value + fold.state.options.collect_gold_extra + bonus
    fold.emit(
        ev.EmissariesChanged(seat=seat, province=pid, delta=-1),
        ev.ResourcesChanged(seat=seat, reason="collect", gold=gold),
        ev.PhasePopped(),
    )


def build_targets(pack: Pack, state: State, phase: Intrigue) -> list[str]:
    if (
        phase.moves
        or phase.fought
        or emissaries_on_map(state, phase.seat) >= emissary_cap(pack, state, phase.seat)
    ):
        return []
    return friendly_provinces(pack, state, phase.seat)


def build_emissary(fold: ConanFold, phase: Intrigue, pid: str) -> None:
    fold.emit(ev.EmissariesChanged(seat=phase.seat, province=pid, delta=1), ev.PhasePopped())
