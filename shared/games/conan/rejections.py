"""Why Age of Conan refuses a command: its stable rejection codes.

Clients match on these strings, so they never change once published; the
sentence shown to the player is written in ``explain.py``, because it names
the card, token or province at hand. The codes every game shares
(``not_your_turn``, ``wrong_phase``, ``game_over``, ``illegal_move``) live in
:mod:`shared.kernel.rejection`.
"""

from __future__ import annotations

#: The bidding token named is set aside until the tokens are reset (§9.4).
BID_TOKEN_UNAVAILABLE = "bid_token_unavailable"
#: A bid or a contest names a strategy card (or more copies of one) the hand does not hold.
CARD_NOT_IN_HAND = "card_not_in_hand"
#: No fate die left in the pool allows the action asked for (§4.2).
NO_SUCH_DIE = "no_such_die"
#: A movement names a province the content pack does not have.
UNKNOWN_PROVINCE = "unknown_province"
#: A redeploy to a province that does not border the one left (option ``redeploy_adjacent_only``, §5.2).
NOT_ADJACENT = "not_adjacent"
#: The province cannot take that many more of the seat's units (the pack's stacking limit, §5.5).
STACK_LIMIT = "stack_limit"
#: Moving more units than the seat has in the province left.
NOT_ENOUGH_UNITS = "not_enough_units"
#: Ending a Military action whose army moved in to attack before it fought there (§5.2).
MUST_ATTACK = "must_attack"
#: An army in a siege or battle leaves only by withdrawing; one on campaign only falls back (§5.3).
ARMY_ENGAGED = "army_engaged"
#: A besieged army cannot leave its province (§5.3).
ARMY_BESIEGED = "army_besieged"
#: A second province attacked in one Military action: one contest per action (§5.4).
ONE_ATTACK = "one_attack_per_action"
