"""Every [D]/[U] rule point of conan.md as a named option with its default.

Each field names its section (3.1 #n for the listed ambiguities). Points the
digest tags [D] or [U] that are *not* options, and why they are fixed:

- 1.2/1.5/3.2 content (map, cards, token values, the 6 contest faces) is data:
  a content pack changes it, not an option.
- 1.3 the intrigue and court die orders are the military order "by symmetry";
  the sources call dual and wild faces last resorts for every action.
- 2.1 step 5: one artifact stays out with two players only because three are
  dealt to two seats; 2.1 step 7: who rolls the pool changes nothing.
- 2.6.1 "closer" is a shortest-path distance: the only measure the board has.
- 2.6.5 the bid after an adventure gives nobody an extra turn, and 2.12 the game
  ends at the end of the turn that completes the last adventure: both follow
  from the turn order, with ``bid_immediately`` covering the timing question.
- 2.7.3 breaking an alliance uses the alliance dice formula: the digest offers
  no other one.
- 2.8.1 a campaign whose army is wiped out ends and its track is cleared: with
  no unit left there is nobody to hold the track.
- 2.8.3 one Military action gives one contest plus forced marches, as 2.5 says.
- 2.10 only a home destination can lead to a coronation (Conan ends every
  adventure at its destination), and 3.1 #13's "one attempt per qualifying
  adventure end" is the only possibility here: the attempt belongs to the owner
  of that home, so there is nobody else to try again.
- 2.12 the crowning EP is never awarded twice: the digest says so explicitly.
"""

from __future__ import annotations

from typing import Literal

from shared.kernel.bounds import Count, Ids, Name
from shared.kernel.messages import Record


class Options(Record, frozen=True, forbid_unknown_fields=True):
    #: Content pack by name (the bundled Ziggurat pack, or a registered one).
    pack: Name = "ziggurat"
    #: 3.1 #1/#2: fate-die faces; empty = the pack's layout (no plain Court face).
    fate_faces: Ids = ()
    #: 3.1 #3: a redeploy moves one step to an adjacent province.
    redeploy_adjacent_only: bool = True
    #: 3.1 #3: one army may make both movements (else units that moved this action stay where they are).
    one_army_two_moves: bool = True
    #: 2.5 A [D]: raising troops may use the home province (it counts as friendly).
    raise_at_home: bool = True
    #: 2.8.1 [D]: the unit on the campaign track still rolls with its army.
    campaign_marker_unit_rolls: bool = True
    #: 2.8.2 [D]: a withdrawing attacker may go to any friendly province (else an adjacent one).
    withdraw_anywhere: bool = False
    #: 3.1 #4: forced march after an attack launched from two provinces (FFG forum: no).
    forced_march_after_split_attack: bool = False
    #: 3.1 #4: a forced march may follow a lost contest too (the seed's "after the roll");
    #: False = only after a won one.
    forced_march_after_loss: bool = True
    #: 2.8.3 (silent): among several armies the attacker names the defender (or campaign owner, lowest).
    battle_defender: Literal["attacker_chooses", "campaign_owner"] = "attacker_chooses"
    #: 3.1 #5: False = the siege attacker takes Crom when the defending army is destroyed,
    #: marker standing or not; True = when the marker, the defence's last life, falls.
    crom_when_marker_falls: bool = False
    #: raiders in a neutral province aid a battle's defending army too (else only the province).
    raiders_aid_battle_defender: bool = True
    #: 3.1 #6: an adventure completed mid-turn is resolved (and bid for) at once,
    #: else at the end of that turn.
    bid_immediately: bool = True
    #: 3.1 #7: a sideways Conan move (equal distance) discards the token.
    sideways_move_discards: bool = True
    #: 3.1 #8: raiders may be placed in home provinces.
    raiders_in_home: bool = True
    #: 3.1 #8: raiders may be placed in out-of-play zones.
    raiders_out_of_play: bool = False
    #: 3.1 #9: gold from collecting with an emissary = province value + this.
    collect_gold_extra: Count = 0
    #: 3.1 #10: bid value of a bid made without a strategy card.
    empty_hand_bid_value: Count = 0
    #: 3.1 #10: a bidder holding a strategy card must bid one (else the token alone may do).
    bid_requires_card: bool = True
    #: 3.1 #11: last bid tie: earliest in turn order from the current player (or first player, random).
    bid_last_tiebreak: Literal["turn_order", "first_player", "random"] = "turn_order"
    #: 2.6.4 [D]: bidding tokens are not reset at age change (the seed names no reset).
    bid_tokens_reset_each_age: bool = False
    #: 2.11 step 1 [D]: raiders in the home province count in the raids (it is friendly).
    raids_count_home: bool = True
    #: 3.1 #12: met objectives are replaced from the deck.
    replace_objectives: bool = True
    #: 3.1 #13: a coronation tie counts as success.
    coronation_tie_succeeds: bool = False
    #: 3.1 #14: final EP per fort and per city; None = the content pack's value.
    ep_per_fort: Count | None = None
    ep_per_city: Count | None = None
    #: 3.1 #15: the flat age-change income is also paid at final scoring.
    final_flat_income: bool = True
    #: 3.1 #16: adventure-token majorities compare values (else token counts).
    majorities_by_value: bool = True
    #: 3.1 #17: most strategy cards a participant commits to one contest, sealed (0 = none).
    strategy_cards_per_contest: Count = 1
    #: 3.1 #18: hand limit per card kind (0 = none).
    hand_limit: Count = 0
    #: 3.1 #19: purchased emissaries may go to any friendly province (else home only).
    emissary_purchase_anywhere: bool = True
    #: 3.1 #20: the Conan bonus card is given at age change in 2-3 player games too.
    bonus_card_small_games: bool = True
    #: 2.11 step 5 [U]: last bonus-card tie: first clockwise from the first player (or random, nobody).
    bonus_last_tiebreak: Literal["first_player", "random", "nobody"] = "first_player"
    #: 3.1 #21: Conan may enter out-of-play zones (destinations there are legal).
    conan_enters_out_of_play: bool = True
    #: 2.12 step 6 [U]: a tie on EP and tokens is a shared place (or first clockwise from the first player).
    final_last_tiebreak: Literal["shared", "first_player"] = "shared"
    #: 3.1 #22: EP may go below zero.
    negative_ep: bool = True
    #: 3.1 #23: the Conan move comes before table-card payments at turn start.
    conan_move_first: bool = True
    #: 3.1 #24: an adjacent province holding your emissary adds an intrigue die.
    intrigue_counts_emissaries: bool = True
    #: 2.2: enforce the recommended kingdoms for 2 and 3 players.
    recommended_kingdoms: bool = True
    #: 2.4: after taking a die the player may perform nothing.
    may_decline_action: bool = True
    #: 2.11: a fresh fate pool is rolled at the start of each age.
    reroll_pool_at_age_start: bool = True
    #: 2.6.1: Conan leaving the destination discards the token.
    leaving_destination_discards: bool = True
    #: 1.4: the most dice in one contest roll.
    max_dice: Count = 6
    #: 2.8.2: one unit per lost siege or battle contest.
    units_lost_per_contest: Count = 1
