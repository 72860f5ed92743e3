"""The opening: treasures as column heads, a shuffled deck, eight cards each."""

from __future__ import annotations

from shared.games.tigris_cards.cards import plain_deck
from shared.games.tigris_cards.events import CardsSetAside, DeckShuffled, GameStarted, TigrisCardsEvent
from shared.games.tigris_cards.evolve import evolve
from shared.games.tigris_cards.options import Options
from shared.games.tigris_cards.rules.draft import Draft
from shared.games.tigris_cards.rules.turns import deal, start_turn
from shared.kernel.rng import Rng


def create(options: Options, seats: int, rng: Rng) -> list[TigrisCardsEvent]:
    if not 2 <= seats <= 4:
        raise ValueError("the card game seats 2 to 4 players")
    started = GameStarted(seats=seats, options=options)
    d = Draft(evolve(None, started), rng)
    d.events.append(started)
    d.emit(DeckShuffled(order=tuple(rng.shuffled(plain_deck()))))
    for seat in range(seats):
        deal(d, seat, options.hand_size)
    if seats == 2 and options.two_player_removal:
        d.emit(CardsSetAside(count=options.two_player_removal))
    # The start player is chosen at random; the draw is recorded in TurnStarted.
    start_turn(d, rng.below(seats))
    return d.events
