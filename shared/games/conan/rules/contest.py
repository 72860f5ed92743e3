"""Contests: one roll-off between an attacker and a defender (docs/rules/conan.md §6).

Sequence: attacker commits a strategy card, then a player defender; both are
revealed; attacker's before-roll window, roll, after-roll window (sorcery);
defender's before-roll window, roll, after-roll window; then successes are
compared. ``outcomes.py`` applies what the result means for each kind.
"""

from __future__ import annotations

from itertools import combinations

from msgspec.structs import replace

from shared.games.conan import events as ev
from shared.games.conan.content import KingdomCard, Pack
from shared.games.conan.rules.board import ConanFold, friendly, has_artifact_op, prov
from shared.games.conan.rules.cards import apply_to_side
from shared.games.conan.state import NEUTRAL, Contest, Side, State

MILITARY = ("campaign", "siege", "battle")
BASE_VALUE = {"HIT": 1, "ATTACKER_HIT": 0, "HIT_CONAN": 1, "SHIELD": 0, "AXE": 0, "BLANK": 0}


def contest_type(kind: str) -> str:
    return "military" if kind in MILITARY else "intrigue"


def start(
    fold: ConanFold, kind: str, attacker: int, defender: int, province: str, pos: int, split: bool
) -> None:
    pack = fold.pack
    state = fold.state
    terrain = pack.province(province).track[pos]
    a, d = Side(seat=attacker), Side(seat=defender)
    if state.conan_at == province:
        a, d = with_conan(state, a, d)
    if kind not in MILITARY:
        a = replace(
            a,
            extra_dice=a.extra_dice + has_artifact_op(pack, state, attacker, "add_dice", contest="intrigue"),
        )
        if defender != NEUTRAL:
            d = replace(
                d,
                extra_dice=d.extra_dice
                + has_artifact_op(pack, state, defender, "add_dice", contest="intrigue"),
            )
    phase = Contest(
        kind=kind,
        province=province,
        terrain=terrain,
        step="attacker_card",
        attacker=a,
        defender=d,
        split=split,
    )
    fold.emit(ev.PhasePushed(phase=phase))


def conan_side(state: State, attacker: int, defender: int) -> str:
    """Which side a present Conan helps (docs/rules/conan.md §6.4): the Conan
    player when it takes part, else a neutral defender; nobody in a siege or
    battle between two other players."""
    if attacker == state.conan_player:
        return "attacker"
    if defender == NEUTRAL or defender == state.conan_player:
        return "defender"
    return ""


def with_conan(state: State, attacker: Side, defender: Side) -> tuple[Side, Side]:
    """Conan counts as present: his help goes where ``conan_side`` says, even
    when a card of the other side made him count (the card follows his rule)."""
    match conan_side(state, attacker.seat, defender.seat):
        case "attacker":
            return replace(attacker, conan=True), defender
        case "defender":
            return attacker, replace(defender, conan=True)
    return attacker, defender


def strategy_choices(pack: Pack, state: State, contest: Contest, seat: int) -> list[tuple[str, ...]]:
    """Every sorted set of up to ``strategy_cards_per_contest`` playable cards
    (copies of one card count separately), the empty one first."""
    playable = playable_strategy(pack, state, contest, seat)
    most = min(state.options.strategy_cards_per_contest, len(playable))
    return [(), *sorted({combo for n in range(1, most + 1) for combo in combinations(playable, n)})]


def playable_strategy(pack: Pack, state: State, contest: Contest, seat: int) -> list[str]:
    """The seat's strategy cards this contest's terrain or region allows, copies included."""
    region = pack.province(contest.province).region
    four = len(state.seats) >= 4
    out = []
    for cid in sorted(state.seats[seat].strategy_hand):
        card = pack.strategy[cid]
        if contest.kind in MILITARY:
            fits = contest.terrain in card.military_terrains
        else:
            fits = region in (card.regions_full if four else card.regions_small)
        if fits:
            out.append(cid)
    return out


