"""Varying a hidden hand for the secrecy test, shared by both Tigris games.

Both count a hand by colour (in ``COLOURS`` order) and draw from an unseen
pile (the board game's bag, the card game's deck).
"""

from __future__ import annotations

from shared.games.tigris_common.colours import COLOURS, Colour
from shared.kernel.rng import Rng

Counts = tuple[int, int, int, int]


def exchange(hand: Counts, pile: tuple[Colour, ...], rng: Rng) -> tuple[Counts, tuple[Colour, ...]]:
    """Swap some of ``hand`` with as many pieces of ``pile`` at random places:
    the hand's size, the pile's size and every colour's total stay the same."""
    held = [colour for colour, n in zip(COLOURS, hand, strict=True) for _ in range(n)]
    rest = list(pile)
    if not held or not rest:
        return hand, pile
    n = 1 + rng.below(min(len(held), len(rest)))
    for i, j in zip(rng.shuffled(range(len(held)))[:n], rng.shuffled(range(len(rest)))[:n], strict=True):
        held[i], rest[j] = rest[j], held[i]
    red, blue, green, black = (held.count(colour) for colour in COLOURS)
    return (red, blue, green, black), tuple(rest)


def redeal(
    hands: list[Counts], pile: tuple[Colour, ...], rng: Rng
) -> tuple[list[Counts], tuple[Colour, ...]]:
    """Gather ``hands`` and ``pile`` into one pool, shuffle it and deal it back:
    each hand as many pieces as it held, the rest the pile in a random order.
    The pool is put in colour order first, so the result depends only on what
    was gathered (the colour totals), never on who held what."""
    pool = [colour for hand in hands for colour, n in zip(COLOURS, hand, strict=True) for _ in range(n)]
    pool = rng.shuffled(sorted((*pool, *pile), key=COLOURS.index))
    dealt, start = [], 0
    for hand in hands:
        held = pool[start : start + sum(hand)]
        start += sum(hand)
        red, blue, green, black = (held.count(colour) for colour in COLOURS)
        dealt.append((red, blue, green, black))
    return dealt, tuple(pool[start:])
