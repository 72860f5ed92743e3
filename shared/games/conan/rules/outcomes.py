"""What a contest result does: campaign, siege, battle (2.8), alliance and
breaking one (2.9), then forced marches and withdrawals."""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.conan import events as ev
from shared.games.conan.content import KingdomCard
from shared.games.conan.rules import contest as ct
from shared.games.conan.rules.board import NEUTRAL, Tx, has_artifact_op, prov, room, supply_left
from shared.games.conan.state import AfterContest, Contest, Retreat, State


def resolve(tx: Tx, contest: Contest) -> None:
    won, a, d = ct.attacker_wins(tx.state, contest)
    tx.emit(
        ev.ContestResolved(
            province=contest.province,
            kind=contest.kind,
            attacker_successes=a,
            defender_successes=d,
            attacker_won=won,
        ),
        ev.PhasePopped(),
    )
    if contest.defender.seat == NEUTRAL and prov(tx.state, contest.province).raiders > 0:
        tx.emit(ev.RaidersChanged(province=contest.province, delta=-1))
    seat = contest.attacker.seat
    match contest.kind:
        case "campaign":
            _campaign(tx, contest, won)
        case "siege":
            _siege(tx, contest, won)
        case "battle":
            _battle(tx, contest, won)
        case "alliance":
            _alliance(tx, seat, contest.province, won)
        case "break":
            _break(tx, contest, won)


def _crom(tx: Tx, seat: int) -> None:
    if supply_left(tx.state, "crom") > 0:
        tx.emit(ev.ResourcesChanged(seat=seat, reason="crom", crom=1))


def _lose_unit(tx: Tx, seat: int, province: str) -> int:
    """Remove one unit; returns how many remain."""
    n = min(tx.state.options.units_lost_per_contest, prov(tx.state, province).units[seat])
    if n:
        tx.emit(ev.UnitsChanged(seat=seat, province=province, delta=-n))
    return prov(tx.state, province).units[seat]


def _after(tx: Tx, contest: Contest, won: bool) -> None:
    seat = contest.attacker.seat
    if prov(tx.state, contest.province).units[seat] == 0:
        return
    phase = AfterContest(
        seat=seat,
        province=contest.province,
        kind=contest.kind,
        won=won,
        defender=contest.defender.seat,
        split=contest.split,
    )
    tx.emit(ev.PhasePushed(phase=phase))


def _campaign(tx: Tx, contest: Contest, won: bool) -> None:
    seat, pid = contest.attacker.seat, contest.province
    p = prov(tx.state, pid)
    if not won:
        if _lose_unit(tx, seat, pid) == 0:
            tx.emit(ev.CampaignSet(province=pid, owner=NEUTRAL, pos=0))
        return
    info = tx.pack.province(pid)
    if p.campaign_pos + 1 < len(info.track):
        tx.emit(ev.CampaignSet(province=pid, owner=seat, pos=p.campaign_pos + 1))
        _after(tx, contest, True)
        return
    # Subjugated: one unit becomes the fort; the province value is the reward.
    tx.emit(
        ev.UnitsChanged(seat=seat, province=pid, delta=-1),
        ev.MarkerSet(province=pid, owner=seat, marker="fort"),
        ev.CampaignSet(province=pid, owner=NEUTRAL, pos=0),
        ev.ResourcesChanged(seat=seat, reason="subjugation", ep=info.value),
    )


def _siege(tx: Tx, contest: Contest, won: bool) -> None:
    seat, defender, pid = contest.attacker.seat, contest.defender.seat, contest.province
    if not won:
        if _lose_unit(tx, seat, pid) == 0:
            _crom(tx, defender)
            return
        _after(tx, contest, False)
        return
    if prov(tx.state, pid).units[defender] > 0:
        _lose_unit(tx, defender, pid)
    else:
        tx.emit(ev.MarkerSet(province=pid, owner=NEUTRAL, marker=""))
        if tx.state.options.crom_when_marker_falls:
            _crom(tx, seat)
        tx.emit(ev.CampaignSet(province=pid, owner=seat, pos=0))
    _after(tx, contest, True)


def _battle(tx: Tx, contest: Contest, won: bool) -> None:
    seat, defender, pid = contest.attacker.seat, contest.defender.seat, contest.province
    if not won:
        if _lose_unit(tx, seat, pid) == 0:
            _crom(tx, defender)
            return
        _after(tx, contest, False)
        _offer_retreat(tx, contest)
        return
    if _lose_unit(tx, defender, pid) == 0:
        _crom(tx, seat)
        tx.emit(ev.CampaignSet(province=pid, owner=seat, pos=0))
    _after(tx, contest, True)
    _offer_retreat(tx, contest)


def _offer_retreat(tx: Tx, contest: Contest) -> None:
    seat, defender, pid = contest.attacker.seat, contest.defender.seat, contest.province
    p = prov(tx.state, pid)
    if p.units[seat] and p.units[defender] and retreat_spots(tx.state, defender, pid):
        tx.emit(ev.PhasePushed(phase=Retreat(seat=defender, province=pid, attacker=seat)))


