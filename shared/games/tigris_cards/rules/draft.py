"""A decision in progress: events so far and the state they lead to.

Rules read ``draft.state`` and call ``emit``; folding each event at once lets
later steps of the same command see its effects (a split kingdom, a returned
leader) without a second copy of the rules in ``evolve``.
"""

from __future__ import annotations

from shared.games.tigris_cards.events import TigrisCardsEvent
from shared.games.tigris_cards.evolve import evolve
from shared.games.tigris_cards.state import State
from shared.kernel.rng import Rng


class Draft:
    __slots__ = ("events", "rng", "state")

    def __init__(self, state: State, rng: Rng) -> None:
        self.state = state
        self.rng = rng
        self.events: list[TigrisCardsEvent] = []

    def emit(self, *events: TigrisCardsEvent) -> None:
        for event in events:
            self.events.append(event)
            self.state = evolve(self.state, event)
