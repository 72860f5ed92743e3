"""Revolts: a leader placed into a kingdom that holds its colour (docs/rules/tigris.md §10)."""

from __future__ import annotations

from shared.games.tigris import events as ev
from shared.games.tigris.bitboard import BIT, Masks, flood
from shared.games.tigris.rules.kingdoms import Regions, adjacent_temples, flipped
from shared.games.tigris.rules.play import Play
from shared.games.tigris.state import Support
from shared.games.tigris_common.colours import COLOURS, Colour


def start_if_any(play: Play, seat: int, index: int) -> bool:
    """Start a revolt if the placed leader met a rival of its colour."""
    s = play.state
    sq = s.leaders[seat][index]
    assert sq is not None
    # Runs after every leader placement: flood just this leader's kingdom, as a mask.
    kingdom = flood(BIT[sq], Masks(s).occupied)
    rivals = [
        other
        for other, row in enumerate(s.leaders)
        if other != seat and (at := row[index]) is not None and kingdom & BIT[at]
    ]
    if len(rivals) > 1:
        # Play never gets here (every meeting of two leaders of a colour is settled
        # at once); kept exact all the same: the full labelling's order decides.
        regions = Regions(s)
        rivals = [other for other, i in regions.leaders[regions.label[sq]] if i == index and other != seat]
    if not rivals:
        return False
    rival = rivals[0]
    rival_sq = s.leaders[rival][index]
    assert rival_sq is not None
    down = flipped(s)
    # Strength is the temples next to each leader, not the whole kingdom's.
    play.emit(
        ev.RevoltStarted(
            colour=COLOURS[index],
            attacker=seat,
            defender=rival,
            attacker_base=adjacent_temples(s, sq, down),
            defender_base=adjacent_temples(s, rival_sq, down),
        )
    )
    return True


def resolve(play: Play, phase: Support, winner: int, loser: int, totals: tuple[int, int]) -> None:
    play.emit(
        ev.LeaderReturned(seat=loser, leader=phase.colour.leader, reason="revolt"),
        # A revolt always pays a red point, whatever the leaders' colour.
        ev.PointsScored(seat=winner, colour=Colour.RED, amount=1, reason="revolt"),
        # Closes the conflict: the outcome is on record once its effects are.
        ev.ConflictResolved(
            conflict="revolt",
            colour=phase.colour,
            winner=winner,
            loser=loser,
            attacker_total=totals[0],
            defender_total=totals[1],
        ),
    )
