"""What Tigris & Euphrates keeps hidden, for the generic secrecy test.

Hidden from everyone: the bag's order. Hidden by a seat from the others: its
hand (only its size is public) and, unless ``open_scoring``, its points behind
the screen (awarded by public events, as at the table, but views show only
one's own totals). Treasures won are not varied: their sum over all seats
follows from the treasures left on the board, so one seat's count cannot
change alone. Tiles of a colour are interchangeable, so there are no item ids.
"""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from shared.games.tigris import events as ev
from shared.games.tigris.state import Counts, State
from shared.games.tigris_common.hidden import exchange, redeal
from shared.kernel.rng import Rng
from shared.kernel.visibility import Audience


def conceal(state: State, owner: Audience, rng: Rng) -> State:
    if owner is None:
        return replace(state, bag=tuple(rng.shuffled(state.bag)))
    hand, bag = exchange(state.hands[owner], state.bag, rng)
    hands = (*state.hands[:owner], hand, *state.hands[owner + 1 :])
    state = replace(state, hands=hands, bag=bag)
    if state.options.open_scoring:
        return state
    mine: Counts = (rng.below(20), rng.below(20), rng.below(20), rng.below(20))
    return replace(state, points=(*state.points[:owner], mine, *state.points[owner + 1 :]))


def sample_hidden(state: State, seat: int, rng: Rng) -> State:
    """The other hands and the bag dealt afresh from what the seat has not seen.
    The others' points behind the screen are unknown to it: each is given the
    seat's own totals in a random colour order, a rival as far along as itself."""
    others = [s for s in range(state.seats) if s != seat]
    dealt, bag = redeal([state.hands[s] for s in others], state.bag, rng)
    hands = list(state.hands)
    points = list(state.points)
    for s, hand in zip(others, dealt, strict=True):
        hands[s] = hand
        if not state.options.open_scoring:
            a, b, c, d = rng.shuffled(state.points[seat])
            points[s] = (a, b, c, d)
    return replace(state, hands=tuple(hands), bag=bag, points=tuple(points))


def reveals(event: ev.TigrisEvent, audience: Audience) -> bool:
    match event:
        case ev.TilesDrawn() | ev.GameEnded():
            # A draw shows the drawer the bag's front; the end of the game shows everyone the scores.
            return True
        case (
            ev.GameStarted()
            | ev.BagFilled()
            | ev.TilesDrawnCount()
            | ev.TilesDiscarded()
            | ev.TilesDiscardedCount()
            | ev.TurnStarted()
            | ev.LeaderPositioned()
            | ev.LeaderReturned()
            | ev.TilePlaced()
            | ev.MarkerPlaced()
            | ev.MarkerRemoved()
            | ev.PointsScored()
            | ev.CatastrophePlaced()
            | ev.ActionPassed()
            | ev.RevoltStarted()
            | ev.WarsPending()
            | ev.WarStarted()
            | ev.SupportCommitted()
            | ev.ConflictResolved()
            | ev.TilesRemoved()
            | ev.MonumentOffered()
            | ev.MonumentBuilt()
            | ev.MonumentDeclined()
            | ev.TreasureChoiceOffered()
            | ev.TreasuresTaken()
            | ev.ActionEnded()
        ):
            return False
        case _:
            assert_never(event)
