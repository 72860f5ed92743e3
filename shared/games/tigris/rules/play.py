"""The decision in progress every rule writes through: the kernel's ``Fold`` over
this game's state and events, so a later rule reads the state the earlier
ones left (a returned leader, a drawn tile)."""

from __future__ import annotations

from shared.games.tigris.events import TigrisEvent
from shared.games.tigris.state import Over, State
from shared.kernel.fold import Fold


class Play(Fold[State, TigrisEvent]):
    __slots__ = ()

    @property
    def over(self) -> bool:
        return isinstance(self.state.phase, Over)