def commit(fold: ConanFold, contest: Contest, seat: int, cards: tuple[str, ...]) -> None:
    fold.emit(
        ev.ContestCardCommitted(seat=seat, cards=cards),
        ev.ContestCardDeclared(seat=seat, count=len(cards)),
    )
    if contest.step == "attacker_card" and contest.defender.seat != NEUTRAL:
        fold.emit(ev.PhaseReplaced(phase=replace(contest, step="defender_card")))
        return
    _reveal(fold, contest)


def _reveal(fold: ConanFold, contest: Contest) -> None:
    sides = [contest.attacker] + ([contest.defender] if contest.defender.seat != NEUTRAL else [])
    cards = tuple(fold.state.seats[s.seat].sealed_cards for s in sides)
    fold.emit(ev.ContestCardsRevealed(seats=tuple(s.seat for s in sides), cards=cards))
    new = []
    for side, played in zip(sides, cards, strict=True):
        if played:
            fold.emit(ev.CardsDiscarded(seat=side.seat, deck="strategy", cards=played))
            faces = tuple((f, 1, 0) for k in played for f in fold.pack.strategy[k].success_faces)
            side = replace(side, cards=played, faces=side.faces + faces)
        new.append(side)
    defender = new[1] if len(new) > 1 else contest.defender
    fold.emit(
        ev.PhaseReplaced(phase=replace(contest, attacker=new[0], defender=defender, step="before_attacker"))
    )


def window_of(contest: Contest) -> str:
    return {
        "before_attacker": "contest.before_attacker_roll",
        "before_defender": "contest.before_defender_roll",
        "after_attacker": "contest.after_attacker_roll",
        "after_defender": "contest.after_defender_roll",
    }.get(contest.step, "")


def acting_side(contest: Contest) -> Side:
    defender_steps = ("defender_card", "before_defender", "after_defender")
    return contest.defender if contest.step in defender_steps else contest.attacker


def use_card(fold: ConanFold, contest: Contest, seat: int, card: KingdomCard) -> None:
    if card.type == "table":
        fold.emit(ev.TableCardTurned(seat=seat, card=card.id, exhausted=True))
    else:
        fold.emit(ev.CardsDiscarded(seat=seat, deck="kingdom", cards=(card.id,)))
    attacking = seat == contest.attacker.seat
    side = apply_to_side(contest.attacker if attacking else contest.defender, card)
    if side.free_rerolls:
        side = _roll(fold, replace(side, free_rerolls=0), contest, attacking, reroll=True)
    contest = replace(contest, attacker=side) if attacking else replace(contest, defender=side)
    if any(e.op == "conan_counts_present" for e in card.effects):
        a, d = with_conan(fold.state, contest.attacker, contest.defender)
        contest = replace(contest, attacker=a, defender=d)
    fold.emit(ev.PhaseReplaced(phase=contest))


def base_dice(pack: Pack, state: State, contest: Contest, attacking: bool) -> int:
    p = prov(pack, state, contest.province)
    value = pack.province(contest.province).value
    a, d = contest.attacker.seat, contest.defender.seat
    match contest.kind, attacking:
        case "campaign", True if not state.options.campaign_marker_unit_rolls:
            return p.units[a] - 1  # the unit on the track does not roll
        case (("campaign" | "siege" | "battle"), True):
            return p.units[a]
        case "campaign", False:
            return value
        case "siege", False:
            return max(p.units[d], value)
        case "battle", False:
            return p.units[d]
        case _, True:
            return intrigue_dice(pack, state, a, contest.province)
        case "alliance", False:
            return value
    return value + 1  # breaking an alliance


def intrigue_dice(pack: Pack, state: State, seat: int, province: str) -> int:
    count = 1
    for n in pack.neighbours(province):
        own_emissary = state.options.intrigue_counts_emissaries and prov(pack, state, n).emissaries[seat] > 0
        if friendly(pack, state, seat, n) or own_emissary:
            count += 1
    return count


