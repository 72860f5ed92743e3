"""End of an action and of a turn: monument income, refills, the end checks
(docs/rules/tigris.md §12.3, §15, §16)."""

from __future__ import annotations

from shared.games.tigris import events as ev
from shared.games.tigris.bitboard import BIT, Masks, flood
from shared.games.tigris.rules.flow import Emitter, refill
from shared.games.tigris_common.colours import COLOURS

ACTIONS_PER_TURN = 2


def end_action(em: Emitter) -> bool:
    """Close the action; ``True`` while the turn goes on (the next action is awaited)."""
    s = em.state
    em.emit(ev.ActionEnded(seat=s.active, number=s.actions_done + 1))
    s = em.state
    if s.options.treasure_end_check == "end_of_action" and len(s.treasures) <= 2:
        em.emit(ev.GameEnded(reason="treasures"))
        return True
    return s.actions_done < ACTIONS_PER_TURN


def monument_income(em: Emitter) -> None:
    """The active seat's leaders earn 1 point per matching colour of each monument
    in their kingdom; the king does not stand in here."""
    s = em.state
    if not s.monuments:
        return
    occupied = Masks(s).occupied
    mine = s.leaders[s.active]
    for built in s.monuments:
        # Flipped tiles always occupy their squares; the guard only keeps an
        # empty square in no region, as the full labelling has it.
        bit = BIT[built.top_left]
        region = flood(bit, occupied) if occupied & bit else 0
        for colour in built.monument.colours:
            i = COLOURS.index(colour)
            if mine[i] is not None and region & BIT[mine[i]]:
                em.emit(ev.PointsScored(seat=s.active, colour=colour, amount=1, reason="monument"))


def refill_order(em: Emitter) -> list[int]:
    s = em.state
    if s.options.refill_order == "table_order":
        return list(range(s.seats))
    return [(s.active + k) % s.seats for k in range(s.seats)]


def end_turn(em: Emitter) -> None:
    monument_income(em)
    for seat in refill_order(em):
        if not refill(em, seat):
            return
    s = em.state
    if len(s.treasures) <= 2:
        em.emit(ev.GameEnded(reason="treasures"))
        return
    # The rules end a game only through the bag and the treasures; a turn that moved
    # neither brought the end no closer (passes, leader moves, monument income).
    quiet = 0 if s.progressed else s.quiet_turns + 1
    limit = s.options.stalemate_rounds * s.seats
    if limit and quiet >= limit:
        em.emit(ev.GameEnded(reason="stalemate"))
        return
    em.emit(ev.TurnStarted(seat=(s.active + 1) % s.seats, quiet=quiet))
