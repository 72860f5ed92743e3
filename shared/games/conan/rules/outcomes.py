"""What a contest result does: campaign, siege, battle (docs/rules/conan.md
§7), alliance and breaking one (§8), then forced marches and withdrawals."""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.conan import events as ev
from shared.games.conan.content import KingdomCard
from shared.games.conan.rules import contest as ct
from shared.games.conan.rules.armies import crom, settle_campaign, withdraw, withdraw_spots
from shared.games.conan.rules.board import NEUTRAL, Tx, friendly, has_artifact_op, pack_of, prov
from shared.games.conan.state import AfterContest, Contest, Retreat, State


def resolve(tx: Tx, contest: Contest) -> None:
    won, a, d = ct.attacker_wins(tx.state, contest)
    raiders = ct.raiders_act(tx.state, contest)
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
    if raiders:
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


def _lose_unit(tx: Tx, seat: int, province: str) -> int:
    """Remove the units a lost contest costs; returns how many remain."""
    n = min(tx.state.options.units_lost_per_contest, prov(tx.state, province).units[seat])
    if n:
        tx.emit(ev.UnitsChanged(seat=seat, province=province, delta=-n))
    return prov(tx.state, province).units[seat]


def _after(tx: Tx, contest: Contest, won: bool) -> None:
    """The attacker's choices after the roll: forced march, cards, withdrawal."""
    seat = contest.attacker.seat
    if prov(tx.state, contest.province).units[seat] == 0:
        return
    if contest.kind == "campaign" and not won and not tx.state.options.forced_march_after_loss:
        return  # nothing to choose: no march, and a campaign has no withdrawal
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
        _lose_unit(tx, seat, pid)
        settle_campaign(tx, pid)  # the campaign ends with its last unit
        _after(tx, contest, False)
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
    by_marker = tx.state.options.crom_when_marker_falls
    if not won:
        if _lose_unit(tx, seat, pid) == 0:
            crom(tx, defender)  # the attacking army is destroyed
            return
        _after(tx, contest, False)
        return
    if prov(tx.state, pid).units[defender] > 0:
        if _lose_unit(tx, defender, pid) == 0 and not by_marker:
            crom(tx, seat)  # the defending army is destroyed, though the marker stands
    else:
        # The marker is the defence's last life: the province turns neutral and
        # the winner begins to subjugate it.
        tx.emit(ev.MarkerSet(province=pid, owner=NEUTRAL, marker=""))
        if by_marker:
            crom(tx, seat)
        tx.emit(ev.CampaignSet(province=pid, owner=seat, pos=0))
    _after(tx, contest, True)


def _battle(tx: Tx, contest: Contest, won: bool) -> None:
    seat, defender, pid = contest.attacker.seat, contest.defender.seat, contest.province
    winner, loser = (seat, defender) if won else (defender, seat)
    if _lose_unit(tx, loser, pid) == 0:
        # The battle is over: its winner takes Crom and runs the campaign.
        crom(tx, winner)
        settle_campaign(tx, pid, winner)
    if prov(tx.state, pid).units[seat] == 0:
        return
    _after(tx, contest, won)
    _offer_retreat(tx, contest)


def _offer_retreat(tx: Tx, contest: Contest) -> None:
    seat, defender, pid = contest.attacker.seat, contest.defender.seat, contest.province
    p = prov(tx.state, pid)
    if p.units[seat] and p.units[defender] and retreat_spots(tx.state, defender, pid):
        tx.emit(ev.PhasePushed(phase=Retreat(seat=defender, province=pid, attacker=seat)))


def retreat_spots(state: State, seat: int, pid: str) -> list[str]:
    """A battle's defender falls back only to an adjacent friendly province:
    the seed's "a friendly province nearby"."""
    return [n for n in pack_of(state).neighbours(pid) if friendly(state, seat, n)]


def retreat(tx: Tx, phase: Retreat, to: str) -> None:
    """The defender leaves the battle: the attacker has won it."""
    withdraw(tx, phase.seat, phase.province, to, opponent=phase.attacker)
    tx.emit(ev.PhasePopped())


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


def march_allowed(state: State, phase: AfterContest) -> bool:
    """A forced march follows the roll (docs/rules/conan.md §7.4): after a win,
    and after a loss too under ``forced_march_after_loss``; never after an
    attack launched from two provinces unless that option allows it."""
    if not phase.won and not state.options.forced_march_after_loss:
        return False
    return not phase.split or state.options.forced_march_after_split_attack


def can_march(state: State, phase: AfterContest) -> bool:
    if not march_allowed(state, phase):
        return False
    units = prov(state, phase.province).units[phase.seat]
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


def withdraw_options(state: State, phase: AfterContest) -> list[str]:
    """Where a besieging or battling attacker may withdraw after the roll."""
    if phase.kind not in ("siege", "battle"):
        return []
    return withdraw_spots(state, phase.seat, phase.province)


def withdraw_after(tx: Tx, phase: AfterContest, to: str) -> None:
    opponent = phase.defender if phase.kind == "battle" else NEUTRAL
    withdraw(tx, phase.seat, phase.province, to, opponent=opponent)
    tx.emit(ev.PhasePopped())


def use_after_card(tx: Tx, phase: AfterContest, card: KingdomCard) -> None:
    """A card of the ``contest.after`` window: the next forced march is free."""
    if card.type == "table":
        tx.emit(ev.TableCardTurned(seat=phase.seat, card=card.id, exhausted=True))
    else:
        tx.emit(ev.CardsDiscarded(seat=phase.seat, deck="kingdom", cards=(card.id,)))
    if any(e.op == "forced_march_free" for e in card.effects):
        tx.emit(ev.PhaseReplaced(phase=replace(phase, march_free=True)))
