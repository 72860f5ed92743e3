"""Why a command is refused, once ``legal`` has found it is not allowed.

``legal`` alone decides what is allowed; this module only names the most
likely reason, with a sentence that names the card, token or province at
hand. The codes are those of ``rejections.py``.
"""

from __future__ import annotations

from shared.games.conan import commands as c
from shared.games.conan.content import Pack
from shared.games.conan.rejections import (
    ARMY_BESIEGED,
    ARMY_ENGAGED,
    BID_TOKEN_UNAVAILABLE,
    CARD_NOT_IN_HAND,
    MUST_ATTACK,
    NO_SUCH_DIE,
    NOT_ADJACENT,
    NOT_ENOUGH_UNITS,
    ONE_ATTACK,
    STACK_LIMIT,
    UNKNOWN_PROVINCE,
)
from shared.games.conan.rules.board import engagement, friendly, prov, room
from shared.games.conan.rules.turn import die_for
from shared.games.conan.state import Military, State
from shared.kernel.rejection import ILLEGAL_MOVE, WRONG_PHASE, RuleViolation


def explain(
    pack: Pack, state: State, seat: int, command: c.AnyCommand, legal: list[c.AnyCommand]
) -> RuleViolation:
    phase = type(state.phase).__name__
    found = _military(pack, state, seat, command)
    if found is not None:
        return found
    if not any(type(x) is type(command) for x in legal):
        return RuleViolation(
            WRONG_PHASE, f"{type(command).__name__} cannot be used now ({phase}).", phase=phase
        )
    s = state.seats[seat]
    match command:
        case c.PlaceBid(token=token) if token not in s.bid_available:
            return RuleViolation(
                BID_TOKEN_UNAVAILABLE, f"Your {token} bidding token is set aside.", token=token
            )
        case c.PlaceBid(card=card) if card and card not in s.strategy_hand:
            return RuleViolation(CARD_NOT_IN_HAND, f"You do not hold the strategy card {card}.", card=card)
        case c.CommitCard(cards=cards) if any(cards.count(k) > s.strategy_hand.count(k) for k in cards):
            return RuleViolation(
                CARD_NOT_IN_HAND, f"You do not hold the strategy cards {cards}.", cards=cards
            )
        case c.TakeDie(action=action) if action not in ("military", "intrigue", "court") or not die_for(
            state, action
        ):
            return RuleViolation(
                NO_SUCH_DIE, f"No fate die in the pool allows a {action} action.", action=action
            )
        case c.MoveArmy(frm=frm, to=to) if frm not in pack.index or to not in pack.index:
            return RuleViolation(UNKNOWN_PROVINCE, "There is no such province.", frm=frm, to=to)
        case c.MoveArmy(frm=frm, to=to) if (
            to not in pack.neighbours(frm) and state.options.redeploy_adjacent_only
        ):
            return RuleViolation(NOT_ADJACENT, f"{to} does not border {frm}.", frm=frm, to=to)
        case c.MoveArmy(frm=frm, units=n) if prov(pack, state, frm).units[seat] < n:
            return RuleViolation(NOT_ENOUGH_UNITS, f"You have fewer than {n} units in {frm}.", units=n)
        case c.MoveArmy(to=to, units=n) if room(pack, state, seat, to) < n:
            return RuleViolation(
                STACK_LIMIT, f"At most {pack.header.stack_limit} of your units fit in {to}.", to=to
            )
    return RuleViolation(
        ILLEGAL_MOVE, f"{type(command).__name__} is not allowed here now ({phase}).", phase=phase
    )


def _military(pack: Pack, state: State, seat: int, command: c.AnyCommand) -> RuleViolation | None:
    """The movement rules of docs/rules/conan.md §5.2-5.3, named."""
    phase = state.phase
    if not isinstance(phase, Military):
        return None
    match command:
        case c.EndAction() if phase.target and not phase.fought:
            why = f"Your army moved into {phase.target} to attack: fight there."
            return RuleViolation(MUST_ATTACK, why, province=phase.target)
        case c.MoveArmy(frm=frm, to=to) if frm in pack.index and to in pack.index:
            stands = engagement(pack, state, seat, frm)
            attacking = not friendly(pack, state, seat, to)
            if stands in ("siege", "battle"):
                why = f"Your army in {frm} is fighting there: it leaves only by withdrawing."
                return RuleViolation(ARMY_ENGAGED, why, frm=frm)
            if stands == "besieged":
                return RuleViolation(ARMY_BESIEGED, f"A besieged army cannot leave {frm}.", frm=frm)
            if stands == "campaign" and attacking:
                why = f"Your army on campaign in {frm} may only fall back into a friendly province."
                return RuleViolation(ARMY_ENGAGED, why, frm=frm, to=to)
            if attacking and phase.target not in ("", to):
                why = f"This action already attacks {phase.target}: one contest per action."
                return RuleViolation(ONE_ATTACK, why, to=to)
    return None
