"""Weakest-colour scoring with wildcard treasures, shared by both Tigris games.

A player's score is their lowest colour total after each treasure is added to
some colour. Adding every treasure, one at a time, to the currently lowest
colour is optimal, and it also maximises the whole ascending vector compared
lexicographically, which is the tie-break chain (second weakest, then third,
then fourth). Equal vectors share the place. The rules are docs/rules/tigris.md
§17 and docs/rules/tigris-cards.md §15.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from shared.games.tigris_common.colours import COLOURS, Colour
from shared.kernel.contract import Standing


def allocate_wildcards(points: Mapping[Colour, int], wildcards: int) -> dict[Colour, int]:
    """The colour totals after the best placement of ``wildcards``."""
    totals = {c: points.get(c, 0) for c in COLOURS}
    for _ in range(wildcards):
        weakest = min(COLOURS, key=lambda c: (totals[c], COLOURS.index(c)))
        totals[weakest] += 1
    return totals


def strength(points: Mapping[Colour, int], wildcards: int) -> tuple[int, ...]:
    """The ascending colour totals: ``[0]`` is the score, the rest break ties."""
    return tuple(sorted(allocate_wildcards(points, wildcards).values()))


def rank(strengths: Sequence[tuple[int, ...]]) -> tuple[Standing, ...]:
    """Standings, best first; seats with equal strength share a place."""
    order = sorted(range(len(strengths)), key=lambda s: (tuple(-v for v in strengths[s]), s))
    return tuple(
        Standing(
            seat=seat,
            place=1 + sum(other > strengths[seat] for other in strengths),
            score=strengths[seat][0],
            tiebreak=strengths[seat][1:],
        )
        for seat in order
    )
