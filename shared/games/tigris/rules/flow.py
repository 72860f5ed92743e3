"""The order of things inside an action and at the end of a turn (docs/rules/tigris.md §5.2, §15).

``decide`` performs an action's main effect, then ``resume`` walks the
remaining stages until one of them awaits a seat's decision. A decision
command resumes at the stage it interrupted. Every stage is a no-op when it
does not apply (no marker: no wars; no placed tile: no monument), so the same
walk serves every action.
"""

from __future__ import annotations

from shared.games.tigris import events as ev
from shared.games.tigris.board import HAND_SIZE, INDEX
from shared.games.tigris.evolve import evolve
from shared.games.tigris.state import Over, Stage, State
from shared.games.tigris_common.colours import Colour


class Emitter:
    """Collects events and keeps the state they lead to, so later rules see it."""

    __slots__ = ("events", "state")

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[ev.TigrisEvent] = []

    def emit(self, *events: ev.TigrisEvent) -> None:
        for event in events:
            self.events.append(event)
            self.state = evolve(self.state, event)

    @property
    def over(self) -> bool:
        return isinstance(self.state.phase, Over)


def stages(state: State) -> tuple[Stage, ...]:
    if state.options.treasures_before_monument:
        middle: tuple[Stage, ...] = ("treasures", "monument")
    else:
        middle = ("monument", "treasures")
    return ("wars", *middle, "end_action", "turn_treasures", "turn_end")


def resume(em: Emitter, start: Stage) -> None:
    """Run the stages from ``start`` until a seat is awaited or the turn is over."""
    # Imported here because those rules call back into this walk when they resume.
    from shared.games.tigris.rules import monuments, treasures, turn, wars

    order = stages(em.state)
    for stage in order[order.index(start) :]:
        if em.over:
            return
        if stage == "wars":
            waiting = wars.next_war(em)
        elif stage == "monument":
            waiting = monuments.offer(em)
        elif stage == "treasures":
            waiting = em.state.options.treasure_timing == "action" and treasures.collect(em, "treasures")
        elif stage == "end_action":
            waiting = turn.end_action(em)
        elif stage == "turn_treasures":
            waiting = em.state.options.treasure_timing == "turn" and treasures.collect(em, "turn_treasures")
        else:
            turn.end_turn(em)
            return
        if waiting:
            return


def after(stage: Stage, state: State) -> Stage:
    order = stages(state)
    return order[order.index(stage) + 1]


def sorted_tiles(tiles: tuple[Colour, ...] | list[Colour]) -> tuple[Colour, ...]:
    return tuple(sorted(tiles, key=INDEX.__getitem__))


def draw(em: Emitter, seat: int, count: int) -> bool:
    """Draw ``count`` tiles for ``seat``; end the game instead if the bag is short."""
    bag = em.state.bag
    if count > len(bag):
        em.emit(ev.GameEnded(reason="bag_empty"))
        return False
    if count:
        em.emit(
            ev.TilesDrawn(seat=seat, tiles=sorted_tiles(bag[:count])),
            ev.TilesDrawnCount(seat=seat, count=count),
        )
        if em.state.options.end_when_bag_emptied and not em.state.bag:
            em.emit(ev.GameEnded(reason="bag_empty"))
            return False
    return True


def refill(em: Emitter, seat: int) -> bool:
    return draw(em, seat, HAND_SIZE - sum(em.state.hands[seat]))
