"""Armies leaving a fight and the campaign marker that follows them
(docs/rules/conan.md §5.3, §7.5 and §7.6).

Every way an army leaves a siege or a battle goes through ``withdraw``, so the
other side's Crom token cannot be skipped by leaving some other way; every
removal that can empty a neutral province of an army ends with
``settle_campaign``, so a campaign marker never outlives its army.
"""

from __future__ import annotations

from shared.games.conan import events as ev
from shared.games.conan.content import Pack
from shared.games.conan.rules.board import (
    ConanFold,
    friendly,
    friendly_provinces,
    others_with_units,
    prov,
    room,
    supply_left,
)
from shared.games.conan.state import NEUTRAL, State


def crom(fold: ConanFold, seat: int) -> None:
    """One "Crom, count the dead!" token, while the supply lasts."""
    if seat != NEUTRAL and supply_left(fold.pack, fold.state, "crom") > 0:
        fold.emit(ev.ResourcesChanged(seat=seat, reason="crom", crom=1))


def settle_campaign(fold: ConanFold, pid: str, winner: int = NEUTRAL) -> None:
    """Keep the campaign marker with a living army in a neutral province.

    A campaign whose army is gone ends (§7.1), whatever removed the army. A
    battle's ``winner`` keeps its own campaign where it stands (§7.3) or, when
    none runs, begins one on the first space, as an attacker that wins does.
    """
    here = prov(fold.pack, fold.state, pid)
    if here.owner != NEUTRAL:
        return
    owner = here.campaign_owner
    if owner != NEUTRAL and here.units[owner] == 0:
        fold.emit(ev.CampaignSet(province=pid, owner=NEUTRAL, pos=0))
        owner = NEUTRAL
    if owner == NEUTRAL and winner != NEUTRAL and here.units[winner] > 0:
        fold.emit(ev.CampaignSet(province=pid, owner=winner, pos=0))


def withdraw_spots(pack: Pack, state: State, seat: int, pid: str) -> list[str]:
    """Where an army withdrawing from ``pid`` may go: an adjacent friendly
    province, or any friendly one under ``withdraw_anywhere``."""
    if state.options.withdraw_anywhere:
        return [p for p in friendly_provinces(pack, state, seat) if p != pid]
    return [n for n in pack.neighbours(pid) if friendly(pack, state, seat, n)]


def battle_opponents(pack: Pack, state: State, seat: int, pid: str) -> list[int]:
    """Whom an army leaving a battle in ``pid`` was fighting: the campaign's
    army if it is another, else every other army there (each moved in to
    attack, or was attacked by, the one leaving)."""
    others = others_with_units(pack, state, seat, pid)
    owner = prov(pack, state, pid).campaign_owner
    return [owner] if owner in others else others


def withdraw(fold: ConanFold, seat: int, pid: str, to: str, opponent: int = NEUTRAL) -> int:
    """The seat's whole army in ``pid`` withdraws to the friendly ``to``.

    The other side takes Crom (§7.6): a siege's defender whenever the attacker
    leaves, a battle's ``opponent`` (or, when none is named, every army it was
    fighting). Units beyond the stacking limit at ``to`` are lost (§5.5).
    Returns how many units arrived."""
    here = prov(fold.pack, fold.state, pid)
    if here.owner not in (NEUTRAL, seat):
        winners = [here.owner]
    elif opponent != NEUTRAL:
        winners = [opponent] if here.units[opponent] else []
    else:
        winners = battle_opponents(fold.pack, fold.state, seat, pid)
    moving = here.units[seat]
    fits = min(moving, room(fold.pack, fold.state, seat, to))
    fold.emit(ev.UnitsChanged(seat=seat, province=pid, delta=-moving))
    if fits:
        fold.emit(ev.UnitsChanged(seat=seat, province=to, delta=fits))
    for w in winners:
        crom(fold, w)
    settle_campaign(fold, pid, winners[0] if len(winners) == 1 else NEUTRAL)
    return fits
