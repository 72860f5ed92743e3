"""End of an action and of a turn: monument income, refills, the end checks
(docs/rules/tigris.md §12.3, §15, §16)."""

from __future__ import annotations

from shared.games.tigris import events as ev
from shared.games.tigris.bitboard import BIT, Masks, flood
from shared.games.tigris.rules.bag import refill
from shared.games.tigris.rules.play import Play
from shared.games.tigris_common.colours import COLOURS

ACTIONS_PER_TURN = 2


def end_action(play: Play) -> bool:
    """Close the action; ``True`` while the turn goes on (the next action is awaited)."""
    s = play.state
    play.emit(ev.ActionEnded(seat=s.active, number=s.actions_done + 1))
    s = play.state
    if s.options.treasure_end_check == "end_of_action" and len(s.treasures) <= 2:
        play.emit(ev.GameEnded(reason="treasures"))
        return True
    return s.actions_done < ACTIONS_PER_TURN


def monument_income(play: Play) -> None:
    """The active seat's leaders earn 1 point per matching colour of each monument
    in their kingdom; the king does not stand in here."""
    s = play.state
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
            at = mine[COLOURS.index(colour)]
            if at is not None and region & BIT[at]:
                play.emit(ev.PointsScored(seat=s.active, colour=colour, amount=1, reason="monument"))


def refill_order(play: Play) -> list[int]:
    s = play.state
    if s.options.refill_order == "table_order":
        return list(range(s.seats))
    return [(s.active + k) % s.seats for k in range(s.seats)]


def end_turn(play: Play) -> None:
    monument_income(play)
    for seat in refill_order(play):
        if not refill(play, seat):
            return
    s = play.state
    if len(s.treasures) <= 2:
        play.emit(ev.GameEnded(reason="treasures"))
        return
    # The rules end a game only through the bag and the treasures; a turn that moved
    # neither brought the end no closer (passes, leader moves, monument income).
    quiet = 0 if s.progressed else s.quiet_turns + 1
    limit = s.options.stalemate_rounds * s.seats
    if limit and quiet >= limit:
        play.emit(ev.GameEnded(reason="stalemate"))
        return
    play.emit(ev.TurnStarted(seat=(s.active + 1) % s.seats, quiet=quiet))
