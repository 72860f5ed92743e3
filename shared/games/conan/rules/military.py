"""The Military action (docs/rules/conan.md §5): raise troops, or up to two
army movements then one contest (campaign, siege or battle) with its forced
marches."""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.conan import events as ev
from shared.games.conan.content import Pack
from shared.games.conan.rules import contest as ct
from shared.games.conan.rules.armies import settle_campaign, withdraw, withdraw_spots
from shared.games.conan.rules.board import (
    ConanFold,
    engagement,
    friendly,
    friendly_provinces,
    home_owner,
    in_play,
    others_with_units,
    prov,
    reserve,
    room,
)
from shared.games.conan.state import NEUTRAL, Military, State


def raise_options(pack: Pack, state: State, phase: Military) -> list[tuple[str, ...]]:
    if phase.moved or phase.fought:
        return []
    spots = [p for p in friendly_provinces(pack, state, phase.seat) if room(pack, state, phase.seat, p) > 0]
    if not state.options.raise_at_home:
        spots = [p for p in spots if home_owner(pack, state, p) != phase.seat]
    left = reserve(pack, state, phase.seat)
    out: list[tuple[str, ...]] = [(p,) for p in spots] if left >= 1 else []
    if left >= 2:
        out += [(a, b) for i, a in enumerate(spots) for b in spots[i + 1 :]]
    return out


def raise_troops(fold: ConanFold, seat: int, provinces: tuple[str, ...]) -> None:
    for p in provinces:
        fold.emit(ev.UnitsChanged(seat=seat, province=p, delta=1))
    fold.emit(ev.PhasePopped())  # raising troops ends the turn


def army_moves(pack: Pack, state: State, phase: Military) -> list[tuple[str, str, int]]:
    """Every (from, to, units) movement open now, judged from where the army
    stands (docs/rules/conan.md §5.2, §5.3).

    From friendly ground an army redeploys into a friendly province or attacks
    a neutral or hostile one (all attack moves of one action enter the same
    province). An army campaigning alone may only fall back into a friendly
    province; one in a siege or battle leaves only by ``withdrawals``; a
    besieged army may not leave at all."""
    if phase.moves_left <= 0 or phase.fought:
        return []
    seat = phase.seat
    out = []
    arrived = dict(phase.arrived)
    for p in pack.provinces:
        stands = engagement(pack, state, seat, p.id)
        if stands not in ("", "campaign") or p.id == phase.target:
            continue
        have = prov(pack, state, p.id).units[seat]
        if not state.options.one_army_two_moves:
            have -= arrived.get(p.id, 0)  # units that moved already stay put
        if have <= 0:
            continue
        for to in p.adjacent:
            if not _may_enter(pack, state, seat, to):
                continue
            if not friendly(pack, state, seat, to) and (stands or phase.target not in ("", to)):
                continue  # no attack from a fight, and one attacked province per action
            most = min(have, pack.header.stack_limit, room(pack, state, seat, to))
            out += [(p.id, to, n) for n in range(1, most + 1)]
        if not state.options.redeploy_adjacent_only:
            out += _long_redeploys(pack, state, seat, p.id, have)
    return out


def _long_redeploys(pack: Pack, state: State, seat: int, frm: str, have: int) -> list[tuple[str, str, int]]:
    # The redeploy_adjacent_only=False reading: a redeploy may reach any friendly province.
    near = set(pack.neighbours(frm))
    out = []
    for to in friendly_provinces(pack, state, seat):
        if to != frm and to not in near:
            most = min(have, pack.header.stack_limit, room(pack, state, seat, to))
            out += [(frm, to, n) for n in range(1, most + 1)]
    return out


def _may_enter(pack: Pack, state: State, seat: int, pid: str) -> bool:
    if not in_play(pack, state, pid):
        return False  # armies never enter out-of-play zones
    owner_home = home_owner(pack, state, pid)
    return owner_home in (NEUTRAL, seat)


def move_army(fold: ConanFold, phase: Military, frm: str, to: str, units: int) -> None:
    seat = phase.seat
    attacking = not friendly(fold.pack, fold.state, seat, to)
    fold.emit(
        ev.UnitsChanged(seat=seat, province=frm, delta=-units),
        ev.UnitsChanged(seat=seat, province=to, delta=units),
    )
    settle_campaign(fold, frm)  # a campaign whose whole army fell back is over
    _moved(fold, phase, frm, to, units, target=to if attacking else phase.target)


