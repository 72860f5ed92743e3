"""The opening: treasures as column heads, a shuffled deck, eight cards each
(docs/rules/tigris-cards.md §4)."""

from __future__ import annotations

from shared.games.tigris_cards.cards import plain_deck
from shared.games.tigris_cards.events import CardsSetAside, DeckShuffled, GameStarted, TigrisCardsEvent
from shared.games.tigris_cards.evolve import evolve
from shared.games.tigris_cards.options import Options
from shared.games.tigris_cards.rules import CardsFold
from shared.games.tigris_cards.rules.turns import deal, start_turn
from shared.kernel.fold import Fold
from shared.kernel.rng import Rng


def create(options: Options, seats: int, rng: Rng) -> list[TigrisCardsEvent]:
    if not 2 <= seats <= 4:
        raise ValueError("the card game seats 2 to 4 players")
    started = GameStarted(seats=seats, options=options)
    # GameStarted is the one event folded onto no state; the fold starts after it.
    f: CardsFold = Fold(evolve(None, started), evolve, rng)
    f.emit(DeckShuffled(order=tuple(rng.shuffled(plain_deck()))))
    for seat in range(seats):
        deal(f, seat, options.hand_size)
    if seats == 2 and options.two_player_removal:
        f.emit(CardsSetAside(count=options.two_player_removal))
    # Unless fixed by option the start player is drawn; TurnStarted records it.
    first = options.first_seat if options.first_seat is not None else rng.below(seats)
    if not 0 <= first < seats:
        raise ValueError(f"first_seat must be a seat of this table (0..{seats - 1})")
    start_turn(f, first)
    return [started, *f.events]