def retreat_spots(state, seat: int, pid: str) -> list[str]:
    from shared.games.conan.rules.board import friendly, pack_of

    return [n for n in pack_of(state).neighbours(pid) if friendly(state, seat, n)]


def retreat(tx: Tx, phase: Retreat, to: str) -> None:
    """The defender leaves the battle: the attacker's campaign begins."""
    seat, pid = phase.seat, phase.province
    moving = prov(tx.state, pid).units[seat]
    fits = min(moving, room(tx.state, seat, to))
    tx.emit(ev.UnitsChanged(seat=seat, province=pid, delta=-moving))
    if fits:
        tx.emit(ev.UnitsChanged(seat=seat, province=to, delta=fits))
    _crom(tx, phase.attacker)
    tx.emit(ev.CampaignSet(province=pid, owner=phase.attacker, pos=0), ev.PhasePopped())


def _alliance(tx: Tx, seat: int, pid: str, won: bool) -> None:
    if not won:
        return
    gold = tx.pack.province(pid).value + has_artifact_op(tx.state, seat, "gold_bonus", trigger="alliance")
    if prov(tx.state, pid).campaign_owner == seat:
        tx.emit(ev.CampaignSet(province=pid, owner=NEUTRAL, pos=0))  # now friendly: nothing to subjugate
    tx.emit(
        ev.EmissariesChanged(seat=seat, province=pid, delta=-1),
        ev.MarkerSet(province=pid, owner=seat, marker="tower"),
        ev.ResourcesChanged(seat=seat, reason="alliance", gold=gold),
    )


def _break(tx: Tx, contest: Contest, won: bool) -> None:
    pid = contest.province
    if won:
        tx.emit(ev.MarkerSet(province=pid, owner=NEUTRAL, marker=""))
    else:
        tx.emit(ev.EmissariesChanged(seat=contest.attacker.seat, province=pid, delta=-1))


def can_march(tx_state, phase: AfterContest) -> bool:
    if not phase.won or (phase.split and not tx_state.options.forced_march_after_split_attack):
        return False
    units = prov(tx_state, phase.province).units[phase.seat]
    return units >= (1 if phase.march_free else 2)


def march_defenders(state: State, phase: AfterContest) -> list[int]:
    """Defenders a forced march may name: only when the attacker has a choice."""
    from shared.games.conan.rules.military import battle_defenders

    defenders = battle_defenders(state, phase.seat, phase.province, phase.defender)
    return defenders if len(defenders) > 1 else [NEUTRAL]


def forced_march(tx: Tx, phase: AfterContest, defender: int) -> None:
    from shared.games.conan.rules.military import fight

    seat, pid = phase.seat, phase.province
    tx.emit(ev.PhasePopped())
    if not phase.march_free:
        tx.emit(ev.UnitsChanged(seat=seat, province=pid, delta=-1))
    fight(tx, seat, pid, defender, phase.split, previous=phase.defender)


def withdraw_spots(state: State, phase: AfterContest) -> list[str]:
    """Where a besieging or battling attacker may withdraw (2.8.2 [D])."""
    from shared.games.conan.rules.board import friendly, friendly_provinces, pack_of

    if state.options.withdraw_anywhere:
        return [p for p in friendly_provinces(state, phase.seat) if p != phase.province]
    return [n for n in pack_of(state).neighbours(phase.province) if friendly(state, phase.seat, n)]


def withdraw(tx: Tx, phase: AfterContest, to: str) -> None:
    seat, pid = phase.seat, phase.province
    moving = prov(tx.state, pid).units[seat]
    fits = min(moving, room(tx.state, seat, to))
    tx.emit(ev.UnitsChanged(seat=seat, province=pid, delta=-moving))
    if fits:
        tx.emit(ev.UnitsChanged(seat=seat, province=to, delta=fits))
    p = prov(tx.state, pid)
    if p.campaign_owner == seat:
        tx.emit(ev.CampaignSet(province=pid, owner=NEUTRAL, pos=0))
    if p.owner not in (NEUTRAL, seat):
        _crom(tx, p.owner)  # the defender of a siege takes Crom when the attacker withdraws
    elif phase.kind == "battle" and phase.defender != NEUTRAL and p.units[phase.defender]:
        _crom(tx, phase.defender)
    tx.emit(ev.PhasePopped())


def use_after_card(tx: Tx, phase: AfterContest, card: KingdomCard) -> None:
    """A card of the ``contest.after`` window: the next forced march is free."""
    if card.type == "table":
        tx.emit(ev.TableCardTurned(seat=phase.seat, card=card.id, exhausted=True))
    else:
        tx.emit(ev.CardsDiscarded(seat=phase.seat, deck="kingdom", cards=(card.id,)))
    if any(e.op == "forced_march_free" for e in card.effects):
        tx.emit(ev.PhaseReplaced(phase=replace(phase, march_free=True)))