def _moved(fold: ConanFold, phase: Military, frm: str, to: str, units: int, target: str) -> None:
    arrived = dict(phase.arrived)
    arrived[to] = arrived.get(to, 0) + units
    phase = replace(
        phase,
        moves_left=phase.moves_left - 1,
        moved=(*phase.moved, (frm, to)),
        arrived=tuple(sorted(arrived.items())),
        target=target,
    )
    fold.emit(ev.PhaseReplaced(phase=phase))


def withdrawals(pack: Pack, state: State, phase: Military) -> list[tuple[str, str]]:
    """(from, to): an army in a siege or battle leaves as one movement, whole,
    into a friendly province; the action's attacked province is not left."""
    if phase.moves_left <= 0 or phase.fought:
        return []
    out = []
    for p in pack.provinces:
        if p.id != phase.target and engagement(pack, state, phase.seat, p.id) in ("siege", "battle"):
            out += [(p.id, to) for to in withdraw_spots(pack, state, phase.seat, p.id)]
    return out


def withdraw_army(fold: ConanFold, phase: Military, frm: str, to: str) -> None:
    arrived = withdraw(fold, phase.seat, frm, to)
    _moved(fold, phase, frm, to, arrived, target=phase.target)


def targets(pack: Pack, state: State, phase: Military) -> list[str]:
    """Where the action's one contest may be fought: the province a movement
    attacked, else any where the seat's army stands in a campaign, battle or
    siege (each goes on, turn after turn, until it is decided)."""
    if phase.fought:
        return []
    if phase.target:
        return [phase.target]
    seat = phase.seat
    return [
        p.id for p in pack.provinces if engagement(pack, state, seat, p.id) in ("campaign", "battle", "siege")
    ]


def battle_defenders(pack: Pack, state: State, seat: int, pid: str, previous: int = NEUTRAL) -> list[int]:
    """Who may defend a battle in ``pid`` (one seat unless the attacker chooses).

    A battle goes on against the same army (docs/rules/conan.md §7.3); a new
    one is against the army the attacker names, or by the ``battle_defender``
    option."""
    here = prov(pack, state, pid)
    if here.owner not in (NEUTRAL, seat):
        return []  # a siege: the marker owner defends
    others = others_with_units(pack, state, seat, pid)
    if previous in others:
        return [previous]
    if len(others) > 1 and state.options.battle_defender == "campaign_owner":
        return [here.campaign_owner if here.campaign_owner in others else others[0]]
    return others


def attack_options(pack: Pack, state: State, phase: Military) -> list[tuple[str, int]]:
    """(province, defender) pairs; the defender is named only when there is a choice."""
    out = []
    for pid in targets(pack, state, phase):
        defenders = battle_defenders(pack, state, phase.seat, pid)
        out += [(pid, d) for d in defenders] if len(defenders) > 1 else [(pid, NEUTRAL)]
    return out


def attack(fold: ConanFold, phase: Military, pid: str, defender: int) -> None:
    fold.emit(ev.PhaseReplaced(phase=replace(phase, fought=True)))
    split = len({frm for frm, to in phase.moved if to == pid}) >= 2
    fight(fold, phase.seat, pid, defender, split)


def fight(fold: ConanFold, seat: int, pid: str, defender: int, split: bool, previous: int = NEUTRAL) -> None:
    """Start the contest an attack or a forced march brings in ``pid``."""
    here = prov(fold.pack, fold.state, pid)
    if here.owner not in (NEUTRAL, seat):
        ct.start(fold, "siege", seat, here.owner, pid, 0, split)
        return
    defenders = battle_defenders(fold.pack, fold.state, seat, pid, previous)
    if defenders:
        defender = defender if defender in defenders else defenders[0]
        # Fought where the campaign marker of either army stands (§7.3): a
        # campaign owner that attacks in turn fights on its own current space.
        pos = here.campaign_pos if here.campaign_owner in (seat, defender) else 0
        ct.start(fold, "battle", seat, defender, pid, pos, split)
        return
    if here.campaign_owner != seat:
        fold.emit(ev.CampaignSet(province=pid, owner=seat, pos=0))
    ct.start(fold, "campaign", seat, NEUTRAL, pid, prov(fold.pack, fold.state, pid).campaign_pos, split)
