"""Catan with the Cities & Knights expansion (``catan-ck``) and the base game (``catan``)."""

from __future__ import annotations

from shared.games.catan.bots import greedy_bot, random_bot, rating, standing, uniform_bot, zombie_bot
from shared.games.catan.commands import CatanCommand
from shared.games.catan.decide import decide
from shared.games.catan.events import CatanEvent
from shared.games.catan.evolve import evolve
from shared.games.catan.legal import actors, legal
from shared.games.catan.options import Options
from shared.games.catan.rules.victory import result
from shared.games.catan.secrets import conceal, reveals, sample_hidden
from shared.games.catan.setup import create
from shared.games.catan.state import MAX_SEATS, MIN_SEATS, State
from shared.games.catan.views import view, visibility
from shared.kernel.contract import GameModule, Secrets
from shared.kernel.search import SearchBot


def _module(
    key: str, title: str, defaults: dict[str, str]
) -> GameModule[State, CatanCommand, CatanEvent, Options]:
    game: GameModule[State, CatanCommand, CatanEvent, Options] = GameModule(
        key=key,
        title=title,
        min_seats=MIN_SEATS,
        max_seats=MAX_SEATS,
        options_type=Options,
        command_type=CatanCommand,
        event_type=CatanEvent,
        create=create,
        evolve=evolve,
        decide=decide,
        seat_count=lambda state: state.seats,
        actors=actors,
        legal=legal,
        view=view,
        visibility=visibility,
        result=result,
        secrets=Secrets(conceal=conceal, reveals=reveals, sample_hidden=sample_hidden),
        state_type=State,
        bots={
            "random": random_bot,
            "uniform": uniform_bot,
            "greedy": greedy_bot,
            "zombie": zombie_bot,
            "easy": random_bot,
            "medium": greedy_bot,
            # The module holds its own bot: looked up when a move is asked for.
            # Led by the greedy bot's rating and rolling out as it plays, measured by the
            # margin against the best other seat, the others moving as greedy would
            # (docs/performance.md, "Bot levels", fifth pass: not yet shown better).
            "hard": SearchBot(
                game=lambda: game,
                sample=sample_hidden,
                score=standing,
                rollout=greedy_bot,
                prior=greedy_bot,
                rate=rating,
                spread=1.0,
                versus="best",
                opponents="rollout",
            ),
        },
        default_options=defaults,
    )
    return game


CATAN_CK = _module("catan-ck", "Catan: Cities & Knights", {"expansion": "ck"})
CATAN = _module("catan", "Catan", {"expansion": "none"})
GAMES = (CATAN_CK, CATAN)
