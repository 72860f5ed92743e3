"""Every decision the rule texts leave open, as a named option.

Each field is a [D] or [Q] point of the digest (Part 2, sections 2.5-2.15, and
open questions 6-11), or a Finnish-versus-Hungarian difference (table 2.14).
The defaults are the digest's recommendations.
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from shared.games.tigris_cards.cards import TOTAL_CARDS
from shared.kernel.bounds import Count, Seat
from shared.kernel.messages import Record

#: Who may take a reward card out of the cards committed to a conflict.
RewardSource = Literal["any_played", "winner_played"]
#: What the connection threshold counts.
ConnectRule = Literal["columns", "kingdoms"]
#: A number of cards: no more than the game has.
Cards = Annotated[int, Meta(ge=0, le=TOTAL_CARDS)]


class Options(Record, frozen=True, forbid_unknown_fields=True):
    # 2.14 #3 / Q6: civilisation cards allowed below the head (poeppelkiste reads 7).
    column_capacity: Cards = 8
    # 2.14 #4 / Q7: cards needed on each side before a connector may be laid.
    connect_threshold: Cards = 3
    # 2.14 #4: Hungarian counts each neighbouring column, Finnish each whole kingdom.
    connect_rule: ConnectRule = "columns"
    # Q7: a ship in a column counts as one card towards the threshold.
    ship_counts_for_threshold: bool = True
    # 2.14 #1 / Q8: Finnish and English rules let the winner take any committed card.
    internal_reward: RewardSource = "any_played"
    # 2.14 #7: the English text gives one of all played cards in an external conflict.
    external_reward: RewardSource = "any_played"
    # 2.5 / Q11: voluntary passing is not in the seeds (a pass is still forced when nothing is legal).
    allow_pass: bool = False
    # 2.6 [D] / Q10: a connector is a civilisation card, so leaders may stand on it.
    leaders_on_connectors: bool = True
    # 2.6 [Q] / Q10: neither seed describes taking a leader back voluntarily.
    allow_withdrawal: bool = False
    # 2.7 [D] / Q9: the VP belongs to laying the card, so it comes before the ship.
    vp_before_ship: bool = True
    # 2.8 [D] / Q10: a leader on an exchanged treasure stays on the red replacement.
    exchange_keeps_leader: bool = True
    # 2.15 / Q9: heads can never leave the table, so they never join a ship series.
    head_in_ship_series: bool = False
    # 2.15: a run already longer than four, extended by the new card, still buys a ship.
    ship_on_longer_run: bool = True
    # 2.15 / Q9: the trigger is laying a card, so a series made by cards sliding up
    # buys nothing; if on, a catastrophe that closes up such a series offers the ship.
    ship_after_slide: bool = False
    # 2.15: the English text removes the losing leader before the spoils are taken.
    loser_leader_first: bool = True
    # 2.15: the rule names the trader's owner, who need not be the active player.
    inactive_trader_exchanges: bool = True
    # 2.1 variant: four open VP piles by colour instead of one pile showing its top card.
    open_piles: bool = False
    # 2.3: cards removed unseen after dealing in a two-player game.
    two_player_removal: Cards = 30
    # 2.3: hand size after every refill.
    hand_size: Cards = 8
    # 2.3: the players choose a start player; None draws one at random (recorded in an event).
    first_seat: Seat | None = None
    # Engine safeguard, not in the printed rules: a table on which nobody can
    # or will spend a card would loop forever online, so the game ends after
    # this many full rounds in which no hand lost a card (0 switches it off).
    stalemate_rounds: Count = 3
