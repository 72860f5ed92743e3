"""What a contest result does: campaign, siege, battle (docs/rules/conan.md
§7), alliance and breaking one (§8), then forced marches and withdrawals."""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.conan import events as ev
from shared.games.conan.content import KingdomCard, Pack
from shared.games.conan.rules import contest as ct
from shared.games.conan.rules.armies import crom, settle_campaign, withdraw, withdraw_spots
from shared.games.conan.rules.board import ConanFold, friendly, has_artifact_op, prov
from shared.games.conan.rules.military import battle_defenders, fight
from shared.games.conan.state import NEUTRAL, AfterContest, Contest, Retreat, State


def resolve(fold: ConanFold, contest: Contest) -> None:
    won, a, d = ct.attacker_wins(fold.pack, fold.state, contest)
    raiders = ct.raiders_act(fold.pack, fold.state, contest)
    fold.emit(
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
        fold.emit(ev.RaidersChanged(province=contest.province, delta=-1))
    seat = contest.attacker.seat
    match contest.kind:
        case "campaign":
            _campaign(fold, contest, won)
        case "siege":
            _siege(fold, contest, won)
        case "battle":
            _battle(fold, contest, won)
        case "alliance":
            _alliance(fold, seat, contest.province, won)
        case "break":
            _break(fold, contest, won)


def _lose_unit(fold: ConanFold, seat: int, province: str) -> int:
    """Remove the units a lost contest costs; returns how many remain."""
    n = min(fold.state.options.units_lost_per_contest, prov(fold.pack, fold.state, province).units[seat])
    if n:
        fold.emit(ev.UnitsChanged(seat=seat, province=province, delta=-n))
    return prov(fold.pack, fold.state, province).units[seat]


def _after(fold: ConanFold, contest: Contest, won: bool) -> None:
    """The attacker's choices after the roll: forced march, cards, withdrawal."""
    seat = contest.attacker.seat
    if prov(fold.pack, fold.state, contest.province).units[seat] == 0:
        return
    if contest.kind == "campaign" and not won and not fold.state.options.forced_march_after_loss:
        return  # nothing to choose: no march, and a campaign has no withdrawal
    phase = AfterContest(
        seat=seat,
        province=contest.province,
        kind=contest.kind,
        won=won,
        defender=contest.defender.seat,
        split=contest.split,
    )
    fold.emit(ev.PhasePushed(phase=phase))


def _campaign(fold: ConanFold, contest: Contest, won: bool) -> None:
    seat, pid = contest.attacker.seat, contest.province
    p = prov(fold.pack, fold.state, pid)
    if not won:
        _lose_unit(fold, seat, pid)
        settle_campaign(fold, pid)  # the campaign ends with its last unit
        _after(fold, contest, False)
        return
    info = fold.pack.province(pid)
    if p.campaign_pos + 1 < len(info.track):
        fold.emit(ev.CampaignSet(province=pid, owner=seat, pos=p.campaign_pos + 1))
        _after(fold, contest, True)
        return
    # Subjugated: one unit becomes the fort; the province value is the reward.
    fold.emit(
        ev.UnitsChanged(seat=seat, province=pid, delta=-1),
        ev.MarkerSet(province=pid, owner=seat, marker="fort"),
        ev.CampaignSet(province=pid, owner=NEUTRAL, pos=0),
        ev.ResourcesChanged(seat=seat, reason="subjugation", ep=info.value),
    )


def _siege(fold: ConanFold, contest: Contest, won: bool) -> None:
    seat, defender, pid = contest.attacker.seat, contest.defender.seat, contest.province
    by_marker = fold.state.options.crom_when_marker_falls
    if not won:
        if _lose_unit(fold, seat, pid) == 0:
            crom(fold, defender)  # the attacking army is destroyed
            return
        _after(fold, contest, False)
        return
    if prov(fold.pack, fold.state, pid).units[defender] > 0:
        if _lose_unit(fold, defender, pid) == 0 and not by_marker:
            crom(fold, seat)  # the defending army is destroyed, though the marker stands
    else:
        # The marker is the defence's last life: the province turns neutral and
        # the winner begins to subjugate it.
        fold.emit(ev.MarkerSet(province=pid, owner=NEUTRAL, marker=""))
        if by_marker:
            crom(fold, seat)
        fold.emit(ev.CampaignSet(province=pid, owner=seat, pos=0))
    _after(fold, contest, True)


def _battle(fold: ConanFold, contest: Contest, won: bool) -> None:
    seat, defender, pid = contest.attacker.seat, contest.defender.seat, contest.province
    winner, loser = (seat, defender) if won else (defender, seat)
    if _lose_unit(fold, loser, pid) == 0:
        # The battle is over: its winner takes Crom and runs the campaign.
        crom(fold, winner)
        settle_campaign(fold, pid, winner)
    if prov(fold.pack, fold.state, pid).units[seat] == 0:
        return
    _after(fold, contest, won)
    _offer_retreat(fold, contest)


def _offer_retreat(fold: ConanFold, contest: Contest) -> None:
    seat, defender, pid = contest.attacker.seat, contest.defender.seat, contest.province
    p = prov(fold.pack, fold.state, pid)
    if p.units[seat] and p.units[defender] and retreat_spots(fold.pack, fold.state, defender, pid):
        fold.emit(ev.PhasePushed(phase=Retreat(seat=defender, province=pid, attacker=seat)))


def retreat_spots(pack: Pack, state: State, seat: int, pid: str) -> list[str]:
    """A battle's defender falls back only to an adjacent friendly province:
    the seed's "a friendly province nearby"."""
    return [n for n in pack.neighbours(pid) if friendly(pack, state, seat, n)]


def retreat(fold: ConanFold, phase: Retreat, to: str) -> None:
    """The defender leaves the battle: the attacker has won it."""
    withdraw(fold, phase.seat, phase.province, to, opponent=phase.attacker)
    fold.emit(ev.PhasePopped())


def _alliance(fold: ConanFold, seat: int, pid: str, won: bool) -> None:
    if not won:
        return
    gold = fold.pack.province(pid).value + has_artifact_op(
        fold.pack, fold.state, seat, "gold_bonus", trigger="alliance"
    )
    if prov(fold.pack, fold.state, pid).campaign_owner == seat:
        fold.emit(ev.CampaignSet(province=pid, owner=NEUTRAL, pos=0))  # now friendly: nothing to subjugate
    fold.emit(
        ev.EmissariesChanged(seat=seat, province=pid, delta=-1),
        ev.MarkerSet(province=pid, owner=seat, marker="tower"),
        ev.ResourcesChanged(seat=seat, reason="alliance", gold=gold),
    )


def _break(fold: ConanFold, contest: Contest, won: bool) -> None:
    pid = contest.province
    if won:
        fold.emit(ev.MarkerSet(province=pid, owner=NEUTRAL, marker=""))
    else:
        fold.emit(ev.EmissariesChanged(seat=contest.attacker.seat, province=pid, delta=-1))


def march_allowed(state: State, phase: AfterContest) -> bool:
    """A forced march follows the roll (docs/rules/conan.md §7.4): after a win,
    and after a loss too under ``forced_march_after_loss``; never after an
    attack launched from two provinces unless that option allows it."""
    if not phase.won and not state.options.forced_march_after_loss:
        return False
    return not phase.split or state.options.forced_march_after_split_attack


def can_march(pack: Pack, state: State, phase: AfterContest) -> bool:
    if not march_allowed(state, phase):
        return False
    units = prov(pack, state, phase.province).units[phase.seat]
    return units >= (1 if phase.march_free else 2)


def march_defenders(pack: Pack, state: State, phase: AfterContest) -> list[int]:
    """Defenders a forced march may name: only when the attacker has a choice."""
    defenders = battle_defenders(pack, state, phase.seat, phase.province, phase.defender)
    return defenders if len(defenders) > 1 else [NEUTRAL]


def forced_march(fold: ConanFold, phase: AfterContest, defender: int) -> None:
    seat, pid = phase.seat, phase.province
    fold.emit(ev.PhasePopped())
    if not phase.march_free:
        fold.emit(ev.UnitsChanged(seat=seat, province=pid, delta=-1))
    fight(fold, seat, pid, defender, phase.split, previous=phase.defender)


def withdraw_options(pack: Pack, state: State, phase: AfterContest) -> list[str]:
    """Where a besieging or battling attacker may withdraw after the roll."""
    if phase.kind not in ("siege", "battle"):
        return []
    return withdraw_spots(pack, state, phase.seat, phase.province)


def withdraw_after(fold: ConanFold, phase: AfterContest, to: str) -> None:
    opponent = phase.defender if phase.kind == "battle" else NEUTRAL
    withdraw(fold, phase.seat, phase.province, to, opponent=opponent)
    fold.emit(ev.PhasePopped())


def use_after_card(fold: ConanFold, phase: AfterContest, card: KingdomCard) -> None:
    """A card of the ``contest.after`` window: the next forced march is free."""
    if card.type == "table":
        fold.emit(ev.TableCardTurned(seat=phase.seat, card=card.id, exhausted=True))
    else:
        fold.emit(ev.CardsDiscarded(seat=phase.seat, deck="kingdom", cards=(card.id,)))
    if any(e.op == "forced_march_free" for e in card.effects):
        fold.emit(ev.PhaseReplaced(phase=replace(phase, march_free=True)))
