"""Every point the seeds leave open, or state two ways, as a named option.

docs/rules/tigris-cards.md §17 lists them with the reading each default stands
for, and §18 where the Finnish and Hungarian seeds differ; each field below
names the section that applies it. Fields are never removed or renamed: a
stored game's first event carries its options, and this struct refuses names
it does not know.
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
    # §8: cards allowed below the head (Hungarian: at most 8); a review reads 7.
    column_capacity: Cards = 8
    # §9.1: cards needed on each side before a connector may be laid (both seeds: 3).
    connect_threshold: Cards = 3
    # §9.1: Hungarian counts each neighbouring column; "kingdoms" counts each whole kingdom.
    connect_rule: ConnectRule = "columns"
    # §9.1 (derived): a ship in a column counts as one card towards the threshold.
    ship_counts_for_threshold: bool = True
    # §11.1: Finnish (and English) rules let the winner take any committed card;
    # "winner_played" is the Hungarian reading.
    internal_reward: RewardSource = "any_played"
    # §11.2: both seeds' rule text gives one of all played cards in an external conflict.
    external_reward: RewardSource = "any_played"
    # §6: voluntary passing is in neither seed (a pass is still forced when nothing is legal).
    allow_pass: bool = False
    # §7: a connector is a civilisation card, so leaders may stand on it.
    leaders_on_connectors: bool = True
    # §7: the seeds only place or move a leader; taking one back is an option.
    allow_withdrawal: bool = False
    # §8 (derived): the VP belongs to laying the card, so it comes before the ship.
    vp_before_ship: bool = True
    # §9.2 (derived): a leader on an exchanged treasure stays on the red replacement.
    exchange_keeps_leader: bool = True
    # §12.1 (derived): heads are never laid and never leave, so they join no ship series.
    head_in_ship_series: bool = False
    # §12.1: Hungarian "at least four": a longer run, extended by the new card, buys a ship.
    ship_on_longer_run: bool = True
    # §12.1: the trigger is laying a card, so a series made by cards sliding up
    # buys nothing; if on, a catastrophe that closes up such a series offers the ship.
    ship_after_slide: bool = False
    # §11.2: both seeds remove the losing leader before the spoils are taken.
    loser_leader_first: bool = True
    # §9.2: both seeds name the trader's owner, who need not be the active player.
    inactive_trader_exchanges: bool = True
    # §16: the seeds' agreed variant: four open VP piles by colour instead of one
    # pile showing its top card.
    open_piles: bool = False
    # §4: cards removed unseen after dealing in a two-player game.
    two_player_removal: Cards = 30
    # §13: hand size after every refill.
    hand_size: Cards = 8
    # §4: None draws the start player at random (Hungarian; recorded in an event).
    first_seat: Seat | None = None
    # §14.2: a platform safeguard, not in the seeds. A table on which nobody can
    # or will spend a card never reaches an end the rules know, so the game ends
    # after this many full rounds in which no hand lost a card (0 switches it off).
    stalemate_rounds: Count = 3
