"""Final scoring (docs/rules/tigris-cards.md §15): each VP pile sorted by colour, treasures as
jokers, the weakest colour scores, and the next weakest colours break ties."""

from __future__ import annotations

from shared.games.tigris_cards.cards import Card, colour_of
from shared.games.tigris_cards.state import Over, Player, State
from shared.games.tigris_common.colours import COLOURS, Colour
from shared.games.tigris_common.scoring import rank, strength
from shared.kernel.contract import Result


def colour_points(player: Player) -> dict[Colour, int]:
    points = dict.fromkeys(COLOURS, 0)
    for card in player.vp:
        if card is not Card.TREASURE:
            colour = colour_of(card)
            assert colour is not None, "a VP pile holds no ships"
            points[colour] += 1
    return points


def treasures(player: Player) -> int:
    return sum(1 for card in player.vp if card is Card.TREASURE)


def result(state: State) -> Result | None:
    if not isinstance(state.phase, Over):
        return None
    strengths = [strength(colour_points(p), treasures(p)) for p in state.players]
    return Result(standings=rank(strengths), reason=state.phase.reason)
