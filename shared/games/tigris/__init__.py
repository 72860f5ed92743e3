"""Tigris & Euphrates, the board game (Knizia, 1997): the pure rules engine.

The spec is docs/rules/tigris.md; every point the seed leaves open, or states
two ways, is a field of :class:`Options` (§19 there).
"""

from __future__ import annotations

from shared.games.tigris.bots import greedy_bot, random_bot, rating, rollout_bot, standing
from shared.games.tigris.commands import TigrisCommand
from shared.games.tigris.decide import decide
from shared.games.tigris.events import TigrisEvent
from shared.games.tigris.evolve import evolve
from shared.games.tigris.legal import actors, legal, legal_groups
from shared.games.tigris.options import Options
from shared.games.tigris.rules.scoring import result
from shared.games.tigris.secrets import conceal, reveals, sample_hidden
from shared.games.tigris.setup import create
from shared.games.tigris.state import State
from shared.games.tigris.views import view, visibility
from shared.kernel.contract import GameModule, Secrets
from shared.kernel.search import SearchBot

GAME: GameModule[State, TigrisCommand, TigrisEvent, Options] = GameModule(
    key="tigris",
    title="Tigris & Euphrates",
    min_seats=2,
    max_seats=4,
    options_type=Options,
    command_type=TigrisCommand,
    event_type=TigrisEvent,
    create=create,
    evolve=evolve,
    decide=decide,
    seat_count=lambda state: state.seats,
    actors=actors,
    legal=legal,
    legal_groups=legal_groups,
    view=view,
    visibility=visibility,
    result=result,
    secrets=Secrets(conceal=conceal, reveals=reveals, sample_hidden=sample_hidden),
    state_type=State,
    bots={
        "random": random_bot,
        "greedy": greedy_bot,
        "easy": random_bot,
        "medium": greedy_bot,
        "hard": SearchBot(
            game=lambda: GAME,
            sample=sample_hidden,
            score=standing,
            # The greedy choice among a few sampled commands: playing for points, at about
            # a random move's cost (docs/performance.md, "Bot levels", fourth pass).
            rollout=rollout_bot,
            prior=greedy_bot,
            rate=rating,
            spread=2.0,
            # The others move as medium would and only a win counts: at four seats 8 of 24
            # won against three medium seats, not yet shown better than before (4 of 12).
            opponents="rollout",
            versus="best",
            # Rollouts of 4 moves, the heuristic scoring the cut: 1.7 times the iterations a
            # move (69-92 for 43-52) in the same CPU (docs/performance.md, "Bot levels", fifth pass).
            depth=4,
            # At bias 1 the search kept the rating's best move 15 times in 16; at 0.3 it may
            # overrule it: 13 of 24 deals won at four seats against three medium seats where
            # bias 1 won 8 of the same 24 (25 of 48 over deals 1-48), 7 of 10 at two seats as
            # before (docs/performance.md, "Bot levels", sixth pass).
            bias=0.3,
        ),
    },
)

GAMES = (GAME,)
