"""The cards of the card game: 193 civilisation cards and the three ships (docs/rules/tigris-cards.md §2).

Hands and the draw pile only ever hold the four plain colours, so they are
counted by :class:`Colour`. The table and the VP piles also hold treasures
(red for conflicts, jokers at the end) and the table holds ships, so a table
or pile position carries a :class:`Card`.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from shared.games.tigris_common.colours import COLOURS, Colour


class Card(StrEnum):
    RED = "red"
    BLUE = "blue"
    GREEN = "green"
    BLACK = "black"
    TREASURE = "treasure"
    SHIP_BLACK = "ship_blue_black"
    SHIP_GREEN = "ship_blue_green"
    SHIP_RED = "ship_blue_red"


#: The composition of the 185 plain civilisation cards (the treasures are extra).
PLAIN_COUNTS: dict[Colour, int] = {Colour.RED: 65, Colour.BLUE: 40, Colour.GREEN: 40, Colour.BLACK: 40}
TREASURES = 8
TOTAL_CARDS = sum(PLAIN_COUNTS.values()) + TREASURES  # 193

SHIPS: tuple[Card, ...] = (Card.SHIP_BLACK, Card.SHIP_GREEN, Card.SHIP_RED)
#: Every ship shows blue plus one other colour; a non-blue series buys only its own ship.
SHIP_COLOURS: dict[Card, tuple[Colour, Colour]] = {
    Card.SHIP_BLACK: (Colour.BLUE, Colour.BLACK),
    Card.SHIP_GREEN: (Colour.BLUE, Colour.GREEN),
    Card.SHIP_RED: (Colour.BLUE, Colour.RED),
}
_SHIP_OF_SERIES = {colours[1]: ship for ship, colours in SHIP_COLOURS.items()}

_COLOUR_OF_CARD: dict[Card, Colour] = {Card(c.value): c for c in COLOURS} | {Card.TREASURE: Colour.RED}


def card_of(colour: Colour) -> Card:
    return Card(colour.value)


def colour_of(card: Card) -> Colour | None:
    """The colour a table card counts as: treasures are red, ships have none."""
    return _COLOUR_OF_CARD.get(card)


def is_ship(card: Card) -> bool:
    return card in SHIP_COLOURS


def ships_for_series(colour: Colour, available: tuple[Card, ...]) -> tuple[Card, ...]:
    """Blue is the ships' joker colour: a blue series may take any ship still there."""
    if colour is Colour.BLUE:
        return available
    ship = _SHIP_OF_SERIES[colour]
    return (ship,) if ship in available else ()


def plain_deck() -> list[Colour]:
    """The 185 plain cards in a fixed order, before shuffling."""
    return [colour for colour in COLOURS for _ in range(PLAIN_COUNTS[colour])]


# Hands and discard piles are colour counts in COLOURS order.
Counts = tuple[int, int, int, int]
_INDEX = {c: i for i, c in enumerate(COLOURS)}


def counts_of(by_colour: Mapping[Colour, int]) -> Counts:
    """Counts by colour as a hand is written: in ``COLOURS`` order."""
    first, second, third, fourth = (by_colour[c] for c in COLOURS)
    return first, second, third, fourth


def count(counts: Counts, colour: Colour) -> int:
    return counts[_INDEX[colour]]


def add(counts: Counts, colour: Colour, n: int = 1) -> Counts:
    out = list(counts)
    out[_INDEX[colour]] += n
    if out[_INDEX[colour]] < 0:
        raise ValueError(f"no {colour} card left to take")
    return (out[0], out[1], out[2], out[3])


def add_all(counts: Counts, cards: tuple[Colour, ...] | list[Colour]) -> Counts:
    for colour in cards:
        counts = add(counts, colour)
    return counts
