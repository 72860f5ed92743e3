"""Why Catan refuses a command: the game's own stable rejection codes.

Clients match on these strings, so they never change once published. The
codes every game shares live in :mod:`shared.kernel.rejection`: Catan raises
``game_over``, ``not_your_turn`` (the seat is not awaited now) and
``illegal_move`` (the command is not among those ``legal`` lists, or fails the
predicate that stands in for a family too large to list). The sentence shown
to the player is written where the rule is checked, since it may name the
numbers at hand.
"""

from __future__ import annotations

#: A domestic trade offer the rules forbid: cards not given both ways, a kind
#: swapped for itself, a kind that may not be traded, cards the offering seat
#: does not hold, or a recipient not at the table (docs/rules/catan.md §6).
INVALID_TRADE = "invalid_trade"
#: An offer beyond the table's house-rule cap on offers per turn
#: (``Options.trade_offers_per_turn``); the game's own rules set no limit.
HOUSE_RULE_OFFER_CAP = "house_rule_offer_cap"
