"""Euphrates & Tigris, the card game (Hans im Glück 2005): the pure rules engine.

Map of the package (the spec is docs/rules/tigris-cards.md):

- ``cards``: the 193 civilisation cards, the three ships, hand counting.
- ``options``: every open point of the rules as a named option with its default.
- ``state``, ``commands``, ``events``: the records; phases say who is awaited.
- ``setup``, ``evolve``, ``decide``, ``legal``: the contract's functions.
- ``rules/``: one module per concept (kingdoms, leaders, playing cards and VP,
  connecting and the treasure exchange, catastrophes, conflicts, ships, turns
  and refilling, scoring). Rules emit events into the kernel's ``Fold``, which
  folds them at once, so each step sees the effects of the previous one.
- ``rejections``: the stable codes of every refused command.
- ``views``: per-audience views and the visibility of every event.
- ``secrets``: what the game hides, for the generic secrecy test.
- ``bots``: ``random`` and the one-ply ``greedy``.

Shared with the board game through ``tigris_common``: colours, leaders and the
weakest-colour scoring with jokers.
"""

from __future__ import annotations

from shared.games.tigris_cards.bots import greedy_bot, random_bot, rating, standing
from shared.games.tigris_cards.commands import TigrisCardsCommand
from shared.games.tigris_cards.decide import decide
from shared.games.tigris_cards.events import TigrisCardsEvent
from shared.games.tigris_cards.evolve import evolve
from shared.games.tigris_cards.legal import actors, legal, legal_groups
from shared.games.tigris_cards.options import Options
from shared.games.tigris_cards.rules.scoring import result
from shared.games.tigris_cards.secrets import conceal, reveals, sample_hidden
from shared.games.tigris_cards.setup import create
from shared.games.tigris_cards.state import State
from shared.games.tigris_cards.views import view, visibility
from shared.kernel.contract import GameModule, Secrets
from shared.kernel.search import SearchBot

GAME: GameModule[State, TigrisCardsCommand, TigrisCardsEvent, Options] = GameModule(
    key="tigris-cards",
    title="Euphrates & Tigris: the card game",
    min_seats=2,
    max_seats=4,
    options_type=Options,
    command_type=TigrisCardsCommand,
    event_type=TigrisCardsEvent,
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
    # A seat whose clock ran out plays on sensibly rather than at random, so a
    # dropped player neither stalls the table nor throws cards away.
    bots={
        "random": random_bot,
        "greedy": greedy_bot,
        "zombie": greedy_bot,
        "easy": random_bot,
        "medium": greedy_bot,
        "hard": SearchBot(
            game=lambda: GAME,
            sample=sample_hidden,
            score=standing,
            # The greedy bot costs no more a move than the random one here, and plays the game.
            rollout=greedy_bot,
            prior=greedy_bot,
            rate=rating,
            spread=2.0,
            # Each candidate judged on the same deals: 11 of 11 won against medium where the
            # tree won 12 of 16 (docs/performance.md, "Bot levels").
            root="halving",
        ),
    },
)

GAMES = (GAME,)
