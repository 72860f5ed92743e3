"""Rating ladders, one per game: pure, a fold of the rated results in log order.

A ladder's log holds one :class:`events.Rated` per rated table (a
tournament's table or a rated casual one), written once per table id. The
ladder (:mod:`ladder`) is a pure function of that log: OpenSkill
(Plackett-Luce, the model the tournaments use) updated one table at a time,
so folding the log again gives the live numbers bit for bit.
"""

from shared.ladders.events import LadderEventUnion, Rated, RatedPlacing
from shared.ladders.ladder import (
    PROVISIONAL_GAMES,
    LadderState,
    LadderView,
    PlayerLadder,
    evolve,
    fold,
    leaderboard,
    player_ladder,
    prior,
)

__all__ = [
    "PROVISIONAL_GAMES",
    "LadderEventUnion",
    "LadderState",
    "LadderView",
    "PlayerLadder",
    "Rated",
    "RatedPlacing",
    "evolve",
    "fold",
    "leaderboard",
    "player_ladder",
    "prior",
]
