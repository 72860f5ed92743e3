"""Every point the seed leaves open, or states two ways, as a named option.

docs/rules/tigris.md §19 lists them with the reading each default stands for;
each field below names the section that applies it. Where the seed
(shared/seeds/004_b728d7bc204e8fb0.txt) speaks, the default is its reading.
Fields are never removed or renamed: a stored game's first event carries its
options, and this struct refuses names it does not know.
"""

from __future__ import annotations

from typing import Literal

from shared.kernel.bounds import Count
from shared.kernel.messages import Record


class Options(Record, frozen=True, forbid_unknown_fields=True):
    #: §5.3: an action may be passed (not in the seed; the unc.edu summary and BGA allow it);
    #: off, a pass only when nothing else is legal.
    allow_pass: bool = True
    #: §5.2: after conflicts, the monument chance comes before treasure collection (the seed's
    #: order of the events); on, treasures first.
    treasures_before_monument: bool = False
    #: §6: a move comes "from another square" (seed), so a leader cannot be moved onto its own.
    allow_move_in_place: bool = False
    #: §12.2: off (the seed): tiles of a declined square never carry a monument, so no later
    #: square that includes one is offered. On: the engine's earlier default, where any new
    #: square that includes the just-placed tile is a new chance, declined tiles or not.
    monument_new_square_new_chance: bool = False
    #: §13: treasures are collected as part of the action (seed, "Pelin kulku"), or only at
    #: the end of the turn (the seed's sentence under "Aarteiden saaminen").
    treasure_timing: Literal["action", "turn"] = "action"
    #: §15: who refills first: the active seat, then clockwise (derived), or table order.
    refill_order: Literal["clockwise_from_active", "table_order"] = "clockwise_from_active"
    #: §16.1: the game ends when the bag is empty *and* a draw cannot be completed (seed); on,
    #: a bag emptied by a complete draw ends it too.
    end_when_bag_emptied: bool = False
    #: §17: seats whose sorted colour totals are all equal share the place (derived: the seed
    #: stops at "and so on"). Off is a house tie-break that no rule text has: a full tie
    #: goes to the seat later in turn order from the start player.
    shared_full_ties: bool = True
    #: §6: a moving leader's destination is judged with the leader already lifted.
    judge_move_with_leader_lifted: bool = True
    #: §12.1: when a tile completes several 2x2 squares the active seat picks one;
    #: off, only the north-west-most square is offered.
    choose_monument_square: bool = True
    #: §9: a swap of zero tiles is accepted as a pass (only while passing is allowed).
    empty_swap_is_pass: bool = True
    #: §16.1: the <=2 treasures end check runs at the end of the turn (seed) or of every action.
    treasure_end_check: Literal["end_of_turn", "end_of_action"] = "end_of_turn"
    #: §11: a war needs the colour's two leaders in two different kingdoms touching the
    #: unification square, however the sides were split (the only reading implemented).
    war_sides: Literal["touching_kingdoms"] = "touching_kingdoms"
    #: §18: BGA's open scoring: every seat's points and treasures are shown to everyone.
    open_scoring: bool = False
    #: §10, §11: conflict support as in the seed ("free") or BGA's English variant, where a
    #: committing attacker must exceed and a committing defender must exactly tie.
    support_variant: Literal["free", "english"] = "free"
    #: §16.2: a platform safeguard, not a rule of the game. A table where every seat only
    #: passes (or only moves leaders about) never reaches an end the rules know, so after
    #: this many full rounds in which no tile was drawn and no treasure taken the game ends
    #: and is scored as any ended game. 0 switches it off (a seat clock may still end it).
    stalemate_rounds: Count = 3
