"""Every open reading of the rules as a named option with its default
(docs/rules/conan.md §13 lists them with the reading each default stands for).

Where the seed's text can be read two ways its reading is the default; where
it is silent the default is the derived or published reading. Each field names
the section of docs/rules/conan.md it belongs to. Points that are *not*
options, and why they are fixed (§13, last paragraph):

- content (map, cards, token values, the six contest faces) is data: a content
  pack changes it, not an option (§2);
- the intrigue and court die orders mirror the military order: the sources call
  dual and wild faces last resorts for every action (§4.2);
- one artifact stays out with two players only because three are dealt to two
  seats, and who rolls the fate pool changes nothing (§3);
- "closer" for Conan is a shortest-path distance, the only measure a board has (§9.1);
- the bid after an adventure gives nobody an extra turn, and the game ends at
  the end of the turn that completes the last adventure: both follow from the
  turn order, with ``bid_immediately`` covering the timing question (§9.5);
- breaking an alliance uses the alliance dice formula: no source offers another (§6.2);
- a campaign ends with its army: with no unit left nobody holds the track (§7.1);
- an army leaves a siege or battle only by withdrawing, the seed's only way out (§5.3);
- one Military action gives one contest plus its forced marches (§5.4);
- only a home destination can lead to a coronation (Conan ends every adventure
  at its destination), and the attempt belongs to that home's owner alone (§10);
- the crowning EP is never awarded twice (§12).
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from shared.kernel.bounds import Count, Ids
from shared.kernel.messages import Record


class Options(Record, frozen=True, forbid_unknown_fields=True):
    #: §2.1: content pack by name (the bundled Ziggurat pack, or a registered one).
    #: A pack is looked up by name in the content folder: only a plain name,
    #: never a path.
    pack: Annotated[str, Meta(min_length=1, max_length=64, pattern="^[a-z0-9][a-z0-9_-]*$")] = "ziggurat"
    #: §2.2: fate-die faces; empty = the pack's layout (no plain Court face).
    fate_faces: Ids = ()
    #: §5.2: a redeploy moves one step to an adjacent province (else to any friendly one).
    redeploy_adjacent_only: bool = True
    #: §5.2: one army may make both movements (else units that moved this action stay where they are).
    one_army_two_moves: bool = True
    #: §5.1: raising troops may use the home province (it counts as friendly).
    raise_at_home: bool = True
    #: §6.2: the unit on the campaign track still rolls with its army.
    campaign_marker_unit_rolls: bool = True
    #: §7.5: a withdrawing army may go to any friendly province (else an adjacent one).
    withdraw_anywhere: bool = False
    #: §7.4: forced march after an attack launched from two provinces (forum ruling: no).
    forced_march_after_split_attack: bool = False
    #: §7.4: a forced march may follow a lost contest too (the seed's "after the roll");
    #: False = only after a won one.
    forced_march_after_loss: bool = True
    #: §5.4: among several armies the attacker names the defender (or the campaign's army defends).
    battle_defender: Literal["attacker_chooses", "campaign_owner"] = "attacker_chooses"
    #: §7.6: False = the siege attacker takes Crom when the defending army is destroyed,
    #: marker standing or not (the seed); True = when the marker, the defence's last life, falls.
    crom_when_marker_falls: bool = False
    #: §6.5: raiders in a neutral province aid a battle's defending army too (else only the province).
    raiders_aid_battle_defender: bool = True
    #: §9.5: an adventure completed mid-turn is resolved (and bid for) at once,
    #: else at the end of that turn.
    bid_immediately: bool = True
    #: §9.1: a sideways Conan move (equal distance) discards the token.
    sideways_move_discards: bool = True
    #: §9.2: raiders may be placed in home provinces.
    raiders_in_home: bool = True
    #: §9.2: raiders may be placed in out-of-play zones.
    raiders_out_of_play: bool = False
    #: §8: gold from collecting with an emissary = province value + this.
    collect_gold_extra: Count = 0
    #: §9.4: bid value of a bid made without a strategy card.
    empty_hand_bid_value: Count = 0
    #: §9.4: a bidder holding a strategy card must bid one (the seed); else the token alone may do.
    bid_requires_card: bool = True
    #: §9.4: last bid tie: earliest in turn order from the current player (or first player, random).
    bid_last_tiebreak: Literal["turn_order", "first_player", "random"] = "turn_order"
    #: §9.4: bidding tokens are not reset at age change (the seed names no reset).
    bid_tokens_reset_each_age: bool = False
    #: §11 step 1: raiders in the home province count in the raids (it is friendly).
    raids_count_home: bool = True
    #: §11 step 2: met objectives are replaced from the deck.
    replace_objectives: bool = True
    #: §10: a coronation tie counts as success.
    coronation_tie_succeeds: bool = False
    #: §2.4, §12 step 2: final EP per fort and per city; None = the content pack's value.
    ep_per_fort: Count | None = None
    ep_per_city: Count | None = None
    #: §12 step 3: the flat age-change income is also paid at final scoring.
    final_flat_income: bool = True
    #: §12 step 5: adventure-token majorities compare values (else token counts).
    majorities_by_value: bool = True
    #: §6.1: most strategy cards a participant commits to one contest, sealed (0 = none).
    strategy_cards_per_contest: Count = 1
    #: §4.3: hand limit per card kind (0 = none).
    hand_limit: Count = 0
    #: §11 step 4: purchased emissaries may go to any friendly province (else home only).
    emissary_purchase_anywhere: bool = True
    #: §11 step 5: the Conan bonus card is given at age change in 2-3 player games too.
    bonus_card_small_games: bool = True
    #: §11 step 5: last bonus-card tie: first clockwise from the first player (or random, nobody).
    bonus_last_tiebreak: Literal["first_player", "random", "nobody"] = "first_player"
    #: §9.1: Conan may enter out-of-play zones (destinations there are legal).
    conan_enters_out_of_play: bool = True
    #: §12 step 6: a tie on EP and tokens is a shared place (or first clockwise from the first player).
    final_last_tiebreak: Literal["shared", "first_player"] = "shared"
    #: §12 step 6: EP may go below zero.
    negative_ep: bool = True
    #: §4.1: the Conan move comes before table-card payments at turn start.
    conan_move_first: bool = True
    #: §6.2: an adjacent province holding your emissary adds an intrigue die.
    intrigue_counts_emissaries: bool = True
    #: §3: enforce the recommended kingdoms for 2 and 3 players.
    recommended_kingdoms: bool = True
    #: §4.1: after taking a die the player may perform nothing.
    may_decline_action: bool = True
    #: §11 step 7: a fresh fate pool is rolled at the start of each age.
    reroll_pool_at_age_start: bool = True
    #: §9.1: Conan leaving the destination discards the token.
    leaving_destination_discards: bool = True
    #: §6.2: the most dice in one contest roll.
    max_dice: Count = 6
    #: §7.1-7.3: units a lost military contest costs.
    units_lost_per_contest: Count = 1
