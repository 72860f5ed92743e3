"""Age of Conan: The Strategy Board Game, with Ziggurat's own content pack.

The engine is content-agnostic: the map, dice and cards come from a content
pack (``content/<name>/*.yaml``) chosen by the ``pack`` option and loaded
once, outside ``decide``. The bundled pack is Ziggurat's own design.
"""

from __future__ import annotations

from shared.games.conan.bots import heuristic_bot, random_bot
from shared.games.conan.commands import AnyCommand
from shared.games.conan.decide import decide
from shared.games.conan.events import AnyEvent
from shared.games.conan.evolve import evolve
from shared.games.conan.legal import actors, legal
from shared.games.conan.options import Options
from shared.games.conan.secrets import conceal, hidden_ids, named_ids, reveals
from shared.games.conan.setup import create
from shared.games.conan.state import GameOver, State
from shared.games.conan.views import view, visibility
from shared.kernel.contract import GameModule, Result, Secrets


def result(state: State) -> Result | None:
    if not state.phases or not isinstance(state.phase, GameOver):
        return None
    return Result(standings=state.standings, reason=state.end_reason)


GAME: GameModule[State, AnyCommand, AnyEvent, Options] = GameModule(
    key="conan",
    title="Age of Conan: The Strategy Board Game",
    min_seats=2,
    max_seats=4,
    options_type=Options,
    command_type=AnyCommand,
    event_type=AnyEvent,
    create=create,
    evolve=evolve,
    decide=decide,
    seat_count=lambda state: len(state.seats),
    actors=actors,
    legal=legal,
    view=view,
    visibility=visibility,
    result=result,
    secrets=Secrets(conceal=conceal, reveals=reveals, hidden_ids=hidden_ids, named_ids=named_ids),
    bots={"random": random_bot, "heuristic": heuristic_bot},
)

GAMES = (GAME,)
