"""The Military action (2.5): raise troops, or up to two army movements then
one contest (campaign, siege or battle) with its forced marches."""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.conan import events as ev
from shared.games.conan.rules import contest as ct
from shared.games.conan.rules.board import (
    NEUTRAL,
    Tx,
    friendly,
    friendly_provinces,
    home_owner,
    in_play,
    others_with_units,
    pack_of,
    prov,
    reserve,
    room,
)
from shared.games.conan.state import Military, State


def raise_options(state: State, phase: Military) -> list[tuple[str, ...]]:
    if phase.moved or phase.fought:
        return []
    spots = [p for p in friendly_provinces(state, phase.seat) if room(state, phase.seat, p) > 0]
    if not state.options.raise_at_home:
        spots = [p for p in spots if home_owner(state, p) != phase.seat]
    left = reserve(state, phase.seat)
    out: list[tuple[str, ...]] = [(p,) for p in spots] if left >= 1 else []
    if left >= 2:
        out += [(a, b) for i, a in enumerate(spots) for b in spots[i + 1 :]]
    return out


def raise_troops(tx: Tx, seat: int, provinces: tuple[str, ...]) -> None:
    for p in provinces:
        tx.emit(ev.UnitsChanged(seat=seat, province=p, delta=1))
    tx.emit(ev.PhasePopped())  # raising troops ends the turn


def army_moves(state: State, phase: Military) -> list[tuple[str, str, int]]:
    if phase.moves_left <= 0 or phase.fought:
        return []
    seat = phase.seat
    out = []
    arrived = dict(phase.arrived)
    for p in pack_of(state).provinces:
        have = prov(state, p.id).units[seat]
        if not state.options.one_army_two_moves:
            have -= arrived.get(p.id, 0)  # units that moved already stay put
        if have <= 0:
            continue
        for to in p.adjacent:
            if not _may_enter(state, seat, to):
                continue
            most = min(have, pack_of(state).header.stack_limit, room(state, seat, to))
            out += [(p.id, to, n) for n in range(1, most + 1)]
        if not state.options.redeploy_adjacent_only:
            out += _long_redeploys(state, seat, p.id, have)
    return out


def _long_redeploys(state: State, seat: int, frm: str, have: int) -> list[tuple[str, str, int]]:
    # Variant (3.1 #3): a redeploy may reach any friendly province.
    near = set(pack_of(state).neighbours(frm))
    out = []
    for to in friendly_provinces(state, seat):
        if to != frm and to not in near:
            most = min(have, pack_of(state).header.stack_limit, room(state, seat, to))
            out += [(frm, to, n) for n in range(1, most + 1)]
    return out


def _may_enter(state: State, seat: int, pid: str) -> bool:
    if not in_play(state, pid):
        return False  # armies never enter out-of-play zones
    owner_home = home_owner(state, pid)
    return owner_home in (NEUTRAL, seat)


def move_army(tx: Tx, phase: Military, frm: str, to: str, units: int) -> None:
    seat = phase.seat
    tx.emit(
        ev.UnitsChanged(seat=seat, province=frm, delta=-units),
        ev.UnitsChanged(seat=seat, province=to, delta=units),
    )
    p = prov(tx.state, frm)
    if p.units[seat] == 0 and p.campaign_owner == seat:
        tx.emit(ev.CampaignSet(province=frm, owner=NEUTRAL, pos=0))
    moved = (*phase.moved, (frm, to))
    arrived = dict(phase.arrived)
    arrived[to] = arrived.get(to, 0) + units
    arrivals = tuple(sorted(arrived.items()))
    phase = replace(phase, moves_left=phase.moves_left - 1, moved=moved, arrived=arrivals)
    tx.emit(ev.PhaseReplaced(phase=phase))


def targets(state: State, phase: Military) -> list[str]:
    if phase.fought:
        return []
    seat = phase.seat
    moved_into = {to for _, to in phase.moved}
    out = []
    for p in pack_of(state).provinces:
        here = prov(state, p.id)
        if here.units[seat] == 0 or friendly(state, seat, p.id) or not in_play(state, p.id):
            continue
        if home_owner(state, p.id) != NEUTRAL:
            continue
        ongoing = here.campaign_owner == seat or here.owner not in (NEUTRAL, seat)
        if p.id in moved_into or ongoing:
            out.append(p.id)
    return out


def battle_defenders(state: State, seat: int, pid: str, previous: int = NEUTRAL) -> list[int]:
    """Who may defend a battle in ``pid`` (one seat unless the attacker chooses).

    A battle goes on against the same army (2.8.3); a new one is against the
    army the attacker names, or by the ``battle_defender`` option."""
    here = prov(state, pid)
    if here.owner not in (NEUTRAL, seat):
        return []  # a siege: the marker owner defends
    others = others_with_units(state, seat, pid)
    if previous in others:
        return [previous]
    if len(others) > 1 and state.options.battle_defender == "campaign_owner":
        return [here.campaign_owner if here.campaign_owner in others else others[0]]
    return others


def attack_options(state: State, phase: Military) -> list[tuple[str, int]]:
    """(province, defender) pairs; the defender is named only when there is a choice."""
    out = []
    for pid in targets(state, phase):
        defenders = battle_defenders(state, phase.seat, pid)
        out += [(pid, d) for d in defenders] if len(defenders) > 1 else [(pid, NEUTRAL)]
    return out


def attack(tx: Tx, phase: Military, pid: str, defender: int) -> None:
    tx.emit(ev.PhaseReplaced(phase=replace(phase, fought=True)))
    split = len({frm for frm, to in phase.moved if to == pid}) >= 2
    fight(tx, phase.seat, pid, defender, split)


def fight(tx: Tx, seat: int, pid: str, defender: int, split: bool, previous: int = NEUTRAL) -> None:
    """Start the contest an attack or a forced march brings in ``pid``."""
    here = prov(tx.state, pid)
    if here.owner not in (NEUTRAL, seat):
        ct.start(tx, "siege", seat, here.owner, pid, 0, split)
        return
    defenders = battle_defenders(tx.state, seat, pid, previous)
    if defenders:
        defender = defender if defender in defenders else defenders[0]
        pos = here.campaign_pos if here.campaign_owner == defender else 0
        ct.start(tx, "battle", seat, defender, pid, pos, split)
        return
    if here.campaign_owner != seat:
        tx.emit(ev.CampaignSet(province=pid, owner=seat, pos=0))
    ct.start(tx, "campaign", seat, NEUTRAL, pid, prov(tx.state, pid).campaign_pos, split)
