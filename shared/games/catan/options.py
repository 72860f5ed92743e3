"""Named options, each with its default and the reading it stands for
(docs/rules/catan.md §15): edition differences, readings of unclear texts,
official and reported variants, house rules."""

from __future__ import annotations

from functools import cached_property
from typing import Literal

from shared.kernel.bounds import Count
from shared.kernel.messages import Record

# Edition differences that need no option because both editions play the same here:
# the robber waits (on the desert / beside the track) until the first attack; a pillaged
# city with no settlement piece lies on its side and is the next one upgraded; with no
# basic knight piece one must promote first; Inventor leaves the robber where it is;
# Irrigation and Mining take what the bank has left. Card names are a view concern.


# ``dict=True`` gives each instance a ``__dict__`` for the cached properties below (not encoded, not
# compared): the rules ask ``ck`` several times a command, and a cached value is read like a field.
class Options(Record, frozen=True, forbid_unknown_fields=True, dict=True):
    # "ck" plays Cities & Knights; "none" is the base game (registered as `catan`).
    expansion: Literal["ck", "none"] = "ck"
    # Beginner map of the chosen game, or the variable set-up. The base rulebook's beginner map
    # also fixes each colour's starting pieces, but the specification does not give them and the
    # C&K beginner map prints none; so there is no fixed-start option: both beginner maps open
    # with the ordinary snake set-up (docs/rules/catan.md §2).
    layout: Literal["variable", "beginner"] = "variable"
    # Official A-R spiral, or shuffled tokens with no adjacent 6/8 (both official).
    numbers: Literal["spiral", "random"] = "spiral"
    # House rules for shuffled tokens (not official): no 2 beside 12, no equal numbers side by side.
    house_no_adjacent_2_12: bool = False
    house_no_adjacent_equal: bool = False
    # 5th edition: a lone recipient takes what the bank has left; 4th edition: nobody.
    bank_shortage: Literal["nobody_unless_single", "nobody"] = "nobody_unless_single"
    # House rule: robber may not target seats with <= 2 visible VP.
    friendly_robber: bool = False
    # 2020 text: a chased robber must go to a numbered hex; 2025 allows the desert.
    chased_robber_may_go_to_desert: bool = False
    # 2020: Deserter's replacement has the same strength; 2025: same or lower, the player choosing.
    deserter_replacement: Literal["same", "same_or_lower"] = "same"
    # Spy: the seed has the player take one of the cards it looks at ("varasta yksi niistä");
    # "optional" is the almanac's reading, where the player may take none.
    spy_take: Literal["one", "optional"] = "one"
    # When nobody defends and barbarians (strength 0) lose: every seat ties and draws.
    zero_strength_defense_reward: Literal["all_tied_draw", "none"] = "all_tied_draw"
    # The merchant may stand on the desert (a land hex with no trade benefit).
    merchant_on_desert: bool = True
    # Official "meanies" variant: each seat picks which active knights fight; only those deactivate.
    meanies_variant: bool = False
    # Knight-Errant variant (unverified): one active knight may chase the robber before the roll.
    knight_errant_variant: bool = False
    # A promoted knight keeps its right to act this turn; False takes it away (docs/rules/catan.md §9).
    promoted_knight_may_act: bool = True
    # Progress hand limit outside one's own turn, and by the end of it.
    progress_hand_limit: Count = 4
    # 2025 and the seed: the active seat may exceed it until its turn ends; "immediate": discard at once.
    own_turn_progress_limit: Literal["end_of_turn", "immediate"] = "end_of_turn"
    # Barbarian ship moves needed to reach Catan.
    barbarian_track: Count = 7
    # House rule, off (0) by default: at most this many domestic trade offers per turn, against a
    # seat that floods the table with offers. The rules allow any number of trades.
    trade_offers_per_turn: Count = 0
    # Victory points needed; 0 means the game's own (10 base, 13 C&K).
    points_to_win: Count = 0

    @cached_property
    def ck(self) -> bool:
        return self.expansion == "ck"

    @cached_property
    def target(self) -> int:
        return self.points_to_win or (13 if self.ck else 10)
