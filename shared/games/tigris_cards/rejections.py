"""Why the card game refuses a command: its stable rejection codes.

Clients match on these strings, so they never change once published; the
sentence shown to the player is written where the rule is checked, because
it names the card, column or count at hand. The codes every game shares
(``not_your_turn``, ``wrong_phase``, ``game_over``) live in
:mod:`shared.kernel.rejection`.
"""

from __future__ import annotations

#: Passing while an action is possible, without the ``allow_pass`` option (§6).
PASS_NOT_ALLOWED = "pass_not_allowed"
#: The hand holds no card of the colour named (a card, a connector, a VP, a treasure swap).
CARD_NOT_IN_HAND = "card_not_in_hand"
#: The column already holds ``column_capacity`` cards below its head (§8).
COLUMN_FULL = "column_full"
#: A leader may only go onto a civilisation card without a leader (§7).
SPOT_UNAVAILABLE = "spot_unavailable"
#: Taking a leader back needs the ``allow_withdrawal`` option (§7).
WITHDRAWAL_NOT_ALLOWED = "withdrawal_not_allowed"
#: Withdrawing a leader that is not on the table.
LEADER_NOT_ON_TABLE = "leader_not_on_table"
#: The gap is taken, or a side has too few cards for a connector (§9.1).
CANNOT_CONNECT = "cannot_connect"
#: The player's one catastrophe is spent (§10).
CATASTROPHE_USED = "catastrophe_used"
#: Heads, ships and cards carrying a leader cannot be struck (§10).
CARD_PROTECTED = "card_protected"
#: Committing more support cards than the hand holds (§11).
NOT_ENOUGH_CARDS = "not_enough_cards"
#: Choosing a conflict colour the face-down connector did not open (§11.2).
NO_SUCH_CONFLICT = "no_such_conflict"
#: Taking a treasure the exchange does not offer (§9.2).
NO_TREASURE_THERE = "no_treasure_there"
#: Buying a ship the series does not offer (§12.1).
SHIP_UNAVAILABLE = "ship_unavailable"
