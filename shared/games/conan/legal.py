"""Who is awaited, and every command each awaited seat may issue now.

``decide`` accepts exactly these commands, so this module is the one place
that says what is legal; the rules modules supply the option lists.
"""

from __future__ import annotations

from itertools import combinations
from typing import assert_never

from shared.games.conan import commands as c
from shared.games.conan.content import CATEGORIES, Pack
from shared.games.conan.rules import agechange, bidding, garrison, intrigue, military, outcomes, turn
from shared.games.conan.rules import contest as ct
from shared.games.conan.rules.adventure import conan_moves
from shared.games.conan.rules.cards import card_fits, table_cost
from shared.games.conan.state import (
    AdventureEnd,
    AfterContest,
    AgeChange,
    Bidding,
    ConanCourt,
    Contest,
    Coronation,
    Court,
    GameOver,
    Garrison,
    Intrigue,
    Military,
    Retreat,
    State,
    TokenChoice,
    Turn,
)


def actors(pack: Pack, state: State) -> frozenset[int]:
    if not state.phases:
        return frozenset()
    phase = state.phase
    match phase:
        case Bidding(step="sealed"):
            return frozenset(bidding.awaited(state, phase))
        case Bidding(step="swap"):
            return frozenset(b.seat for b in phase.revealed if state.seats[b.seat].bonus)
        case (
            TokenChoice() | Coronation() | Military() | Intrigue() | ConanCourt() | Court() | AfterContest()
            | Retreat() | Garrison()
        ):  # fmt: skip
            return frozenset((phase.seat,))
        case Turn(step="conan") if phase.seat == state.conan_player:
            return frozenset((phase.seat,))
        case Turn(step="cards"):
            return frozenset((phase.seat,))
        case Contest() if phase.step != "resolve":
            return frozenset((ct.acting_side(phase).seat,))
        case AgeChange(step=5):
            return frozenset(agechange.category_awaited(state))
        case AgeChange() if agechange.needs_input(pack, state, phase):
            seat = agechange.current(state, phase)
            return frozenset(() if seat is None else (seat,))
    return frozenset()


def legal(pack: Pack, state: State, seat: int) -> list[c.AnyCommand]:
    if seat not in actors(pack, state):
        return []
    phase = state.phase
    match phase:
        case Bidding(step="sealed"):
            return [c.PlaceBid(token=t, card=k) for t, k in bidding.bid_options(state, seat)]
        case Bidding():
            hand = sorted(set(state.seats[seat].strategy_hand))
            return [c.SwapBidCard(card=None), *(c.SwapBidCard(card=k) for k in hand)]
        case TokenChoice():
            return [c.ChooseToken(keep=k) for k in ("keep", "gold", "sorcery")]
        case Coronation():
            return [c.Crown(category=None), *(c.Crown(category=k) for k in CATEGORIES)]
        case Turn(step="conan"):
            return [c.MoveConan(to=None), *(c.MoveConan(to=p) for p in conan_moves(pack, state))]
        case Turn():
            return _turn_cards(pack, state, seat, phase)
        case Military():
            return _military(pack, state, phase)
        case Intrigue():
            return _intrigue(pack, state, phase)
        case ConanCourt():
            return _conan_court(pack, state)
        case Court():
            return _court(pack, state, seat)
        case Contest():
            return _contest(pack, state, phase, seat)
        case AfterContest():
            return _after(pack, state, phase)
        case Retreat():
            spots = outcomes.retreat_spots(pack, state, seat, phase.province)
            return [*(c.Withdraw(to=p) for p in spots), c.Proceed()]
        case AgeChange() | Garrison():
            return _age_change(pack, state, phase, seat)
        case AdventureEnd() | GameOver():
            return []  # they await nobody
        case _:
            assert_never(phase)


def _turn_cards(pack: Pack, state: State, seat: int, phase: Turn) -> list[c.AnyCommand]:
    s = state.seats[seat]
    out: list[c.AnyCommand] = []
    for cid in sorted(set(s.kingdom_hand)):
        card = pack.kingdom_cards[cid]
        if card.type == "table" and s.gold >= table_cost(pack, state, seat, card):
            out.append(c.PlayTableCard(card=cid))
    for t in s.table:
        if t.exhausted and s.gold >= table_cost(pack, state, seat, pack.kingdom_cards[t.card]):
            out.append(c.RefreshTableCard(card=t.card))
    if seat == state.conan_player and not phase.conan_done:
        # Conan's move after the table cards (option conan_move_first): the die waits for it.
        return [*out, c.MoveConan(to=None), *(c.MoveConan(to=p) for p in conan_moves(pack, state))]
    return out + [c.TakeDie(action=a) for a in turn.actions(state)]


