"""What each audience may see (docs/rules/tigris.md §18, issue 3 item 4), and every event's audience.

A seat sees the board, the leaders, the flow of play, everyone's hand and
catastrophe counts, the bag count, and its own hand, points and treasures
(everyone's with open scoring). A spectator sees the same public part.
Everything is a tuple in a fixed order, so equal information gives equal bytes.
"""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from shared.games.tigris import events as ev
from shared.games.tigris.state import AnyPhase, BuiltMonument, Counts, State
from shared.games.tigris_common.colours import Colour
from shared.kernel.messages import Record
from shared.kernel.visibility import PUBLIC, SERVER_ONLY, Audience, Visibility, by_type, seat_only


class Score(Record, frozen=True):
    seat: int
    points: Counts  # per colour, in COLOURS order
    treasures: int


class TigrisView(Record, frozen=True):
    seats: int
    active: int
    actions_done: int
    phase: AnyPhase
    tiles: tuple[Colour | None, ...]
    monuments: tuple[BuiltMonument, ...]
    treasures: tuple[int, ...]
    catastrophes: tuple[int, ...]
    marker: int | None
    leaders: tuple[tuple[int | None, ...], ...]
    catastrophes_left: tuple[int, ...]
    hand_counts: tuple[int, ...]
    bag_count: int
    seat: int | None = None
    hand: Counts | None = None
    scores: tuple[Score, ...] = ()


def _scores(state: State, audience: Audience) -> tuple[Score, ...]:
    if state.options.open_scoring:
        shown = range(state.seats)
    elif audience is None:
        shown = range(0)
    else:
        shown = range(audience, audience + 1)
    return tuple(Score(seat=s, points=state.points[s], treasures=state.treasures_won[s]) for s in shown)


#: The last state's public view: the projector asks for every audience's view of a
#: state in a row, and a seat's differs from the spectator's in three fields only.
#: It holds the state, so the identity checked cannot be another's; both are frozen.
_last: tuple[State, TigrisView] | None = None


def view(state: State, audience: Audience) -> TigrisView:
    global _last
    last = _last
    if last is not None and last[0] is state:
        public = last[1]
    else:
        public = _public(state)
        _last = (state, public)
    if audience is None:
        return public
    return replace(public, seat=audience, hand=state.hands[audience], scores=_scores(state, audience))


def _public(state: State) -> TigrisView:
    """The spectator's view."""
    return TigrisView(
        seats=state.seats,
        active=state.active,
        actions_done=state.actions_done,
        phase=state.phase,
        tiles=state.tiles,
        monuments=tuple(sorted(state.monuments, key=lambda m: m.top_left)),
        treasures=state.treasures,
        catastrophes=state.catastrophes,
        marker=state.marker,
        leaders=state.leaders,
        catastrophes_left=state.catastrophes_left,
        hand_counts=tuple(sum(h) for h in state.hands),
        bag_count=len(state.bag),
        scores=_scores(state, None),
    )


def matched_visibility(event: ev.TigrisEvent) -> Visibility:
    """Every event's audience (exhaustive: mypy checks each class is handled);
    :func:`visibility` answers the cases that read no field from
    :data:`VISIBILITY_BY_TYPE`."""
    match event:
        case ev.BagFilled():
            return SERVER_ONLY
        case ev.TilesDrawn(seat=seat) | ev.TilesDiscarded(seat=seat):
            return seat_only(seat)
        case (
            ev.GameStarted()
            | ev.TilesDrawnCount()
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
            | ev.GameEnded()
        ):
            return PUBLIC
        case _:
            assert_never(event)


#: ``matched_visibility``'s cases that read no field (tests/games/test_visibility_by_type.py).
VISIBILITY_BY_TYPE: dict[type, Visibility] = {
    ev.BagFilled: SERVER_ONLY,
    **dict.fromkeys(
        (
            ev.GameStarted,
            ev.TilesDrawnCount,
            ev.TilesDiscardedCount,
            ev.TurnStarted,
            ev.LeaderPositioned,
            ev.LeaderReturned,
            ev.TilePlaced,
            ev.MarkerPlaced,
            ev.MarkerRemoved,
            ev.PointsScored,
            ev.CatastrophePlaced,
            ev.ActionPassed,
            ev.RevoltStarted,
            ev.WarsPending,
            ev.WarStarted,
            ev.SupportCommitted,
            ev.ConflictResolved,
            ev.TilesRemoved,
            ev.MonumentOffered,
            ev.MonumentBuilt,
            ev.MonumentDeclined,
            ev.TreasureChoiceOffered,
            ev.TreasuresTaken,
            ev.ActionEnded,
            ev.GameEnded,
        ),
        PUBLIC,
    ),
}
visibility = by_type(VISIBILITY_BY_TYPE, matched_visibility)
