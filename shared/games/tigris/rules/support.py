"""Committing supporters to a revolt or a war: attacker first, then defender."""

from __future__ import annotations

from shared.games.tigris import events as ev
from shared.games.tigris import rejections as rj
from shared.games.tigris.board import INDEX
from shared.games.tigris.rules import revolts, wars
from shared.games.tigris.rules.play import Play
from shared.games.tigris.state import Stage, State, Support
from shared.games.tigris_common.colours import Colour


def supporter(phase: Support) -> Colour:
    """Revolts are fought with temples; wars with tiles of the war's colour."""
    return Colour.RED if phase.conflict == "revolt" else phase.colour


def awaited(phase: Support) -> int:
    return phase.attacker if phase.attacker_commit is None else phase.defender


def support_range(state: State, phase: Support, seat: int) -> list[int]:
    """Every count ``seat`` may commit now."""
    held = state.hands[seat][INDEX[supporter(phase)]]
    counts = list(range(held + 1))
    if state.options.support_variant == "free":
        return counts
    if phase.attacker_commit is None:
        return [c for c in counts if c == 0 or phase.attacker_base + c > phase.defender_base]
    gap = phase.attacker_base + phase.attacker_commit - phase.defender_base
    return [c for c in counts if c == 0 or c == gap]


def support_problem(state: State, phase: Support, seat: int, count: int) -> str | None:
    if count in support_range(state, phase, seat):
        return None
    held = state.hands[seat][INDEX[supporter(phase)]]
    return rj.BAD_SUPPORT if not 0 <= count <= held else rj.SUPPORT_VARIANT


def commit(play: Play, phase: Support, seat: int, count: int) -> Stage | None:
    play.emit(ev.SupportCommitted(seat=seat, colour=supporter(phase), count=count))
    if phase.attacker_commit is None:
        return None  # the defender answers next
    attack = phase.attacker_base + phase.attacker_commit
    defence = phase.defender_base + count
    # Ties go to the defender.
    winner, loser = (phase.attacker, phase.defender) if attack > defence else (phase.defender, phase.attacker)
    if phase.conflict == "revolt":
        revolts.resolve(play, phase, winner, loser, (attack, defence))
    else:
        wars.resolve(play, phase, winner, loser, (attack, defence))
    # A settled conflict may leave another war pending: the walk goes on with the wars.
    return "wars"
