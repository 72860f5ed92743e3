"""Tournaments: pure, event-sourced, in the same decide/evolve style as games.

The aggregate (no I/O, no clock, no global randomness):

- :func:`decide.decide` ``(state | None, command, rng) -> list[event]``
- :func:`evolve.evolve` ``(state | None, event) -> state``
- :func:`setup.create` ``(Create) -> [Created]`` (``decide(None, Create)`` calls it)
- commands :data:`commands.TournamentCommandUnion`, events
  :data:`events.TournamentEventUnion` (tags ``tournament.<snake_name>``)

Derived, pure functions of the state: :mod:`standings`, :mod:`ratings`,
:mod:`views`, and :mod:`results` to turn a game's ``Result`` into a
:class:`commands.RecordResult`.
"""

from shared.tournaments.commands import (
    Create,
    Finish,
    OpenTable,
    PairRound,
    Placing,
    RecordResult,
    Register,
    Start,
    TournamentCommandUnion,
    Withdraw,
)
from shared.tournaments.decide import decide
from shared.tournaments.events import TournamentEventUnion
from shared.tournaments.evolve import evolve, fold
from shared.tournaments.results import record_command
from shared.tournaments.setup import create
from shared.tournaments.state import TournamentState

__all__ = [
    "Create",
    "Finish",
    "OpenTable",
    "PairRound",
    "Placing",
    "RecordResult",
    "Register",
    "Start",
    "TournamentCommandUnion",
    "TournamentEventUnion",
    "TournamentState",
    "Withdraw",
    "create",
    "decide",
    "evolve",
    "fold",
    "record_command",
]
