"""Every [D] decision and [Q] question of the digest (Part 1) as a named option.

Defaults are the digest's recommendations; each field says which point it covers.
"""

from __future__ import annotations

from typing import Literal

from shared.kernel.messages import Record


class Options(Record, frozen=True, forbid_unknown_fields=True):
    #: 1.7 [D] / Q1: an action may be passed (the unc.edu summary, BGA); else only when nothing is legal.
    allow_pass: bool = True
    #: 1.7 [D]: after conflicts, the monument chance comes before treasure collection (BGA order).
    treasures_before_monument: bool = False
    #: 1.8 [D]: moving a leader onto the square it already occupies is no action (BGA rejects it).
    allow_move_in_place: bool = False
    #: 1.13 [D]: a new square that includes a just-placed tile is a new chance even if it reuses
    #: tiles of a declined square; False makes a declined square's tiles never count again.
    monument_new_square_new_chance: bool = True
    #: 1.14 [D] / Q2: treasures are collected at the end of every action (FFG/BGA), or of the turn.
    treasure_timing: Literal["action", "turn"] = "action"
    #: 1.16 [D] / Q4 / 1.21 #21: who refills first: active player then clockwise, or table order.
    refill_order: Literal["clockwise_from_active", "table_order"] = "clockwise_from_active"
    #: 1.17 [D]: a bag emptied by a complete draw does not end the game; only a short draw does.
    end_when_bag_emptied: bool = False
    #: 1.18 [D] / Q5: identical sorted vectors share the place; else later seats in turn order win.
    shared_full_ties: bool = True
    #: 1.21 #5 [D]: a moving leader's destination is judged with the leader already lifted.
    judge_move_with_leader_lifted: bool = True
    #: 1.21 #14 [D]: when a tile completes several 2x2 squares the active player picks one;
    #: False offers only the north-west-most square.
    choose_monument_square: bool = True
    #: 1.21 #19 [D]: a swap of zero tiles is accepted as a pass (only while passing is allowed).
    empty_swap_is_pass: bool = True
    #: Q3: the <=2 treasures end check runs at the end of the turn (seed, BGA) or of every action.
    treasure_end_check: Literal["end_of_turn", "end_of_action"] = "end_of_turn"
    #: 1.21 #22 [D]: a war needs the colour's two leaders in two different kingdoms touching the
    #: unification square, however the sides were split (the only reading implemented).
    war_sides: Literal["touching_kingdoms"] = "touching_kingdoms"
    #: 1.19: BGA's open scoring: every seat's points and treasures are shown to everyone.
    open_scoring: bool = False
    #: 1.20: conflict support as in the rules ("free") or BGA's English variant, where a committing
    #: attacker must exceed and a committing defender must exactly tie.
    support_variant: Literal["free", "english"] = "free"