def _military(pack: Pack, state: State, phase: Military) -> list[c.AnyCommand]:
    out: list[c.AnyCommand] = [c.RaiseTroops(provinces=p) for p in military.raise_options(pack, state, phase)]
    out += [c.MoveArmy(frm=f, to=t, units=n) for f, t, n in military.army_moves(pack, state, phase)]
    out += [c.Withdraw(to=t, frm=f) for f, t in military.withdrawals(pack, state, phase)]
    out += [c.Attack(province=p, defender=d) for p, d in military.attack_options(pack, state, phase)]
    if phase.target and not phase.fought:
        return out  # an army that moved in to attack must fight there (docs/rules/conan.md §5.2)
    if state.options.may_decline_action or phase.moved or not out:
        out.append(c.EndAction())
    return out


def _intrigue(pack: Pack, state: State, phase: Intrigue) -> list[c.AnyCommand]:
    out: list[c.AnyCommand] = [
        c.MoveEmissary(frm=f, to=t) for f, t in intrigue.emissary_steps(pack, state, phase)
    ]
    out += [c.StartIntrigue(province=p) for p in intrigue.intrigue_targets(pack, state, phase)]
    out += [c.CollectGold(province=p) for p in intrigue.gold_targets(pack, state, phase)]
    out += [c.BuildEmissary(province=p) for p in intrigue.build_targets(pack, state, phase)]
    if state.options.may_decline_action or phase.moves or not out:
        out.append(c.EndAction())
    return out


def _conan_court(pack: Pack, state: State) -> list[c.AnyCommand]:
    out: list[c.AnyCommand] = []
    for to in [None, *conan_moves(pack, state)]:
        spots = turn.raider_spots(pack, state, state.conan_at, to or state.conan_at)
        out += [c.ConanAct(to=to, raider=r) for r in [None, *spots]]
    return out


def _court(pack: Pack, state: State, seat: int) -> list[c.AnyCommand]:
    out: list[c.AnyCommand] = [c.CourtDraw(option=o) for o in pack.header.court_draw_options]
    events = sorted({k for k in state.seats[seat].kingdom_hand if pack.kingdom_cards[k].type == "event"})
    return out + [c.PlayEvent(card=k) for k in events]


def usable_cards(pack: Pack, state: State, seat: int, window: str, kind: str, role: str) -> list[str]:
    s = state.seats[seat]
    found = {
        t.card
        for t in s.table
        if not t.exhausted and card_fits(pack.kingdom_cards[t.card], window, kind, role)
    }
    for k in s.kingdom_hand:
        card = pack.kingdom_cards[k]
        if card.type == "instant" and card_fits(card, window, kind, role):
            found.add(k)
    return sorted(found)


def _contest(pack: Pack, state: State, phase: Contest, seat: int) -> list[c.AnyCommand]:
    if phase.step in ("attacker_card", "defender_card"):
        return [c.CommitCard(cards=k) for k in ct.strategy_choices(pack, state, phase, seat)]
    role = "attacker" if seat == phase.attacker.seat else "defender"
    kind = ct.contest_type(phase.kind)
    out: list[c.AnyCommand] = [
        c.UseCard(card=k) for k in usable_cards(pack, state, seat, ct.window_of(phase), kind, role)
    ]
    side = ct.acting_side(phase)
    if phase.step.startswith("after") and not side.rerolled and state.seats[seat].sorcery > 0:
        out.append(c.Sorcery())
    return [*out, c.Proceed()]


def _after(pack: Pack, state: State, phase: AfterContest) -> list[c.AnyCommand]:
    out: list[c.AnyCommand] = []
    if outcomes.can_march(pack, state, phase):
        out += [c.ForcedMarch(defender=d) for d in outcomes.march_defenders(pack, state, phase)]
    if outcomes.march_allowed(state, phase) and not phase.march_free:
        out += [
            c.UseCard(card=k)
            for k in usable_cards(pack, state, phase.seat, "contest.after", "military", "attacker")
        ]
    out += [c.Withdraw(to=n) for n in outcomes.withdraw_options(pack, state, phase)]
    return [*out, c.Proceed()]


def _subsets(items: list[str]) -> list[tuple[str, ...]]:
    return [combo for r in range(len(items) + 1) for combo in combinations(items, r)]


def _age_change(pack: Pack, state: State, phase: AgeChange | Garrison, seat: int) -> list[c.AnyCommand]:
    if isinstance(phase, Garrison):
        options = garrison.options(pack, state, phase)
        return [*(c.PlaceGarrison(province=p, city=k) for p, k in options), c.EndAction()]
    match phase.step:
        case 1:
            return [
                c.ResolveRaids(sacrifice_in=s) for s in _subsets(agechange.raid_choices(pack, state, seat))
            ]
        case 4:
            return [
                *(c.Buy(item=i, province=p) for i, p in agechange.purchases(pack, state, seat)),
                c.EndAction(),
            ]
        case _:
            return [c.ChooseCategory(category=k) for k in CATEGORIES]
