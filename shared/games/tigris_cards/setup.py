"""The opening: treasures as column heads, a shuffled deck, eight cards each
(docs/rules/tigris-cards.md §4)."""

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
    # Unless fixed by option the start player is drawn; TurnStarted records it.
    first = options.first_seat if options.first_seat is not None else rng.below(seats)
    if not 0 <= first < seats:
        raise ValueError(f"first_seat must be a seat of this table (0..{seats - 1})")
    start_turn(d, first)
    return d.events