def _roll(fold: ConanFold, side: Side, contest: Contest, attacking: bool, reroll: bool = False) -> Side:
    n = base_dice(fold.pack, fold.state, contest, attacking) + side.extra_dice + (1 if side.conan else 0)
    n = max(0, min(fold.state.options.max_dice, n))
    faces = tuple(fold.rng.choice(fold.pack.dice.contest_faces) for _ in range(n))
    fold.emit(ev.ContestRolled(seat=side.seat, faces=faces, reroll=reroll))
    return replace(side, dice=faces)


def proceed(fold: ConanFold, contest: Contest) -> None:
    """Close the acting side's window and move the roll-off along."""
    player_defender = contest.defender.seat != NEUTRAL
    match contest.step:
        case "before_attacker":
            a = _roll(fold, contest.attacker, contest, True)
            fold.emit(ev.PhaseReplaced(phase=replace(contest, attacker=a, step="after_attacker")))
        case "after_attacker" if player_defender:
            fold.emit(ev.PhaseReplaced(phase=replace(contest, step="before_defender")))
        case "after_attacker" | "before_defender":
            d = _roll(fold, contest.defender, contest, False)
            step = "after_defender" if player_defender else "resolve"
            fold.emit(ev.PhaseReplaced(phase=replace(contest, defender=d, step=step)))
        case "after_defender":
            fold.emit(ev.PhaseReplaced(phase=replace(contest, step="resolve")))


def sorcery(fold: ConanFold, contest: Contest, seat: int) -> None:
    fold.emit(ev.ResourcesChanged(seat=seat, reason="sorcery_reroll", sorcery=-1))
    attacking = seat == contest.attacker.seat
    side = contest.attacker if attacking else contest.defender
    side = replace(_roll(fold, side, contest, attacking, reroll=True), rerolled=True)
    contest = replace(contest, attacker=side) if attacking else replace(contest, defender=side)
    fold.emit(ev.PhaseReplaced(phase=contest))


def successes(side: Side, attacking: bool, neutral_axes: bool) -> int:
    total = 0
    for face in sorted(set(side.dice)):
        base = BASE_VALUE[face]
        if face == "ATTACKER_HIT" and attacking:
            base = 1
        elif face == "HIT_CONAN" and side.conan:
            base = 2
        elif face == "AXE" and neutral_axes:
            base = 1
        mods = sorted((m for m in side.faces if m[0] == face), key=lambda m: -m[1])
        caps = [m[2] or 99 for m in mods]
        for _ in range(side.dice.count(face)):
            best = base
            for i, m in enumerate(mods):
                if caps[i] > 0 and m[1] > best:
                    best = m[1]
                    caps[i] -= 1
                    break
            total += best
        # an unlimited mod applies to every die: handled as caps of 99 above
    return total


def raiders_act(pack: Pack, state: State, contest: Contest) -> bool:
    """Raiders in a neutral province make the defender's axes count, and one
    leaves after the roll (docs/rules/conan.md §6.5): for the province itself,
    and under ``raiders_aid_battle_defender`` for a battle's defending army."""
    here = prov(pack, state, contest.province)
    if here.raiders == 0 or here.owner != NEUTRAL:
        return False
    if contest.defender.seat == NEUTRAL:
        return True
    return contest.kind == "battle" and state.options.raiders_aid_battle_defender


def attacker_wins(pack: Pack, state: State, contest: Contest) -> tuple[bool, int, int]:
    neutral = contest.defender.seat == NEUTRAL
    axes = raiders_act(pack, state, contest)
    a = successes(contest.attacker, True, False)
    d = successes(contest.defender, False, axes)
    won = a > d
    if a == d and a > 0 and contest.kind in MILITARY:
        sword_a = has_artifact_op(pack, state, contest.attacker.seat, "win_ties", contest="military") > 0
        sword_d = (
            not neutral
            and has_artifact_op(pack, state, contest.defender.seat, "win_ties", contest="military") > 0
        )
        won = sword_a and not sword_d
    return won, a, d
